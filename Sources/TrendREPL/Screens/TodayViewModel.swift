import AppCore
import DailyTips
import Settings
import WeightLog

/// The `today` screen: the check-in, with the tip of the day.
@MainActor
struct TodayViewModel {
    private let weightEntryFeature: WeightEntryFeature
    private let dailyTipsFeature: DailyTipsFeature

    init(weightEntryFeature: WeightEntryFeature = AppModel.shared.weightEntryFeature,
         dailyTipsFeature: DailyTipsFeature = AppModel.shared.dailyTipsFeature) {
        self.weightEntryFeature = weightEntryFeature
        self.dailyTipsFeature = dailyTipsFeature
    }

    func show(style: TerminalStyle) async throws -> CommandOutput {
        try await weightEntryFeature.load()
        return await render(weightEntryFeature.checkIn(), style: style)
    }

    /// The check-in; a tip that cannot be drawn leaves its slot empty rather than failing the check-in.
    func render(_ checkIn: CheckIn, style: TerminalStyle) async -> CommandOutput {
        // The check-in stands without its tip: a deck that cannot be read leaves the slot empty ('tip' reports why).
        let tip = try? await dailyTipsFeature.todaysTip()
        let weekAhead = dailyTipsFeature.weekAhead
        let unit = weightEntryFeature.unit
        var lines = [style.bold("Today, " + DateText.longDay(checkIn.day))]
        if let latestEntry = checkIn.latestEntry, let latestDay = checkIn.latestDay {
            var weightLine = "  weight   " + style.bold(unit.format(latestEntry.kilograms))
            if latestDay != checkIn.day {
                weightLine += style.dim("  (last weigh-in \(DateText.longDay(latestDay)))")
            } else {
                weightLine += " at " + DateText(timeZone: weightEntryFeature.calendar.timeZone).local(latestEntry.date).suffix(5)
            }
            if let mean = checkIn.dayMeanKilograms {
                weightLine += style.dim("  (today's mean \(unit.format(mean)) of \(checkIn.weighInsOnLatestDay) weigh-ins)")
            }
            lines.append(weightLine)
            if let trend = checkIn.trendKilograms { lines.append("  trend    " + unit.format(trend)) }
            if let verdict = checkIn.verdict {
                var verdictLine = "  verdict  " + Self.describe(verdict, style: style)
                if let change = checkIn.changeSincePreviousKilograms {
                    verdictLine += style.dim("  (day mean \(unit.formatChange(change)) on the weighed day before)")
                }
                lines.append(verdictLine)
            }
            if let toGoal = checkIn.toGoalKilograms {
                let left = abs(toGoal) <= 1.1 ? "at your goal" : "\(unit.format(abs(toGoal))) to \(toGoal < 0 ? "lose" : "gain")"
                lines.append("  to goal  \(left)")
            }
            if let bmi = checkIn.bodyMassIndex {
                lines.append("  BMI      \(WeightUnit.fixed(bmi.value, decimals: 1)) (\(bmi.whoClass.rawValue), from the trend)")
            }
        } else {
            lines.append("  No weigh-ins yet. Record one with 'weigh 82.4'.")
        }
        let days = checkIn.currentStreak == 1 ? "day" : "days"
        lines.append("  streak   \(checkIn.currentStreak) \(days)")
        if let tip { lines += ["", TipViewModel.line(tip, style: style)] }
        if let weekAhead { lines += ["", style.bold(weekAhead)] }
        return CommandOutput(text: lines.joined(separator: "\n"), json: Self.json(checkIn, tip: tip, weekAhead: weekAhead))
    }

    static func json(_ checkIn: CheckIn, tip: Tip?, weekAhead: String?) -> JSON {
        .object([
            ("date", .string(DayNumber.string(checkIn.day))),
            ("latestKilograms", .optional(checkIn.latestKilograms)),
            ("latestAt", .optional(checkIn.latestEntry.map { DateText(timeZone: .current).instant($0.date) })),
            ("dayMeanKilograms", .optional(checkIn.dayMeanKilograms)),
            ("trendKilograms", .optional(checkIn.trendKilograms)),
            ("toGoalKilograms", .optional(checkIn.toGoalKilograms)),
            ("bmi", .optional(checkIn.bodyMassIndex?.value)),
            ("bmiClass", .optional(checkIn.bodyMassIndex?.whoClass.rawValue)),
            ("verdict", .optional(checkIn.verdict?.rawValue)),
            ("currentStreak", .integer(checkIn.currentStreak)),
            ("changeKilograms", .optional(checkIn.changeSincePreviousKilograms)),
            ("latestDate", .optional(checkIn.latestDay.map(DayNumber.string))),
            ("tip", TipViewModel.json(tip)),
            ("weekAhead", .optional(weekAhead)),
        ])
    }

    static func describe(_ verdict: DailyVerdict, style: TerminalStyle) -> String {
        switch verdict {
        case .firstEntry: return style.paint("first entry — welcome! The trend starts here.", .cyan)
        case .movingDownward: return style.paint("↓ moving downward", .green)
        case .holdingSteady: return style.paint("→ holding steady", .cyan)
        case .needsAttention: return style.paint("↑ up since last time; the trend, not the day, is what counts", .yellow)
        case .timeForReset: return style.paint("↻ time for a reset: no real change toward your goal in a week", .magenta)
        }
    }
}
