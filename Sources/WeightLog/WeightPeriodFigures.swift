import Vocabulary

/// What the weigh-ins of a stretch of days (a week, a month) add up to: one
/// computation behind the Monday review, and for any screen that looks back.
public struct WeightPeriodFigures: Sendable, Equatable {
    /// The first and last local day of the period, inclusive.
    public let firstDay: Int
    public let lastDay: Int
    public let daysWeighed: Int
    public let weighIns: Int
    /// The trend at the end of the period minus the trend just before it (or,
    /// with no weigh-in before the period, at its first weighed day); nil
    /// without a weigh-in in the period.
    public let trendChangeKilograms: Double?
    /// The period's weekly rate by `WeightRate`'s rule (the line through its
    /// daily means); nil when the period is too short for one, and then
    /// `rateShortfall` says why. Unlike the trend it does not lag.
    public let weeklyRateKilograms: Double?
    public let rateShortfall: WeightRate.Shortfall?
    /// The weighed day nearest the goal's side: the lowest mean, or the
    /// highest when gaining (the earliest of equals).
    public let bestDay: Int?
    public let bestDayKilograms: Double?
    /// The weighed days with the lowest and the highest mean (the earliest of equals).
    public let lowestDay: Int?
    public let lowestKilograms: Double?
    public let highestDay: Int?
    public let highestKilograms: Double?
    /// The weekday (0 Monday … 6 Sunday) with the most days weighed, when one
    /// stands out (more than one such day, and no other weekday as many).
    public let mostWeighedWeekday: Int?
}

extension DailySeries {
    /// The trend as of the end of `day`: the trend of the last weighed day on or before it.
    public func trend(onOrBefore day: Int) -> Double? {
        let index = firstIndex(onOrAfter: day + 1) - 1
        return index >= 0 ? smoothedKilograms[index] : nil
    }

    /// The trend on `day` when it was weighed; nil on a day without a weigh-in (a chart leaves it blank).
    public func trend(on day: Int) -> Double? {
        let index = firstIndex(onOrAfter: day)
        return index < days.count && days[index] == day ? smoothedKilograms[index] : nil
    }

    /// The trend change of the days `firstDay...lastDay`, the one rule for a period of any series (weight,
    /// body fat, lean mass, a tape measure): the trend at the end of the period minus the trend just before
    /// it (or, with no value before the period, at its first day with one); nil without a value in it, and for
    /// the very first value alone (a first weigh-in has no change to tell).
    public func trendChange(from firstDay: Int, through lastDay: Int) -> Double? {
        let start = firstIndex(onOrAfter: firstDay), end = firstIndex(onOrAfter: lastDay + 1)
        // The first weigh-in of all, alone in the period, has no trend before it to change from: nothing to say yet.
        guard start < end, start > 0 || end - start >= 2 else { return nil }
        return smoothedKilograms[end - 1] - smoothedKilograms[start > 0 ? start - 1 : start]
    }

    /// The figures of the days `firstDay...lastDay`.
    /// - Parameters:
    ///   - firstDay: the period's first local day.
    ///   - lastDay: its last local day, included.
    ///   - gaining: whether the goal lies above (the best day is then the highest).
    /// - Complexity: O(log days + days in the period).
    public func figures(from firstDay: Int, through lastDay: Int, gaining: Bool) -> WeightPeriodFigures {
        let start = firstIndex(onOrAfter: firstDay), end = firstIndex(onOrAfter: lastDay + 1)
        let range = start..<max(start, end)
        var bestIndex: Int?, lowest: Int?, highest: Int?
        var weekdays = [Int](repeating: 0, count: 7)
        var weighIns = 0
        for index in range {
            weighIns += entryCounts[index]
            if lowest.map({ kilograms[index] < kilograms[$0] }) ?? true { lowest = index }
            if highest.map({ kilograms[index] > kilograms[$0] }) ?? true { highest = index }
            bestIndex = gaining ? highest : lowest
            weekdays[DayNumber.weekdayFromMonday(days[index])] += 1
        }
        let rate = self.rate(from: firstDay, through: lastDay)
        let change = trendChange(from: firstDay, through: lastDay)
        let busiest = weekdays.max() ?? 0
        return WeightPeriodFigures(firstDay: firstDay, lastDay: lastDay, daysWeighed: range.count, weighIns: weighIns,
                                   trendChangeKilograms: change, weeklyRateKilograms: rate.rate?.weeklyKilograms,
                                   rateShortfall: rate.shortfall,
                                   bestDay: bestIndex.map { days[$0] }, bestDayKilograms: bestIndex.map { kilograms[$0] },
                                   lowestDay: lowest.map { days[$0] }, lowestKilograms: lowest.map { kilograms[$0] },
                                   highestDay: highest.map { days[$0] }, highestKilograms: highest.map { kilograms[$0] },
                                   mostWeighedWeekday: busiest > 1 && weekdays.filter { $0 == busiest }.count == 1
                                       ? weekdays.firstIndex(of: busiest) : nil)
    }

    /// The best trend before index `end` (lowest, or highest when gaining); nil when `end` is 0.
    /// - Complexity: O(end).
    public func bestTrend(before end: Int, gaining: Bool) -> Double? {
        guard end > 0 else { return nil }
        let earlier = smoothedKilograms[0..<min(end, smoothedKilograms.count)]
        return gaining ? earlier.max() : earlier.min()
    }
}
