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
/// plateau: with at least 14 days of history, the weight has not moved
/// toward the goal (down without a goal) by more than 0.1 kg over the last 7
/// days, on at least 4 days with weigh-ins, and the trend is not at a new best.
///
/// "Moved" is the least-squares line through those days' means, not the
/// trend: the 10 % trend lags the weight by about 9 days, so after a loss it
/// keeps falling well into a plateau and would hide it.
public struct DailyTrendManager: Sendable {
    public static let toleranceKilograms = 0.2
    /// A plateau: less than 0.1 kg of progress over the last 7 days, 4 of them weighed, after 14 days of history.
    public static let plateauKilograms = 0.1, plateauWindowDays = 7, plateauWeighInDays = 4, plateauHistoryDays = 14
    /// A new best of the trend counts only when it beats the old one by this much (the trend creeps).
    public static let newBestKilograms = 0.05
    /// Typed weights carry binary rounding: 80.2 − 80 is 0.2000000000000028,
    /// which a person means as exactly 0.2.
    static let roundingAllowance = 1e-9

    public init() {}

    /// The verdict of every day of the series, in one pass.
    /// - Parameters:
    ///   - series: the daily means and the trend.
    ///   - goalKilograms: with a goal above the weight, progress is up.
    /// - Complexity: O(days × 7).
    public func verdicts(for series: DailySeries, goalKilograms: Double? = nil) -> [DailyVerdict] {
        guard !series.isEmpty else { return [] }
        var verdicts: [DailyVerdict] = [.firstEntry]
        verdicts.reserveCapacity(series.count)
        let tolerance = Self.toleranceKilograms + Self.roundingAllowance
        var bestTrend = series.smoothedKilograms[0]
        var windowStart = 0
        for index in 1..<series.count {
            let day = series.days[index]
            // Toward the goal is up only for a goal above the current trend.
            let gaining = goalKilograms.map { $0 > series.smoothedKilograms[index] } ?? false
            let trend = series.smoothedKilograms[index]
            let newBest = gaining ? trend > bestTrend + Self.newBestKilograms : trend < bestTrend - Self.newBestKilograms
            bestTrend = gaining ? max(bestTrend, trend) : min(bestTrend, trend)
            while series.days[windowStart] < day - Self.plateauWindowDays { windowStart += 1 }

            let change = series.kilograms[index] - series.kilograms[index - 1]
            if change < -tolerance {
                verdicts.append(.movingDownward)
            } else if change > tolerance {
                verdicts.append(.needsAttention)
            } else if !newBest, day - series.days[0] >= Self.plateauHistoryDays,
                      isPlateau(series, from: windowStart, to: index, gaining: gaining) {
                verdicts.append(.timeForReset)
            } else {
                verdicts.append(.holdingSteady)
            }
        }
        return verdicts
    }

    /// Whether the days `from...to` (the last 7 days, 4 of them weighed) moved
    /// toward the goal by no more than `plateauKilograms`.
    private func isPlateau(_ series: DailySeries, from start: Int, to end: Int, gaining: Bool) -> Bool {
        let count = end - start + 1
        guard count >= Self.plateauWeighInDays, series.days[end] - series.days[start] >= Self.plateauWindowDays - 1 else {
            return false
        }
        var sumX = 0.0, sumY = 0.0
        for index in start...end {
            sumX += Double(series.days[index])
            sumY += series.kilograms[index]
        }
        let meanX = sumX / Double(count), meanY = sumY / Double(count)
        var sxx = 0.0, sxy = 0.0
        for index in start...end {
            let dx = Double(series.days[index]) - meanX
            sxx += dx * dx
            sxy += dx * (series.kilograms[index] - meanY)
        }
        guard sxx > 0 else { return false }
        let progress = (gaining ? 1 : -1) * (sxy / sxx) * Double(Self.plateauWindowDays)
        return progress <= Self.plateauKilograms
    }
}
