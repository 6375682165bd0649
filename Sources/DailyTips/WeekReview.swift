import Vocabulary

/// A week's own figures, weight and habits (filled from the weight log's and
/// the habits' period figures by `AppModel.assemble(_:)`).
public struct WeekFigures: Sendable, Equatable {
    public var daysWeighed: Int
    public var trendChangeKilograms: Double?
    public var weeklyRateKilograms: Double?
    public var bestDay: Int?
    public var bestDayKilograms: Double?
    public var habitsDone: Int
    public var habitsDue: Int
    public var longestStreakName: String?
    public var longestStreakDays: Int
    /// The lean-mass trend's change over the week, when body fat is being measured; nil otherwise.
    public var leanMassChangeKilograms: Double?

    public init(daysWeighed: Int = 0, trendChangeKilograms: Double? = nil, weeklyRateKilograms: Double? = nil,
                bestDay: Int? = nil, bestDayKilograms: Double? = nil, habitsDone: Int = 0, habitsDue: Int = 0,
                longestStreakName: String? = nil, longestStreakDays: Int = 0, leanMassChangeKilograms: Double? = nil) {
        self.daysWeighed = daysWeighed
        self.trendChangeKilograms = trendChangeKilograms
        self.weeklyRateKilograms = weeklyRateKilograms
        self.bestDay = bestDay
        self.bestDayKilograms = bestDayKilograms
        self.habitsDone = habitsDone
        self.habitsDue = habitsDue
        self.longestStreakName = longestStreakName
        self.longestStreakDays = longestStreakDays
        self.leanMassChangeKilograms = leanMassChangeKilograms
    }
}

/// Last week (Monday to Sunday) on the first check-in of a Monday, set
/// against the week before.
public struct WeekReview: Sendable, Equatable {
    /// Last week's Monday and Sunday (local day numbers).
    public let start: Int
    public var end: Int { start + 6 }
    public let week: WeekFigures
    public let previousWeek: WeekFigures
    /// Whether progress means gaining (the goal lies above the start).
    public let gaining: Bool

    public init(start: Int, week: WeekFigures, previousWeek: WeekFigures, gaining: Bool) {
        self.start = start
        self.week = week
        self.previousWeek = previousWeek
        self.gaining = gaining
    }

    /// A change smaller than this reads as "about the same".
    public static let sameKilograms = 0.05

    /// One sentence setting the week against the week before, in `unit`.
    public func comparison(unit: WeightUnit) -> String {
        guard week.daysWeighed > 0 else {
            return previousWeek.daysWeighed > 0
                ? "No weigh-ins last week, after \(counted(previousWeek.daysWeighed, "day")) the week before."
                : "No weigh-ins in either week; one a day is enough to see a trend."
        }
        guard previousWeek.daysWeighed > 0, let change = week.trendChangeKilograms,
              let before = previousWeek.trendChangeKilograms else {
            return "A first week to compare with: \(counted(week.daysWeighed, "day")) weighed."
        }
        // Progress toward the goal: down, or up when gaining.
        let sign = gaining ? 1.0 : -1.0
        let difference = sign * change - sign * before
        let verdict = abs(difference) < Self.sameKilograms ? "About the same as the week before"
            : difference > 0 ? "Better than the week before" : "Not as good as the week before"
        let days = week.daysWeighed == previousWeek.daysWeighed
            ? "on as many days weighed (\(week.daysWeighed))"
            : "on \(counted(week.daysWeighed, "day")) weighed against \(previousWeek.daysWeighed)"
        return "\(verdict): the trend changed \(unit.formatChange(change)) against \(unit.formatChange(before)), \(days)."
    }
}
