/// How the latest day compares with the one before it.
public enum DailyVerdict: String, Sendable, Equatable, CaseIterable {
    case firstEntry
    case movingDownward
    case holdingSteady
    case needsAttention
    case timeForReset
}

/// Judges each day with an entry against the previous day with one: more
/// than 0.2 kg lower is `movingDownward`, more than 0.2 kg higher is
/// `needsAttention`; otherwise `timeForReset` when more than 5 days passed
/// since the last such drop (or the first entry), else `holdingSteady`.
public struct DailyTrendManager: Sendable {
    public static let toleranceKilograms = 0.2
    public static let resetAfterDays = 5
    /// Typed weights carry binary rounding: 80.2 − 80 is 0.2000000000000028,
    /// which a person means as exactly 0.2.
    static let roundingAllowance = 1e-9

    public init() {}

    /// The verdict of every day of the series, in one pass.
    /// - Complexity: O(days).
    public func verdicts(for series: DailySeries) -> [DailyVerdict] {
        guard !series.isEmpty else { return [] }
        var verdicts: [DailyVerdict] = [.firstEntry]
        verdicts.reserveCapacity(series.count)
        var lastDropDay = series.days[0]
        let tolerance = Self.toleranceKilograms + Self.roundingAllowance
        for index in 1..<series.count {
            let change = series.kilograms[index] - series.kilograms[index - 1]
            let day = series.days[index]
            if change < -tolerance {
                verdicts.append(.movingDownward)
                lastDropDay = day
            } else if change > tolerance {
                verdicts.append(.needsAttention)
            } else if day - lastDropDay > Self.resetAfterDays {
                verdicts.append(.timeForReset)
            } else {
                verdicts.append(.holdingSteady)
            }
        }
        return verdicts
    }

}
