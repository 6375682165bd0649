import CommandLanguage
import AppCore
import Foundation
import Vocabulary

/// The words of the summary screen.
extension SummaryViewModel {
    static var commands: [CommandSpec] {
        [
            CommandSpec(name: "summary", syntax: .optional(.value(.periods, .words(["week", "month", "year", "30d", "90d"]), .periods)),
                        reads: [.weighIns],
                        summary: "a period's weigh-ins, trend, lowest and highest day, body fat, lean mass and tape measures, and habits, against the one before",
                        examples: ["summary", "summary month", "summary 2026-02", "summary 30d"]) { context, arguments in
                try await SummaryViewModel(summaryFeature: context.app.summaryFeature).show(arguments[.periods], style: context.style)
            },
        ]
    }
}

extension ArgumentGrammar {
    /// A period and the one it is compared with, as `ComparedPeriods` names them (`week`, `2026-02`, `last month`).
    static let periods = ArgumentGrammar(noun: "a period", forms: "a period is week, month, year, 30d, 2026-02, 2025, 2026-01-01..2026-01-31 or words such as 'last week'") { words, _, context in
        var readings: [ArgumentReading] = []
        for length in stride(from: min(3, words.count), through: 1, by: -1) {
            let typed = Array(words.prefix(length))
            guard let name = DayRange.spoken(typed, today: context.today) ?? (length == 1 ? typed[0] : nil),
                  let periods = ComparedPeriods.named(name, today: context.today) else { continue }
            readings.append(ArgumentReading(.periods(periods), consumed: length))
        }
        return readings
    }
}

/// `summary`'s period and the one before it, by key.
extension ArgumentKey where Value == ComparedPeriods { static var periods: Self { .init("week|month|year|RANGE") } }
