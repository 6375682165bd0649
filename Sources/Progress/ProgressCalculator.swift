import Foundation
import Settings
import WeightLog

/// The progress computation: weigh-ins → daily values → trend over the whole
/// history → the range's window → statistics → weekly rate → goal projection.
/// Pure and nonisolated over value types, so it runs off the main actor and
/// is benchmarked alone (Benchmarks/ProgressBenchmarks).
public enum ProgressCalculator {
    public static let rateWindowDays = 14
    public static let minimumRateDays = 3
    public static let maximumSlopeKilogramsPerDay = 0.15
    public static let kilocaloriesPerKilogram = 7_700.0
    public static let atGoalToleranceKilograms = 1.1
    public static let steadyToleranceKilograms = 0.2
    public static let longestProjectionDays = 365.0

    /// Cold: from entries (sorted by date or not) to the range's history.
    /// - Complexity: O(n) for entries already in date order, O(n log n) otherwise.
    public static func history(entries: [WeightEntry], localDays: LocalDays, today: Int, range: ProgressRange,
                               goalKilograms: Double?) -> WeightHistoryData {
        let series = DailySeries(entries: entries, localDays: localDays)
        return history(series: series, today: today, range: range, goalKilograms: goalKilograms)
    }

    /// Warm: from a daily series (cached between range switches) to the range's history.
    /// - Complexity: O(log days + days in the window).
    public static func history(series: DailySeries, today: Int, range: ProgressRange,
                               goalKilograms: Double?) -> WeightHistoryData {
        let end = series.firstIndex(onOrAfter: today + 1)
        guard end > 0 else { return .empty(range: range, today: today, goalKilograms: goalKilograms) }
        let windowStart = range.days.map { today - ($0 - 1) } ?? series.days[0]
        let start = series.firstIndex(onOrAfter: windowStart)

        var points: [ProgressPoint] = []
        points.reserveCapacity(end - start)
        var sum = 0.0
        var minimum = Double.infinity, maximum = -Double.infinity
        var lowest = Double.infinity, highest = -Double.infinity
        for index in start..<max(start, end) {
            let weight = series.kilograms[index], trend = series.smoothedKilograms[index]
            points.append(ProgressPoint(day: series.days[index], kilograms: weight, smoothedKilograms: trend))
            sum += weight
            minimum = min(minimum, weight)
            maximum = max(maximum, weight)
            lowest = min(lowest, weight, trend)
            highest = max(highest, weight, trend)
        }

        let latestTrend = series.smoothedKilograms[end - 1]
        let slope = weeklySlope(series: series, end: end, today: today)
        var data = WeightHistoryData.empty(range: range, today: today, goalKilograms: goalKilograms)
        data.points = points
        data.latestTrendKilograms = latestTrend
        if !points.isEmpty {
            data.averageKilograms = sum / Double(points.count)
            data.minimumKilograms = minimum
            data.maximumKilograms = maximum
        }
        if points.count >= 2 {
            let firstTrend = series.smoothedKilograms[start]
            let change = series.smoothedKilograms[end - 1] - firstTrend
            data.changeKilograms = change
            data.changeDirection = direction(change: change, firstTrend: firstTrend, goalKilograms: goalKilograms)
        }
        data.projectedWeeklyChangeKilograms = slope.map { 7 * $0 }
        data.energyBalanceKilocaloriesPerDay = slope.map { $0 * kilocaloriesPerKilogram }
        let projection = project(latestTrend: latestTrend, slope: slope, goalKilograms: goalKilograms, today: today)
        data.projectedGoalDay = projection.day
        data.projectionUnavailableReason = projection.reason
        if let goalKilograms {
            lowest = min(lowest, goalKilograms)
            highest = max(highest, goalKilograms)
        }
        if lowest <= highest {
            let padding = max((highest - lowest) * 0.15, 1.0)
            data.domain = (lowest - padding)...(highest + padding)
        }
        return data
    }

    /// Least-squares slope (kg a day) of the trend against the day over the
    /// days with entries among the last 14 up to today, clamped; nil with fewer than 3.
    static func weeklySlope(series: DailySeries, end: Int, today: Int) -> Double? {
        let first = series.firstIndex(onOrAfter: today - (rateWindowDays - 1))
        let count = end - first
        guard count >= minimumRateDays else { return nil }
        var sumX = 0.0, sumY = 0.0, sumXY = 0.0, sumXX = 0.0
        for index in first..<end {
            let x = Double(series.days[index] - today)
            let y = series.smoothedKilograms[index]
            sumX += x
            sumY += y
            sumXY += x * y
            sumXX += x * x
        }
        let n = Double(count)
        let denominator = n * sumXX - sumX * sumX
        guard denominator > 0 else { return nil }
        let slope = (n * sumXY - sumX * sumY) / denominator
        return min(max(slope, -maximumSlopeKilogramsPerDay), maximumSlopeKilogramsPerDay)
    }

    static func direction(change: Double, firstTrend: Double, goalKilograms: Double?) -> ChangeDirection {
        guard abs(change) > steadyToleranceKilograms + 1e-9 else { return .steady }
        let wantsLower = goalKilograms.map { $0 < firstTrend } ?? true
        return (change < 0) == wantsLower ? .improving : .worsening
    }

    static func project(latestTrend: Double, slope: Double?, goalKilograms: Double?,
                        today: Int) -> (day: Int?, reason: ProjectionUnavailableReason?) {
        guard let goalKilograms else { return (nil, .noGoal) }
        if abs(latestTrend - goalKilograms) <= atGoalToleranceKilograms { return (nil, .atGoal) }
        guard let slope else { return (nil, .notEnoughRecentWeighIns) }
        let days = (goalKilograms - latestTrend) / slope
        guard slope != 0, days.isFinite, days > 0 else { return (nil, .movingAwayFromGoal) }
        guard days <= longestProjectionDays else { return (nil, .moreThanAYearAway) }
        return (today + Int(days.rounded(.up)), nil)
    }
}
