import WeightLog

/// One day on the progress chart.
public struct ProgressPoint: Sendable, Equatable {
    /// Local day number (see `LocalDays`).
    public let day: Int
    public let kilograms: Double
    public let smoothedKilograms: Double

    public init(day: Int, kilograms: Double, smoothedKilograms: Double) {
        (self.day, self.kilograms, self.smoothedKilograms) = (day, kilograms, smoothedKilograms)
    }
}

/// One day of the projection: where the fitted line says the weight will be.
public struct ProjectedPoint: Sendable, Equatable {
    public let day: Int
    public let kilograms: Double
}

/// Whether the trend moved the way the person wants.
public enum ChangeDirection: String, Sendable, Equatable {
    case improving, steady, worsening
}

/// Why there is no projected goal date.
/// The raw value is what `progress` prints after the goal, and its JSON `projectionUnavailableReason`.
public enum ProjectionUnavailableReason: String, Sendable, Equatable {
    /// Nothing to project to: no goal, or the trend is at it already.
    case noGoal = "no goal", atGoal = "at goal"
    /// Too few weigh-ins lately, or too short a history, for an honest rate (`WeightRate`'s rule).
    case notEnoughRecentWeighIns = "not enough recent weigh-ins", notEnoughHistory = "not enough history"
    /// The goal lies behind at this rate, or further ahead than a year.
    case movingAwayFromGoal = "moving away from goal", moreThanAYearAway = "more than a year away"
}

/// Everything the progress screen shows for one range.
public struct WeightHistoryData: Sendable, Equatable {
    public var range: ProgressRange
    public var today: Int
    public var points: [ProgressPoint]
    public var changeKilograms: Double?
    public var changeDirection: ChangeDirection?
    public var averageKilograms: Double?
    public var minimumKilograms: Double?
    public var maximumKilograms: Double?
    /// The weights the chart's y axis spans, padded.
    public var domain: ClosedRange<Double>?
    /// The fit's slope (kg a day, clamped) times 7; see `ProgressCalculator.fit`.
    public var projectedWeeklyChangeKilograms: Double?
    /// Why there is no rate, and how many more days it needs; nil when there is one.
    public var rateShortfall: WeightRate.Shortfall?
    /// `slope · 7700` kcal a day; negative is a deficit.
    public var energyBalanceKilocaloriesPerDay: Double?
    /// Where the fit puts the weight today: the level the projection starts from (no lag).
    public var fittedKilograms: Double?
    /// Local day number the fitted line reaches the goal.
    public var projectedGoalDay: Int?
    /// The days the goal is reached at the slope's 80 % bounds; `upperBound` is nil-free but may pass a year.
    public var projectedGoalDayRange: ClosedRange<Int>?
    /// The next 30 days of the fitted line, for the chart.
    public var projection: [ProjectedPoint] = []
    public var projectionUnavailableReason: ProjectionUnavailableReason?
    public var goalKilograms: Double?
    /// The latest trend value up to today.
    public var latestTrendKilograms: Double?
    /// The day of the first weigh-in of all (nil: none).
    public var firstWeighInDay: Int?

    /// Whether the range reaches back before the first weigh-in (`progress 3m` on seven weeks): then the chart and
    /// its sentences cover the history, and say so.
    public var reachesBeforeHistory: Bool {
        guard let days = range.days, let first = firstWeighInDay else { return false }
        return today - (days - 1) < first
    }

    /// The period as a person reads it: the range's title ("3 months"), or, for a range longer than the history,
    /// "since your first weigh-in, 7 weeks".
    public var periodTitle: String {
        guard reachesBeforeHistory, let first = firstWeighInDay else { return range.title }
        let days = today - first + 1
        let length = days >= 14 ? "\(days / 7) weeks" : (days == 1 ? "1 day" : "\(days) days")
        return "since your first weigh-in, \(length)"
    }

    public static func empty(range: ProgressRange, today: Int, goalKilograms: Double?) -> WeightHistoryData {
        WeightHistoryData(range: range, today: today, points: [], changeKilograms: nil, changeDirection: nil,
                          averageKilograms: nil, minimumKilograms: nil, maximumKilograms: nil, domain: nil,
                          projectedWeeklyChangeKilograms: nil,
                          rateShortfall: WeightRate.Shortfall(weighedDays: 0, spanDays: 0, recentWeighedDays: 0),
                          energyBalanceKilocaloriesPerDay: nil,
                          fittedKilograms: nil, projectedGoalDay: nil, projectedGoalDayRange: nil,
                          projectionUnavailableReason: goalKilograms == nil ? .noGoal : .notEnoughHistory,
                          goalKilograms: goalKilograms, latestTrendKilograms: nil)
    }
}

extension WeightHistoryData {
    /// The history over `range` (as of `today`) of another trended measure (body fat %, lean mass, a waist):
    /// its daily means and trend on the days in range, the trend's change over them (the last trend minus the
    /// first, DESIGN §3) and whether that went the way wanted. No goal, rate or projection: those are the weight's.
    /// - Parameters:
    ///   - series: the measure's daily means and trend (`DailySeries`, whatever its unit).
    ///   - range: the days shown, ending on `today`.
    ///   - today: the last day shown.
    ///   - lowerIsBetter: a fall is progress (a waist, body fat); false for lean mass.
    ///   - steadyWithin: a change no larger than this is steady, in the series' own values.
    public static func measure(_ series: DailySeries, range: ProgressRange, today: Int, lowerIsBetter: Bool,
                               steadyWithin: Double) -> WeightHistoryData {
        var data = WeightHistoryData.empty(range: range, today: today, goalKilograms: nil)
        data.projectionUnavailableReason = nil
        data.rateShortfall = nil
        let first = range.days.map { series.firstIndex(onOrAfter: today - ($0 - 1)) } ?? 0, end = series.firstIndex(onOrAfter: today + 1)
        guard first < end else { return data }
        data.points = (first..<end).map { ProgressPoint(day: series.days[$0], kilograms: series.kilograms[$0], smoothedKilograms: series.smoothedKilograms[$0]) }
        let values = data.points.map(\.kilograms)
        data.averageKilograms = values.reduce(0, +) / Double(values.count)
        data.minimumKilograms = values.min()
        data.maximumKilograms = values.max()
        data.latestTrendKilograms = data.points.last?.smoothedKilograms
        if data.points.count >= 2, let last = data.points.last, let start = data.points.first {
            let change = last.smoothedKilograms - start.smoothedKilograms
            data.changeKilograms = change
            data.changeDirection = abs(change) <= steadyWithin ? .steady : ((change < 0) == lowerIsBetter ? .improving : .worsening)
        }
        return data
    }
}
