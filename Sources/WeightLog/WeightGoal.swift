/// The rules a goal weight sets, each stated once and used by every screen (the check-in, the verdict, `progress`,
/// `summary`, the pep talks, the Monday review) and by the benchmark's C reference, which is handed them.
public enum WeightGoal {
    /// How close to the goal the trend counts as at it: 1.1 kg either side (about the day-to-day swing of water).
    public static let atGoalKilograms = 1.1
    /// A change of the trend (or a day's weight) within this much either side is steady, not a move.
    public static let steadyKilograms = 0.2
    /// Typed weights carry binary rounding (80.2 − 80 is 0.2000000000000028), which a person means as exactly 0.2.
    public static let roundingAllowance = 1e-9

    /// Whether progress means gaining: the goal lies above `trendKilograms`, which is always where the trend started
    /// (`DailySeries.isGaining(toward:)`). Without a goal it means losing.
    public static func isGaining(goal: Double?, from trendKilograms: Double?) -> Bool {
        guard let goal, let trendKilograms else { return false }
        return goal > trendKilograms
    }

    /// Whether `trendKilograms` is at the goal (within `atGoalKilograms`).
    public static func isAtGoal(_ trendKilograms: Double, goal: Double) -> Bool {
        abs(trendKilograms - goal) <= atGoalKilograms
    }

    /// Whether a change is a move rather than steady (beyond `steadyKilograms`, binary rounding aside).
    public static func isMove(_ changeKilograms: Double) -> Bool {
        abs(changeKilograms) > steadyKilograms + roundingAllowance
    }
}

extension DailySeries {
    /// Whether progress means gaining for this log: the goal lies above where the trend started. It is the one
    /// reference point of every judgement toward the goal (the check-in's `isGaining`, each day's verdict and its
    /// new best, a range's direction, the best day of a week), so they never disagree. A trend that passes the goal
    /// keeps the direction of the plan; the band around the goal (`atGoalKilograms`) is what tells maintenance.
    public func isGaining(toward goal: Double?) -> Bool {
        WeightGoal.isGaining(goal: goal, from: smoothedKilograms.first)
    }
}
