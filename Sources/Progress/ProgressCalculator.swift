import Foundation
import Vocabulary
import WeightLog

/// The progress computation: weigh-ins → daily values → trend over the whole
/// history → the range's window → statistics → weekly rate → goal projection.
/// Pure and nonisolated over value types, so it runs off the main actor and
/// is benchmarked alone (Benchmarks/ProgressBenchmarks).
///
/// The rate and the projection come from one line, `WeightRate`, the rule
/// every screen uses: least squares through the daily means of the last 56
/// days (on the seeded diets of ProjectionStabilityTests, 42 days let the
/// date move 8 days on 10 % of days; 56 days, 5), given 8 weighed days over
/// 2 weeks and 3 among the last 14. Its level today is where the projection
/// starts, its slope is the weekly rate and the calories, and the slope's
/// standard error gives the range around the goal date.
public enum ProgressCalculator {
    /// The line the rate and the projection come from: `WeightRate`, the one rule every screen uses.
    public typealias Fit = WeightRate
    /// How many standard errors of the slope the goal-date range spans each side (an 80 % interval).
    public static let rangeStandardErrors = 1.2816
    public static let projectionDays = 30
    public static let kilocaloriesPerKilogram = 7_700.0
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
        let reading = series.currentRate(today: today)
        let fitted = reading.rate
        let slope = fitted?.slope
        var data = WeightHistoryData.empty(range: range, today: today, goalKilograms: goalKilograms)
        data.fittedKilograms = fitted?.level
        data.firstWeighInDay = series.days[0]
        data.points = points
        data.latestTrendKilograms = latestTrend
        if !points.isEmpty {
            data.averageKilograms = sum / Double(points.count)
            data.minimumKilograms = minimum
            data.maximumKilograms = maximum
        }
        // The one rule for a period's trend change (`DailySeries.trendChange`): what `summary` and the report say too.
        if points.count >= 2, let change = series.trendChange(from: windowStart, through: today) {
            data.changeKilograms = change
            data.changeDirection = direction(change: change, gaining: series.isGaining(toward: goalKilograms))
        }
        data.projectedWeeklyChangeKilograms = slope.map { 7 * $0 }
        data.rateShortfall = reading.shortfall
        data.energyBalanceKilocaloriesPerDay = slope.map { $0 * kilocaloriesPerKilogram }
        let projection = project(level: fitted?.level ?? latestTrend, fit: fitted, shortfall: reading.shortfall,
                                 goalKilograms: goalKilograms, today: today)
        data.projectedGoalDay = projection.day
        data.projectedGoalDayRange = projection.range
        data.projectionUnavailableReason = projection.reason
        if let fitted {
            data.projection = (1...projectionDays).map {
                ProjectedPoint(day: today + $0, kilograms: fitted.level + fitted.slope * Double($0))
            }
            // The chart draws the first part of it; the domain makes room for that.
            let shown = fitted.level + fitted.slope * Double(projectionDays)
            lowest = min(lowest, fitted.level, shown)
            highest = max(highest, fitted.level, shown)
        }
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

    /// The current rate's line; nil without enough history (`WeightRate`'s rule).
    /// - Complexity: O(days in the 56-day window).
    public static func fit(series: DailySeries, end: Int, today: Int) -> Fit? {
        series.currentRate(today: today).rate
    }

    /// Improving when the change goes the way of the plan (`DailySeries.isGaining(toward:)`), steady within
    /// `WeightGoal.steadyKilograms`.
    static func direction(change: Double, gaining: Bool) -> ChangeDirection {
        guard WeightGoal.isMove(change) else { return .steady }
        return (change > 0) == gaining ? .improving : .worsening
    }

    /// The goal date from the fit's level and slope, its range from the
    /// slope's bounds, or why there is none.
    static func project(level: Double, fit: Fit?, shortfall: WeightRate.Shortfall?, goalKilograms: Double?,
                        today: Int) -> (day: Int?, range: ClosedRange<Int>?, reason: ProjectionUnavailableReason?) {
        guard let goalKilograms else { return (nil, nil, .noGoal) }
        if WeightGoal.isAtGoal(level, goal: goalKilograms) { return (nil, nil, .atGoal) }
        guard let fit else {
            let recentOnly = shortfall.map { $0.moreDays == 0 && $0.weighedDays >= WeightRate.minimumWeighedDays } ?? false
            return (nil, nil, recentOnly ? .notEnoughRecentWeighIns : .notEnoughHistory)
        }
        let days = (goalKilograms - level) / fit.slope
        guard fit.slope != 0, days.isFinite, days > 0 else { return (nil, nil, .movingAwayFromGoal) }
        guard days <= longestProjectionDays else { return (nil, nil, .moreThanAYearAway) }
        let day = today + Int(days.rounded(.up))
        guard let error = fit.slopeStandardError else { return (day, day...day, nil) }
        // The faster bound reaches the goal first; the slower one may never, shown as a year away.
        let margin = rangeStandardErrors * error
        let fast = fit.slope + (fit.slope < 0 ? -margin : margin)
        let slow = fit.slope + (fit.slope < 0 ? margin : -margin)
        let earliest = today + Int(((goalKilograms - level) / fast).rounded(.up))
        let slowDays = (goalKilograms - level) / slow
        let latest = slowDays > 0 && slowDays <= longestProjectionDays ? today + Int(slowDays.rounded(.up)) : today + Int(longestProjectionDays)
        return (day, min(earliest, day)...max(latest, day), nil)
    }
}
