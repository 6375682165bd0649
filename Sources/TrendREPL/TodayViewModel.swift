import AppCore
import Settings
import WeightLog

/// The `today` screen: the check-in. (Daily tips join it in their own issue.)
@MainActor
struct TodayViewModel {
    private let weightEntryFeature: WeightEntryFeature

    init(weightEntryFeature: WeightEntryFeature = AppModel.shared.weightEntryFeature) {
        self.weightEntryFeature = weightEntryFeature
    }

    static var commands: [CommandSpec] {
        [
            CommandSpec(name: "today", aliases: ["t", "checkin"], usage: "today",
                        summary: "today's check-in: latest weight, trend, verdict, streak") { context, arguments in
                guard arguments.isEmpty else { throw CommandFailure("usage", "today: takes no arguments") }
                let viewModel = TodayViewModel(weightEntryFeature: context.app.weightEntryFeature)
                return try await viewModel.show(style: context.style)
            },
        ]
    }

    func show(style: TerminalStyle) async throws -> CommandOutput {
        try await weightEntryFeature.load()
        return render(weightEntryFeature.checkIn(), style: style)
    }

    func render(_ checkIn: CheckIn, style: TerminalStyle) -> CommandOutput {
        let unit = weightEntryFeature.unit
        var lines = [style.bold("Today, " + DateText.longDay(checkIn.day))]
        if let latest = checkIn.latestKilograms, let latestDay = checkIn.latestDay {
            var weightLine = "  weight   " + style.bold(unit.format(latest))
            if latestDay != checkIn.day { weightLine += style.dim("  (last weigh-in \(DateText.longDay(latestDay)))") }
            if let change = checkIn.changeSincePreviousKilograms {
                weightLine += "  " + style.dim("\(unit.formatChange(change)) since the weigh-in before")
            }
            lines.append(weightLine)
            if let trend = checkIn.trendKilograms { lines.append("  trend    " + unit.format(trend)) }
            if let verdict = checkIn.verdict { lines.append("  verdict  " + Self.describe(verdict, style: style)) }
        } else {
            lines.append("  No weigh-ins yet. Record one with 'weigh 82.4'.")
        }
        let days = checkIn.currentStreak == 1 ? "day" : "days"
        lines.append("  streak   \(checkIn.currentStreak) \(days)")
        return CommandOutput(text: lines.joined(separator: "\n"), json: Self.json(checkIn))
    }

    static func json(_ checkIn: CheckIn) -> JSON {
        .object([
            ("date", .string(DayNumber.string(checkIn.day))),
            ("latestKilograms", .optional(checkIn.latestKilograms)),
            ("trendKilograms", .optional(checkIn.trendKilograms)),
            ("verdict", .optional(checkIn.verdict?.rawValue)),
            ("currentStreak", .integer(checkIn.currentStreak)),
            ("changeKilograms", .optional(checkIn.changeSincePreviousKilograms)),
            ("latestDate", .optional(checkIn.latestDay.map(DayNumber.string))),
            ("tip", .null),
            ("weekAhead", .null),
        ])
    }

    static func describe(_ verdict: DailyVerdict, style: TerminalStyle) -> String {
        switch verdict {
        case .firstEntry: return style.paint("first entry — welcome! The trend starts here.", .cyan)
        case .movingDownward: return style.paint("↓ moving downward", .green)
        case .holdingSteady: return style.paint("→ holding steady", .cyan)
        case .needsAttention: return style.paint("↑ up since last time; the trend, not the day, is what counts", .yellow)
        case .timeForReset: return style.paint("↻ time for a reset: no real drop in more than 5 days", .magenta)
        }
    }
}
