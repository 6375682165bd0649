import WeightLog

/// One day on the progress chart.
public struct ProgressPoint: Sendable, Equatable {
    /// Local day number (see `LocalDays`).
    public let day: Int
    public let kilograms: Double
    public let smoothedKilograms: Double
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
public enum ProjectionUnavailableReason: String, Sendable, Equatable {
    case noGoal = "no goal"
    case notEnoughRecentWeighIns = "not enough recent weigh-ins"
    /// Too short a history for an honest rate (`WeightRate`'s rule).
    case notEnoughHistory = "not enough history"
    case movingAwayFromGoal = "moving away from goal"
    case moreThanAYearAway = "more than a year away"
    case atGoal = "at goal"
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
