import CommandLanguage
import AppCore
import Habits
import Progress
import Vocabulary
import WeightLog

/// The `progress` screen (chart and numbers) and `goal`.
@MainActor
struct ProgressViewModel {
    private let progressFeature: ProgressFeature
    /// For `progress RANGE with HABIT`: the habit whose days are marked under the chart.
    private let habitsFeature: HabitsFeature?

    /// For `progress RANGE fat|lean|waist|…`: where body fat and the tape measures come from.
    private let weightEntryFeature: WeightEntryFeature?
    private let measurementsFeature: MeasurementsFeature?

    init(progressFeature: ProgressFeature = AppModel.shared.progressFeature, habitsFeature: HabitsFeature? = nil,
         weightEntryFeature: WeightEntryFeature? = nil, measurementsFeature: MeasurementsFeature? = nil) {
        self.progressFeature = progressFeature
        self.habitsFeature = habitsFeature
        self.weightEntryFeature = weightEntryFeature
        self.measurementsFeature = measurementsFeature
    }

    /// `progress [RANGE] fat|lean|fat-mass|waist|…`: the measure's chart and its change over the range.
    func show(_ measure: ProgressMeasure, range name: String?, style: TerminalStyle) async throws -> CommandOutput {
        CommandOutput(try await measured(measure, range: name), style: style)
    }

    /// A measure's history over a RANGE (the chosen one by default, `ProgressFeature.history`), with the scale it is
    /// drawn on: what `progress … waist` shows, `export chart.svg … waist` and the report draw.
    func measured(_ measure: ProgressMeasure, range name: String?) async throws -> MeasureShown {
        guard let weightEntryFeature, let measurementsFeature else { throw CommandFailure(.failed, "progress: no measures here") }
        let range = try name.map { try self.range(named: $0) }
        let history = try await progressFeature.history(of: measure, range: range, weights: weightEntryFeature, measurements: measurementsFeature)
        let scale = ChartScale.of(measure, weightUnit: progressFeature.selectedWeightUnit, lengthUnit: measurementsFeature.unit)
        let ratio = history.waistToHeight.map { value in
            "Waist to height \(WeightUnit.fixed(value, decimals: 2)): \(value < WaistToHeight.threshold ? "under" : "over") \(WeightUnit.fixed(WaistToHeight.threshold, decimals: 1)), "
                + "the line a waist keeps under at any height (half the height)."
        }
        return MeasureShown(measure: measure, data: history.data, scale: scale, waistToHeight: ratio)
    }

    /// What the lean mass did over the weight chart's days (`LeanMassChange`), when it can be said and moved enough to say.
    func leanMassSentence(over data: WeightHistoryData, unit: WeightUnit) async throws -> String? {
        guard let weightEntryFeature, let weightChange = data.changeKilograms,
              let leanChange = try await progressFeature.leanMassChange(over: data, weights: weightEntryFeature) else { return nil }
        return LeanMassChange.sentence(weightChange: weightChange, leanChange: leanChange, unit: unit)
    }

    /// `progress RANGE fat|lean|waist`: a measure's range, drawn and told, and the same figures for a script.
    struct MeasureShown: CommandAnswer {
        let measure: ProgressMeasure
        let data: WeightHistoryData
        let scale: ChartScale
        let waistToHeight: String?

        func encode(to encoder: any Encoder) throws {
            try JSON.object([
                ("measure", .string(measure.name)), ("unit", .string(scale.name)), ("range", .string(data.range.rawValue)),
                ("points", .array(data.points.map { point in
                    .object([("date", .string(DayNumber.string(point.day))), ("value", .number(point.kilograms)), ("trend", .number(point.smoothedKilograms))])
                })),
                ("change", .optional(data.changeKilograms)), ("changeDirection", .optional(data.changeDirection?.rawValue)),
                ("average", .optional(data.averageKilograms)), ("latestTrend", .optional(data.latestTrendKilograms)),
                ("waistToHeight", .optional(waistToHeight)),
            ]).encode(to: encoder)
        }

        func text(style: TerminalStyle) -> String {
            var lines = [style.bold("Progress of \(measure.name), \(data.range.title)")]
            guard !data.points.isEmpty else {
                let how = switch measure {
                case .bodyFat, .leanMass, .fatMass: "record body fat with 'weigh 82.4 fat 23.5%' or 'fat 23.5%'"
                case let .tape(kind): "record one with 'measure \(kind.word) 84'"
                }
                lines.append("No \(measure.name) in \(data.range.title); \(how).")
                return lines.joined(separator: "\n")
            }
            lines.append(ChartRenderer(style: style, scale: scale).render(data))
            lines.append("")
            let format = { (value: Double) in scale.format(value) }
            if let change = data.changeKilograms, let direction = data.changeDirection {
                let amount = format(abs(change))
                // What rounds to nothing has no sign (no "−0.0 %").
                let sign = !amount.contains(where: { ("1"..."9").contains($0) }) ? "±" : (change > 0 ? "+" : "−")
                let color: TerminalStyle.Color = direction == .improving ? .green : (direction == .worsening ? .magenta : .cyan)
                lines.append("  change   " + style.paint("\(sign)\(amount) (\(direction.rawValue))", color))
            }
            if let average = data.averageKilograms, let low = data.minimumKilograms, let high = data.maximumKilograms {
                lines.append("  average  \(format(average))   low \(format(low))   high \(format(high))")
            }
            if let trend = data.latestTrendKilograms { lines.append("  trend    \(format(trend)) (\(counted(data.points.count, "day")) measured)") }
            if let waistToHeight { lines += ["", waistToHeight] }
            return lines.joined(separator: "\n")
        }
    }

    func range(named name: String) throws -> ProgressRange {
        guard let range = ProgressRange(name: name, today: progressFeature.today) else {
            throw ProgressError.unknownRange(TerminalText.printable(name))
        }
        return range
    }

    func show(_ request: ChartRequest, style: TerminalStyle) async throws -> CommandOutput {
        if let measure = request.measure { return try await show(measure, range: request.range?.name, style: style) }
        let marked = request.marked
        let data: WeightHistoryData
        var warnings: [String] = []
        if let name = request.range?.name {
            data = try await progressFeature.selectProgressRange(try range(named: name))
            if let failure = progressFeature.rangeNotKept {
                warnings.append("the range is shown but not kept for next time: \(failure)")
            }
        } else {
            data = try await progressFeature.prepare()
        }
        let unit = progressFeature.selectedWeightUnit
        var commentary = Self.commentary(data, unit: unit)
        if let lean = try await leanMassSentence(over: data, unit: unit) { commentary += " " + lean }
        return CommandOutput(Shown(data: data, unit: unit, commentary: commentary, habit: marked), style: style, warnings: warnings)
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
            var lines = [style.bold("Progress, \(data.periodTitle)")]
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
                    lines.append("  goal     \(unit.format(goal)), around \(DayNumber.longName(day))\(range)")
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

    /// What `goal` does: set it, clear it, or leave it and show it.
    enum GoalChange {
        case set(kilograms: Double)
        case clear
        case none
    }

    func goal(_ change: GoalChange) async throws -> CommandOutput {
        switch change {
        case let .set(kilograms): try await progressFeature.setGoal(kilograms: kilograms)
        case .clear: try await progressFeature.setGoal(kilograms: nil)
        case .none: _ = try await progressFeature.prepare()
        }
        let goal = progressFeature.goalWeightKilograms, unit = progressFeature.selectedWeightUnit
        let sentence = goal.map { "Goal: \(unit.format($0))." } ?? "No goal set. Set one with 'goal 75'."
        return CommandOutput(Said(key: "goalKilograms", value: goal, sentence: sentence), style: .plain)
    }

    nonisolated static func json(_ data: WeightHistoryData, commentary: String) -> JSON {
        .object([
            ("range", .string(data.range.rawValue)),
            // A range longer than the history covers the history: the day it is shown from.
            ("shownSince", .optional(data.reachesBeforeHistory ? data.firstWeighInDay.map(DayNumber.string) : nil)),
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
        let earliest = DayNumber.partOfMonth(span.lowerBound)
        if span.upperBound >= today + Int(ProgressCalculator.longestProjectionDays) { return "\(earliest) – a year or more" }
        let latest = DayNumber.partOfMonth(span.upperBound)
        guard earliest != latest else { return "\(DayNumber.shortLabel(span.lowerBound)) – \(DayNumber.shortLabel(span.upperBound))" }
        return "\(earliest) – \(latest)"
    }

    /// One or two sentences on the range: the change and what the projection says.
    static func commentary(_ data: WeightHistoryData, unit: WeightUnit) -> String {
        var sentences: [String] = []
        guard data.latestTrendKilograms != nil else { return "No weigh-ins yet. Record one with 'weigh 82.4'." }
        if let change = data.changeKilograms, let direction = data.changeDirection {
            let amount = unit.formatChange(abs(change)).dropFirst()
            switch direction {
            case .steady: sentences.append("Holding steady \(data.reachesBeforeHistory ? "" : "over ")\(data.periodTitle).")
            case .improving, .worsening:
                let verb = change < 0 ? "Down" : "Up"
                let judgement = direction == .improving ? "the right way" : "away from where you want to go"
                sentences.append("\(verb) \(amount) \(data.reachesBeforeHistory ? "" : "over ")\(data.periodTitle), \(judgement).")
            }
        } else if data.points.count == 1 {
            sentences.append("One weigh-in \(data.reachesBeforeHistory ? "so far" : "in \(data.range.title)"); a few more and the trend takes shape.")
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
        case .notEnoughHistory?: sentences.append(data.rateShortfall?.goalDateNeeds ?? "")
        case .movingAwayFromGoal?: sentences.append("The trend is moving away from your goal.")
        case .moreThanAYearAway?: sentences.append("At this rate your goal is more than a year away.")
        }
        return sentences.joined(separator: " ")
    }
}
