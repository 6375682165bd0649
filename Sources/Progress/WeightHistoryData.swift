/// One day on the progress chart.
public struct ProgressPoint: Sendable, Equatable {
    /// Local day number (see `LocalDays`).
    public let day: Int
    public let kilograms: Double
    public let smoothedKilograms: Double
}

/// Whether the trend moved the way the person wants.
public enum ChangeDirection: String, Sendable, Equatable {
    case improving, steady, worsening
}

/// Why there is no projected goal date.
public enum ProjectionUnavailableReason: String, Sendable, Equatable {
    case noGoal = "no goal"
    case notEnoughRecentWeighIns = "not enough recent weigh-ins"
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
    /// Trend slope of the last 14 days, clamped, times 7.
    public var projectedWeeklyChangeKilograms: Double?
    /// `slope · 7700` kcal a day; negative is a deficit.
    public var energyBalanceKilocaloriesPerDay: Double?
    /// Local day number the trend reaches the goal.
    public var projectedGoalDay: Int?
    public var projectionUnavailableReason: ProjectionUnavailableReason?
    public var goalKilograms: Double?
    /// The latest trend value up to today.
    public var latestTrendKilograms: Double?

    public static func empty(range: ProgressRange, today: Int, goalKilograms: Double?) -> WeightHistoryData {
        WeightHistoryData(range: range, today: today, points: [], changeKilograms: nil, changeDirection: nil,
                          averageKilograms: nil, minimumKilograms: nil, maximumKilograms: nil, domain: nil,
                          projectedWeeklyChangeKilograms: nil, energyBalanceKilocaloriesPerDay: nil,
                          projectedGoalDay: nil,
                          projectionUnavailableReason: goalKilograms == nil ? .noGoal : .notEnoughRecentWeighIns,
                          goalKilograms: goalKilograms, latestTrendKilograms: nil)
    }
}
