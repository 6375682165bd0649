import CommandLanguage
import Foundation
import Progress
import Vocabulary

/// Trend's words for the command language: the values they are read into (`ArgumentValue`) and what reading
/// them consults (`ReadingContext`: the person's unit, today, the habits, the line as typed).
enum TrendArguments: CommandDomain {
    typealias Value = ArgumentValue
    typealias Context = ReadingContext
    typealias Handling = CommandContext
    typealias Reads = CommandReads

    static func word(_ text: String) -> ArgumentValue { .text(text) }

    static func cast<T>(_ value: ArgumentValue, as type: T.Type) -> T? { value.value(as: type) }
}

/// The command language's parts, with Trend's words.
typealias CommandSyntax = CommandLanguage.CommandSyntax<TrendArguments>
typealias ArgumentGrammar = CommandLanguage.ArgumentGrammar<TrendArguments>
typealias ArgumentReading = CommandLanguage.ArgumentReading<TrendArguments>
typealias ParsedArguments = CommandLanguage.ParsedArguments<TrendArguments>

/// Trend's own grammars, beside the language's (`word`, `phrase`, `oneOf`): each names the domain type that reads it.
extension ArgumentGrammar {
    /// The rest of the line as typed after `keyword`, quotes kept (a note, a text to find);
    /// one quoted word that is all of it is read as the tokenizer reads it.
    static func text(after keyword: String) -> ArgumentGrammar {
        ArgumentGrammar(noun: "some text") { words, _, context in
            guard !words.isEmpty else { return [] }
            let typed = CommandTokenizer.text(after: keyword, in: context.line) ?? words.joined(separator: " ")
            return typed.isEmpty ? [] : [ArgumentReading(.text(typed), consumed: words.count)]
        }
    }

    /// A whole number from 1 to `limit`.
    static func count(upTo limit: Int) -> ArgumentGrammar {
        ArgumentGrammar(noun: "a count", forms: "a number from 1 to \(limit), e.g. 20") { words, _, _ in
            guard let first = words.first, let number = Int(first), (1...limit).contains(number) else { return [] }
            return [ArgumentReading(.count(number), consumed: 1)]
        }
    }

    /// A WHEN as `WhenInput` reads it (`yesterday 21:00`, `last fri`, `2026-02-14 07:30`).
    static var when: ArgumentGrammar {
        ArgumentGrammar(noun: "a WHEN", forms: "WHEN is 21:00, yesterday, yesterday 21:00, last fri, 3 days ago or YYYY-MM-DD [HH:MM]") { words, _, _ in
            guard let (when, used) = try WhenInput.parse(words) else { return [] }
            return [ArgumentReading(.when(when), consumed: used)]
        }
    }

    /// A RANGE as `DayRange` and `ProgressRange` read it, everyday words too (`last week`, `3 months`), longest first.
    static var range: ArgumentGrammar {
        ArgumentGrammar(noun: "a RANGE", forms: "RANGE is \(WeightViewModel.rangeForms)") { words, _, context in
            let today = context.today
            var readings: [ArgumentReading] = []
            for length in stride(from: min(3, words.count), through: 1, by: -1) {
                let typed = Array(words.prefix(length))
                guard let name = DayRange.spoken(typed, today: today) ?? (length == 1 ? typed[0].lowercased() : nil) else { continue }
                let days = DayRange.parse(name, today: today)
                if days != nil || ProgressRange(name: name, today: today) != nil {
                    readings.append(ArgumentReading(.range(NamedRange(name: name, days: days)), consumed: length))
                }
            }
            return readings
        }
    }
}

extension CommandSyntax {
    /// The RANGE every listing takes (`2w 3m 1y all`, a month, a year, START..END, `last week`), read as a `NamedRange`.
    static var range: CommandSyntax { .value(.range, .words(ProgressRange.allCases.map(\.rawValue)), .range) }
}

/// A RANGE as typed and the days it names.
public struct NamedRange: Sendable, Equatable {
    /// The RANGE word in lower case (`2w`, `2026-02`, `month`), everyday words turned into it (`last week` → its days).
    public let name: String
    /// The days it names, for a listing; nil for the chart's own words (`month`, `year`), which only `progress` takes.
    public let days: DayRange?

    /// The days, or why this RANGE is none for `command` (a listing does not take `month`).
    @MainActor func listed(by command: String) throws -> DayRange {
        guard let days else {
            throw CommandFailure(.usage, "\(command): '\(TerminalText.printable(name))' is not a RANGE here; use \(WeightViewModel.rangeForms)")
        }
        return days
    }
}
