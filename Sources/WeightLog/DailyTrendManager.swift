/// How the latest day compares with the one before it.
public enum DailyVerdict: String, Sendable, Equatable, CaseIterable {
    case firstEntry
    case movingDownward
    case holdingSteady
    case needsAttention
    case timeForReset
}

/// Judges each day with an entry. Its mean against the previous day's mean:
/// more than 0.2 kg lower is `movingDownward`, more than 0.2 kg higher is
/// `needsAttention`, otherwise `holdingSteady` — or `timeForReset` on a
/// plateau: with at least 14 days of history, the weekly rate of the last two
/// weeks (`WeightRate`, the one rule `progress`, `summary` and the Monday
/// review say) has moved toward the goal (down without a goal) by no more than
/// 0.1 kg a week, 4 of the last 7 days were weighed, and the trend is not at a new best.
///
/// A rate, not the trend: the 10 % trend lags the weight by about 9 days, so
/// after a loss it keeps falling well into a plateau and would hide it; two
/// weeks, not one, because a one-week line is tilted by a weekend.
public struct DailyTrendManager: Sendable {
    /// A plateau: at most 0.1 kg a week of progress over the last 14 days, 4 of the last 7 weighed, after 14 days of history.
    public static let plateauKilogramsAWeek = 0.1, plateauWindowDays = 14, plateauRecentDays = 7, plateauWeighInDays = 4,
                      plateauHistoryDays = 14
    /// A new best of the trend counts only when it beats the old one by this much (the trend creeps).
    public static let newBestKilograms = 0.05

    public init() {}

    /// The verdict of every day of the series, in one pass.
    /// - Parameters:
    ///   - series: the daily means and the trend.
    ///   - goalKilograms: with a goal above where the trend started, progress is up (`DailySeries.isGaining(toward:)`).
    ///   - first: the index of the first day judged; the days before it only carry the best trend forward
    ///     (a check-in judges its last day, a week its seven: not a two-week line for every day of decades).
    /// - Returns: the verdicts of the days from `first` on.
    /// - Complexity: O(days + days judged × 14).
    public func verdicts(for series: DailySeries, goalKilograms: Double? = nil, from first: Int = 0) -> [DailyVerdict] {
        guard !series.isEmpty, first < series.count else { return [] }
        var verdicts: [DailyVerdict] = first == 0 ? [.firstEntry] : []
        verdicts.reserveCapacity(series.count - first)
        let tolerance = WeightGoal.steadyKilograms + WeightGoal.roundingAllowance
        let gaining = series.isGaining(toward: goalKilograms)
        var bestTrend = series.smoothedKilograms[0]
        var recentStart = 0
        for index in 1..<series.count {
            let day = series.days[index]
            let trend = series.smoothedKilograms[index]
            let newBest = gaining ? trend > bestTrend + Self.newBestKilograms : trend < bestTrend - Self.newBestKilograms
            bestTrend = gaining ? max(bestTrend, trend) : min(bestTrend, trend)
            guard index >= first else { continue }
            while series.days[recentStart] <= day - Self.plateauRecentDays { recentStart += 1 }

            let change = series.kilograms[index] - series.kilograms[index - 1]
            if change < -tolerance {
                verdicts.append(.movingDownward)
            } else if change > tolerance {
                verdicts.append(.needsAttention)
            } else if !newBest, day - series.days[0] >= Self.plateauHistoryDays, index - recentStart + 1 >= Self.plateauWeighInDays,
                      let rate = series.rate(from: day - (Self.plateauWindowDays - 1), through: day).rate,
                      (gaining ? 1 : -1) * rate.weeklyKilograms <= Self.plateauKilogramsAWeek {
                verdicts.append(.timeForReset)
            } else {
                verdicts.append(.holdingSteady)
            }
        }
        return verdicts
    }

    /// The verdict of the day at `index` of the series alone.
    public func verdict(at index: Int, for series: DailySeries, goalKilograms: Double? = nil) -> DailyVerdict? {
        verdicts(for: series, goalKilograms: goalKilograms, from: index).first
    }
}
