import Foundation
import Progress
import Settings
import Vocabulary

/// What a progress chart shows and where, shared by the terminal chart and
/// the SVG: the days it spans (with the part of the projection drawn), and a
/// y axis that zooms to the data — the weights, the trend and the drawn
/// projection — with round ticks in the person's unit. A goal outside that
/// span does not stretch the axis; it is marked at the edge instead.
struct ChartAxis {
    /// The first day drawn, and how many days the x axis spans.
    let startDay: Int
    let span: Int
    /// How many projected days are drawn after today.
    let ahead: Int
    /// The axis ends, in axis values (kilograms, pounds; stones are drawn in pounds).
    let lower: Double
    let upper: Double
    /// Round values between the ends, with their labels (`80`, `79.5`, `12st 6`).
    let ticks: [(value: Double, label: String)]
    /// The goal, in axis values, and where it lies: on the chart, above it or below it.
    let goal: Double?
    let goalPlacement: GoalPlacement
    /// Whether the x axis names years: the range is a year or more, or crosses one.
    let showsYears: Bool
    private let unit: WeightUnit

    enum GoalPlacement: Equatable {
        case none, inside, above, below
    }

    init?(_ data: WeightHistoryData, unit: WeightUnit) {
        guard let first = data.points.first else { return nil }
        self.unit = unit
        startDay = data.range.days.map { data.today - ($0 - 1) } ?? first.day
        // The projection continues the line over a quarter of the range more (a week to 30 days).
        ahead = data.projection.isEmpty ? 0 : min(data.projection.count, max(7, (data.today - startDay) / 4))
        span = max(1, data.today + ahead - startDay)
        let drawn = data.points.flatMap { [$0.kilograms, $0.smoothedKilograms] }
            + data.projection.prefix(ahead).map(\.kilograms) + (ahead > 0 ? [data.fittedKilograms].compactMap { $0 } : [])
        let axisValue = { (kilograms: Double) in unit == .stones ? WeightUnit.pounds.value(fromKilograms: kilograms) : unit.axisValue(kilograms) }
        var low = drawn.map(axisValue).min() ?? 0, high = drawn.map(axisValue).max() ?? 0
        let goalValue = data.goalKilograms.map(axisValue)
        // A goal just past the data joins the axis; one further away is marked at the edge.
        let reach = max(high - low, unit == .kilograms ? 1 : 2)
        if let goalValue, goalValue >= low - reach * 0.25, goalValue <= high + reach * 0.25 {
            low = min(low, goalValue)
            high = max(high, goalValue)
        }
        let step = Self.step(low: low, high: high, unit: unit)
        var lower = (low / step).rounded(.down) * step, upper = (high / step).rounded(.up) * step
        // Room above and below the data: a point never sits on the frame.
        if low - lower < step * 0.2 { lower -= step }
        if upper - high < step * 0.2 { upper += step }
        self.lower = lower
        self.upper = upper
        ticks = stride(from: lower, through: upper + step / 2, by: step).map { ($0, Self.label($0, step: step, unit: unit)) }
        goal = goalValue
        goalPlacement = goalValue.map { $0 < lower ? .below : ($0 > upper ? .above : .inside) } ?? .none
        let (firstYear, _, _) = DayNumber.civil(startDay), (lastYear, _, _) = DayNumber.civil(data.today + ahead)
        showsYears = data.range.days.map { $0 >= 365 } ?? true || firstYear != lastYear
    }

    /// A weight in axis values.
    func value(_ kilograms: Double) -> Double {
        unit == .stones ? WeightUnit.pounds.value(fromKilograms: kilograms) : unit.axisValue(kilograms)
    }

    /// The goal as the edge marker says it: `goal 75.0 kg ↓`.
    var goalMarker: String? {
        guard goalPlacement == .above || goalPlacement == .below, let label = goalLabel else { return nil }
        return label + " " + (goalPlacement == .below ? "↓" : "↑")
    }

    /// The goal in words, as its line is labelled: `goal 75.0 kg`.
    var goalLabel: String? {
        guard let goal else { return nil }
        let kilograms = unit == .stones ? WeightUnit.pounds.kilograms(from: goal) : unit.kilograms(from: goal)
        return "goal \(unit.format(kilograms))"
    }

    /// A date on the x axis: `Jun 2` within a year, `Jun 2025` when years show.
    func dayLabel(_ day: Int) -> String {
        guard showsYears else { return DayNumber.shortLabel(day) }
        let (year, _, _) = DayNumber.civil(day)
        return DayNumber.shortLabel(day).prefix(3) + " \(year)"
    }

    /// The labels of x ticks at `days`, none said twice: months with their
    /// years when years show (`Jun 2025`); when two ticks would then read the
    /// same, the days are named instead (`Nov 6 2026`, `Nov 13`: the year on
    /// the first and where it changes), the finest unit that differs. A tick
    /// on a day already labelled gets no label.
    func dayLabels(_ days: [Int]) -> [String] {
        var labels = days.map(dayLabel)
        if showsYears, Set(labels).count < labels.count {
            var lastYear: Int?
            labels = days.map { day in
                let (year, _, _) = DayNumber.civil(day)
                defer { lastYear = year }
                return DayNumber.shortLabel(day) + (year != lastYear ? " \(year)" : "")
            }
        }
        var labelled = Set<Int>(), said = Set<String>()
        return zip(days, labels).map { day, label in
            guard labelled.insert(day).inserted, said.insert(label).inserted else { return "" }
            return label
        }
    }

    /// The smallest round step that puts at most five ticks on the axis:
    /// 0.1, 0.2, 0.5, 1, 2, 5 … kg or lb; for stones 1, 2, 7 or 14 lb (half and whole stones).
    static func step(low: Double, high: Double, unit: WeightUnit) -> Double {
        let steps: [Double] = unit == .stones ? [1, 2, 7, 14, 28, 70, 140] : [0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100]
        for step in steps where (high / step).rounded(.up) - (low / step).rounded(.down) <= 4 { return step }
        return steps.last ?? 100
    }

    /// A tick's label: as many decimals as the step needs; stones as `12st 6`.
    static func label(_ value: Double, step: Double, unit: WeightUnit) -> String {
        if unit == .stones {
            let pounds = Int(value.rounded())
            return "\(pounds / 14)st \(pounds % 14)"
        }
        return String(format: step < 1 ? "%.1f" : "%.0f", value)
    }
}
