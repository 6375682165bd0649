import AppCore
import Habits
import Progress
import Settings
import Vocabulary
import WeightLog

/// The `progress` screen (chart and numbers) and `goal`.
@MainActor
struct ProgressViewModel {
    private let progressFeature: ProgressFeature
    /// For `progress RANGE with HABIT`: the habit whose days are marked under the chart.
    private let habitsFeature: HabitsFeature?

    init(progressFeature: ProgressFeature = AppModel.shared.progressFeature, habitsFeature: HabitsFeature? = nil) {
        self.progressFeature = progressFeature
        self.habitsFeature = habitsFeature
    }

    /// `… with NAME` at the end of `arguments` (taken off them): the habit whose done days a chart marks.
    static func habitMarked(in arguments: inout [String], habitsFeature: HabitsFeature?, command: String) async throws
        -> (name: String, days: Set<Int>)? {
        guard let with = arguments.firstIndex(where: { $0.lowercased() == "with" }), let habitsFeature else { return nil }
        let name = arguments[(with + 1)...].joined(separator: " ")
        guard !name.isEmpty else { throw CommandFailure(.usage, "\(command): 'with' needs a habit's name, e.g. '\(command) … with Gym'") }
        try await habitsFeature.load()
        let habit = try habitsFeature.habit(named: name)
        arguments = Array(arguments[..<with])
        return (habit.name, habit.daysDoneAtAll)
    }

    func range(named name: String) throws -> ProgressRange {
        guard let range = ProgressRange(name: name, today: progressFeature.today) else {
            throw ProgressError.unknownRange(ReplSession.printable(name))
        }
        return range
    }

    func show(_ arguments: [String], style: TerminalStyle) async throws -> CommandOutput {
        var arguments = arguments
        let marked = try await Self.habitMarked(in: &arguments, habitsFeature: habitsFeature, command: "progress")
        // Everyday words (`2 weeks`, `last month`) name a RANGE too.
        arguments = DayRange.spoken(arguments, today: progressFeature.today).map { [$0] } ?? arguments
        guard arguments.count <= 1 else {
            throw CommandFailure(.usage, "progress: takes at most one RANGE (2w 3m 1y all, 2026-02, 2025, START..END, or words such as '2 weeks' or 'last month')")
        }
        let data: WeightHistoryData
        var warnings: [String] = []
        if let name = arguments.first {
            data = try await progressFeature.selectProgressRange(try range(named: name))
            if let failure = progressFeature.rangeNotKept {
                warnings.append("the range is shown but not kept for next time: \(failure)")
            }
        } else {
            data = try await progressFeature.prepare()
        }
        let unit = progressFeature.selectedWeightUnit
        return CommandOutput(Shown(data: data, unit: unit, commentary: Self.commentary(data, unit: unit), habit: marked), style: style, warnings: warnings)
    }

    /// `progress [RANGE]`: the range's history, drawn and told, and the same figures for a script.
    struct Shown: CommandAnswer {
        let data: WeightHistoryData
        let unit: WeightUnit
        let commentary: String
        var habit: (name: String, days: Set<Int>)?

        func encode(to encoder: any Encoder) throws {
            guard case let .object(members) = ProgressViewModel.json(data, commentary: commentary) else { return }
            let inRange = habit.map { habit in habit.days.filter { day in data.points.first.map { day >= $0.day } ?? false && day <= data.today }.sorted() }
            let marked: JSON = habit.map { habit in
                .object([("name", .string(habit.name)), ("days", .array((inRange ?? []).map { .string(DayNumber.string($0)) }))])
            } ?? .null
            try JSON.object(members + [("habit", marked)]).encode(to: encoder)
        }

        func text(style: TerminalStyle) -> String {
            var lines = [style.bold("Progress, \(data.range.title)")]
            if data.points.isEmpty {
                lines.append(commentary)
                return lines.joined(separator: "\n")
            }
            lines.append(ChartRenderer(style: style, unit: unit, habit: habit).render(data))
            lines.append("")
            if let change = data.changeKilograms, let direction = data.changeDirection {
                let color: TerminalStyle.Color = direction == .improving ? .green : (direction == .worsening ? .magenta : .cyan)
                lines.append("  change   " + style.paint("\(unit.formatChange(change)) (\(direction.rawValue))", color))
            }
            if let average = data.averageKilograms, let low = data.minimumKilograms, let high = data.maximumKilograms {
                lines.append("  average  \(unit.format(average))   low \(unit.format(low))   high \(unit.format(high))")
            }
            if let weekly = data.projectedWeeklyChangeKilograms, let energy = data.energyBalanceKilocaloriesPerDay {
                let kcal = Int(energy.rounded())
                let balance = kcal < 0 ? "a deficit of about \(-kcal) kcal a day" : (kcal > 0 ? "a surplus of about \(kcal) kcal a day" : "in balance")
                lines.append("  rate     \(unit.formatChange(weekly, decimals: 2)) a week, \(balance)")
            } else {
                lines.append("  rate     " + style.dim(data.rateShortfall?.description ?? "none"))
            }
            if let goal = data.goalKilograms {
                if let day = data.projectedGoalDay {
                    var range = ""
                    if let span = data.projectedGoalDayRange, span.lowerBound < span.upperBound {
                        range = " (\(ProgressViewModel.rangeText(span, today: data.today)))"
                    }
                    lines.append("  goal     \(unit.format(goal)), around \(DateText.longDay(day))\(range)")
                } else {
                    lines.append("  goal     \(unit.format(goal)): " + (data.projectionUnavailableReason?.rawValue ?? "no projection"))
                }
            } else {
                lines.append("  goal     " + style.dim("none (set one with 'goal 75')"))
            }
            lines.append("")
            lines.append(commentary)
            return lines.joined(separator: "\n")
        }
    }

    func goal(_ arguments: [String]) async throws -> CommandOutput {
        // A one-shot run loads nothing ahead: the unit must be read before the goal is.
        try await progressFeature.loadSettings()
        let unit = progressFeature.selectedWeightUnit
        if let first = arguments.first {
            if first.lowercased() == "clear" || first.lowercased() == "none" {
                guard arguments.count == 1 else { throw CommandFailure(.usage, "goal: 'clear' takes nothing after it") }
                try await progressFeature.setGoal(kilograms: nil)
            } else {
                try await progressFeature.setGoal(kilograms: try WeightInput.parse(arguments.joined(separator: " "), defaultUnit: unit))
            }
        } else {
            _ = try await progressFeature.prepare()
        }
        return CommandOutput(Goal(goalKilograms: progressFeature.goalWeightKilograms, unit: progressFeature.selectedWeightUnit), style: .plain)
    }

    /// `goal`: the goal weight, or none.
    struct Goal: CommandAnswer {
        let goalKilograms: Double?
        let unit: WeightUnit

        enum CodingKeys: String, CodingKey { case goalKilograms }

        func text(style: TerminalStyle) -> String {
            goalKilograms.map { "Goal: \(unit.format($0))." } ?? "No goal set. Set one with 'goal 75'."
        }
    }

    nonisolated static func json(_ data: WeightHistoryData, commentary: String) -> JSON {
        .object([
            ("range", .string(data.range.rawValue)),
            ("points", .array(data.points.map { point in
                .object([("date", .string(DayNumber.string(point.day))), ("kilograms", .number(point.kilograms)),
                         ("smoothedKilograms", .number(point.smoothedKilograms))])
            })),
            ("changeKilograms", .optional(data.changeKilograms)),
            ("changeDirection", .optional(data.changeDirection?.rawValue)),
            ("averageKilograms", .optional(data.averageKilograms)),
            ("minimumKilograms", .optional(data.minimumKilograms)),
            ("maximumKilograms", .optional(data.maximumKilograms)),
            ("projectedWeeklyChangeKilograms", .optional(data.projectedWeeklyChangeKilograms)),
            ("energyBalanceKilocaloriesPerDay", .optional(data.energyBalanceKilocaloriesPerDay)),
            ("projectedGoalDate", .optional(data.projectedGoalDay.map(DayNumber.string))),
            ("projectedGoalDateRange", data.projectedGoalDayRange.map {
                .object([("earliest", .string(DayNumber.string($0.lowerBound))), ("latest", .string(DayNumber.string($0.upperBound)))])
            } ?? .null),
            ("fittedKilograms", .optional(data.fittedKilograms)),
            ("projection", .array(data.projection.map {
                .object([("date", .string(DayNumber.string($0.day))), ("kilograms", .number($0.kilograms))])
            })),
            ("projectionUnavailableReason", .optional(data.projectionUnavailableReason?.rawValue)),
            ("rateUnavailableReason", .optional(data.rateShortfall?.description)),
            ("goalKilograms", .optional(data.goalKilograms)),
            ("latestTrendKilograms", .optional(data.latestTrendKilograms)),
            ("domain", data.domain.map { .object([("lowerKilograms", .number($0.lowerBound)), ("upperKilograms", .number($0.upperBound))]) } ?? .null),
            ("commentary", .string(commentary)),
        ])
    }

    /// `late April – mid May`, or `Jul 13 – Jul 21` when both ends fall in one part of a month.
    nonisolated static func rangeText(_ span: ClosedRange<Int>, today: Int) -> String {
        let earliest = DateText.partOfMonth(span.lowerBound)
        if span.upperBound >= today + Int(ProgressCalculator.longestProjectionDays) { return "\(earliest) – a year or more" }
        let latest = DateText.partOfMonth(span.upperBound)
        guard earliest != latest else { return "\(DayNumber.shortLabel(span.lowerBound)) – \(DayNumber.shortLabel(span.upperBound))" }
        return "\(earliest) – \(latest)"
    }

    /// What a goal date still needs, in words: `A goal date needs 3 more weighed days and 9 more days.`
    nonisolated static func needs(_ shortfall: WeightRate.Shortfall?) -> String {
        guard let shortfall else { return "" }
        var parts: [String] = []
        if shortfall.moreWeighedDays > 0 { parts.append(shortfall.moreWeighedDays == 1 ? "1 more weighed day" : "\(shortfall.moreWeighedDays) more weighed days") }
        if shortfall.moreDays > 0 { parts.append(shortfall.moreDays == 1 ? "1 more day" : "\(shortfall.moreDays) more days") }
        return "A goal date needs " + (parts.isEmpty ? "a few more weigh-ins" : parts.joined(separator: " and ")) + "."
    }

    /// One or two sentences on the range: the change and what the projection says.
    static func commentary(_ data: WeightHistoryData, unit: WeightUnit) -> String {
        var sentences: [String] = []
        guard data.latestTrendKilograms != nil else { return "No weigh-ins yet. Record one with 'weigh 82.4'." }
        if let change = data.changeKilograms, let direction = data.changeDirection {
            let amount = unit.formatChange(abs(change)).dropFirst()
            switch direction {
            case .steady: sentences.append("Holding steady over \(data.range.title).")
            case .improving, .worsening:
                let verb = change < 0 ? "Down" : "Up"
                let judgement = direction == .improving ? "the right way" : "away from where you want to go"
                sentences.append("\(verb) \(amount) over \(data.range.title), \(judgement).")
            }
        } else if data.points.count == 1 {
            sentences.append("One weigh-in in \(data.range.title); a few more and the trend takes shape.")
        } else {
            sentences.append("No weigh-ins in \(data.range.title).")
        }
        switch data.projectionUnavailableReason {
        case nil:
            if let day = data.projectedGoalDay, let goal = data.goalKilograms {
                sentences.append("At this rate you reach \(unit.format(goal)) around \(DayNumber.string(day)).")
            }
        case .atGoal?: sentences.append("You are at your goal; keep it there.")
        case .noGoal?: sentences.append("Set a goal ('goal 75') to see when you will reach it.")
        case .notEnoughRecentWeighIns?:
            sentences.append("Weigh in on \(WeightRate.minimumRecentDays) of the last \(WeightRate.recentDays) days to see a rate and a goal date.")
        case .notEnoughHistory?: sentences.append(ProgressViewModel.needs(data.rateShortfall))
        case .movingAwayFromGoal?: sentences.append("The trend is moving away from your goal.")
        case .moreThanAYearAway?: sentences.append("At this rate your goal is more than a year away.")
        }
        return sentences.joined(separator: " ")
    }
}
