import Foundation
import Progress
import Vocabulary
import WeightLog

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
    private let scale: ChartScale

    enum GoalPlacement: Equatable {
        case none, inside, above, below
    }

    init?(_ data: WeightHistoryData, scale: ChartScale) {
        guard let first = data.points.first else { return nil }
        self.scale = scale
        // A range longer than the history starts at the first weigh-in: no empty months before it.
        startDay = data.reachesBeforeHistory ? first.day : (data.range.days.map { data.today - ($0 - 1) } ?? first.day)
        // The projection continues the line over a quarter of the range more (a week to 30 days).
        ahead = data.projection.isEmpty ? 0 : min(data.projection.count, max(7, (data.today - startDay) / 4))
        span = max(1, data.today + ahead - startDay)
        let drawn = data.points.flatMap { [$0.kilograms, $0.smoothedKilograms] }
            + data.projection.prefix(ahead).map(\.kilograms) + (ahead > 0 ? [data.fittedKilograms].compactMap { $0 } : [])
        let axisValue = scale.axisValue
        var low = drawn.map(axisValue).min() ?? 0, high = drawn.map(axisValue).max() ?? 0
        let goalValue = data.goalKilograms.map(axisValue)
        // A goal just past the data joins the axis; one further away is marked at the edge.
        let reach = max(high - low, scale.smallestReach)
        if let goalValue, goalValue >= low - reach * 0.25, goalValue <= high + reach * 0.25 {
            low = min(low, goalValue)
            high = max(high, goalValue)
        }
        let step = Self.step(low: low, high: high, steps: scale.steps)
        var lower = (low / step).rounded(.down) * step, upper = (high / step).rounded(.up) * step
        // Room above and below the data: a point never sits on the frame.
        if low - lower < step * 0.2 { lower -= step }
        if upper - high < step * 0.2 { upper += step }
        self.lower = lower
        self.upper = upper
        ticks = stride(from: lower, through: upper + step / 2, by: step).map { ($0, scale.label($0, step)) }
        goal = goalValue
        goalPlacement = goalValue.map { $0 < lower ? .below : ($0 > upper ? .above : .inside) } ?? .none
        let (firstYear, _, _) = DayNumber.civil(startDay), (lastYear, _, _) = DayNumber.civil(data.today + ahead)
        showsYears = (data.reachesBeforeHistory ? span >= 365 : data.range.days.map { $0 >= 365 } ?? true) || firstYear != lastYear
    }

    /// The days of the x ticks, at most `slots` of them: from the first day, a whole number of days apart (1, 2, 3,
    /// 7, 14, 28, 56, 91, 182 or 364, then multiples of 364), so ticks are evenly spaced in days and, up to 28 days
    /// apart, no month with a column goes without one.
    func tickDays(slots: Int) -> [Int] {
        let gaps = max(1, slots - 1)
        let nice = [1, 2, 3, 7, 14, 28, 56, 91, 182, 364]
        let step = nice.first { span <= $0 * gaps } ?? 364 * Int((Double(span) / Double(364 * gaps)).rounded(.up))
        return Array(stride(from: startDay, through: startDay + span, by: step))
    }

    /// A weight in axis values.
    func value(_ kilograms: Double) -> Double {
        scale.axisValue(kilograms)
    }

    /// The goal as the edge marker says it: `goal 75.0 kg ↓`.
    var goalMarker: String? {
        guard goalPlacement == .above || goalPlacement == .below, let label = goalLabel else { return nil }
        return label + " " + (goalPlacement == .below ? "↓" : "↑")
    }

    /// The goal in words, as its line is labelled: `goal 75.0 kg`.
    var goalLabel: String? {
        guard let goal else { return nil }
        return "goal \(scale.format(scale.fromAxis(goal)))"
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

    /// The smallest of `steps` that puts at most five ticks on the axis.
    static func step(low: Double, high: Double, steps: [Double]) -> Double {
        for step in steps where (high / step).rounded(.up) - (low / step).rounded(.down) <= 4 { return step }
        return steps.last ?? 100
    }
}

/// How a chart's values read: the unit named on the axis, a stored value
/// (kilograms, centimetres, percent) as an axis value and back, the round
/// steps its ticks take, their labels, and what a day's dot is called.
struct ChartScale {
    /// `kg`, `lb`, `cm`, `in`, `%`.
    let name: String
    let axisValue: @Sendable (Double) -> Double
    let fromAxis: @Sendable (Double) -> Double
    /// A stored value in words, as the goal's label says it.
    let format: @Sendable (Double) -> String
    let steps: [Double]
    let label: @Sendable (_ value: Double, _ step: Double) -> String
    /// The least span the axis shows, in axis values: a flat line is not blown up into noise.
    let smallestReach: Double
    /// The legend's name for a day's dot: `daily weight`, `daily waist`.
    let daily: String

    static let roundSteps: [Double] = [0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100]
    static func decimalLabel(_ value: Double, step: Double) -> String { String(format: step < 1 ? "%.1f" : "%.0f", value) }

    /// Weights in the person's unit: 0.1, 0.2, 0.5, 1, 2, 5 … kg or lb; stones drawn in pounds, ticked
    /// at 1, 2, 7 or 14 lb (half and whole stones) and labelled `12st 6`.
    static func weight(_ unit: WeightUnit, daily: String = "daily weight") -> ChartScale {
        let drawn: WeightUnit = unit == .stones ? .pounds : unit
        return ChartScale(name: unit.rawValue, axisValue: { drawn.value(fromKilograms: $0) }, fromAxis: { drawn.kilograms(from: $0) },
                          format: { unit.format($0) }, steps: unit == .stones ? [1, 2, 7, 14, 28, 70, 140] : roundSteps,
                          label: { value, step in
                              guard unit == .stones else { return decimalLabel(value, step: step) }
                              let pounds = Int(value.rounded())
                              return "\(pounds / 14)st \(pounds % 14)"
                          },
                          smallestReach: unit == .kilograms ? 1 : 2, daily: daily)
    }

    /// A tape measure in cm or in.
    static func length(_ unit: LengthUnit, daily: String) -> ChartScale {
        ChartScale(name: unit.rawValue, axisValue: { unit.value(fromCentimetres: $0) }, fromAxis: { unit.centimetres(from: $0) },
                   format: { unit.format($0) }, steps: roundSteps, label: decimalLabel, smallestReach: unit == .centimetres ? 1 : 0.5,
                   daily: daily)
    }

    /// The scale a measure is drawn on: body fat in percent, lean and fat mass in the weight's unit, a tape
    /// measure in the length unit (what `progress … waist`, `export chart.svg` and the report all draw).
    static func of(_ measure: ProgressMeasure, weightUnit: WeightUnit, lengthUnit: LengthUnit) -> ChartScale {
        switch measure {
        case .bodyFat: .percent
        case .leanMass: .weight(weightUnit, daily: "daily lean mass")
        case .fatMass: .weight(weightUnit, daily: "daily fat mass")
        case let .tape(kind): .length(lengthUnit, daily: "daily \(kind.name)")
        }
    }

    /// Body fat in percent.
    static let percent = ChartScale(name: "%", axisValue: { $0 }, fromAxis: { $0 }, format: { BodyFat.text($0) }, steps: roundSteps,
                                    label: decimalLabel, smallestReach: 1, daily: "daily body fat")
}
