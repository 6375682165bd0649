import Foundation
import Vocabulary

/// Loop Habit Tracker's model of a habit's days, so a Loop user sees the same
/// numbers (iSoron/uhabits, `uhabits-core/.../models/`): `EntryList`
/// (computed entries, with the days a met quota covers as YES_AUTO),
/// `ScoreList.recompute` (strength) and `StreakList` (streaks in days).
///
/// Days are local day numbers; values are Loop's: `unknown` −1, `no` 0,
/// `yesAuto` 1, `yesManual` 2, `skip` 3, and a numeric day's amount × 1000.
public enum LoopModel {
    public static let unknown = -1, no = 0, yesAuto = 1, yesManual = 2, skip = 3

    /// Loop's frequency: `numerator` times in `denominator` days.
    public struct Frequency: Sendable, Equatable {
        public let numerator: Int
        public let denominator: Int

        public init(_ numerator: Int, _ denominator: Int) {
            // As Loop's Frequency: N in N days is every day.
            (self.numerator, self.denominator) = numerator == denominator ? (1, 1) : (numerator, denominator)
        }

        public var value: Double { Double(numerator) / Double(denominator) }
    }

    /// Loop's day score: `score · m + value · (1 − m)`, `m = 0.5^(√f / 13)`.
    public static func score(frequency: Double, previous: Double, completed: Double) -> Double {
        let multiplier = pow(0.5, frequency.squareRoot() / 13)
        return previous * multiplier + completed * (1 - multiplier)
    }

    // MARK: EntryList

    /// The computed entries of a yes/no habit from its original ones
    /// (`EntryList.recomputeFrom`): each run of `numerator` manual yeses within
    /// `denominator` days makes an interval whose other days are YES_AUTO;
    /// intervals slide back to close gaps. Known days only, by day.
    public static func computedEntries(original: [Int: Int], frequency: Frequency) -> [Int: Int] {
        guard let oldest = original.keys.min(), let newest = original.keys.max() else { return [:] }
        // Walk the days in order rather than sorting them: histories are dense, and a
        // century of days per habit is the case to be fast for.
        var yeses: [Int] = []
        for day in stride(from: newest, through: oldest, by: -1) where original[day] == yesManual { yeses.append(day) }
        var intervals = buildIntervals(yeses: yeses, frequency: frequency)
        snapIntervalsTogether(&intervals)
        return entries(original: original, intervals: intervals, oldest: oldest, newest: newest)
    }

    /// The original entries with the days the intervals cover made YES_AUTO, unless they are
    /// manual yeses or skips (`EntryList.buildEntriesFromInterval`).
    static func entries(original: [Int: Int], intervals: [Interval], oldest: Int, newest: Int) -> [Int: Int] {
        var from = oldest, to = newest
        for interval in intervals {
            from = min(from, interval.begin)
            to = max(to, interval.end)
        }
        var covered = [Bool](repeating: false, count: to - from + 1)
        for interval in intervals {
            for day in interval.begin...interval.end { covered[day - from] = true }
        }
        var computed = [Int: Int](minimumCapacity: max(original.count, covered.count))
        for day in from...to {
            let isCovered = covered[day - from]
            guard let value = original[day] else {
                if isCovered { computed[day] = yesAuto }
                continue
            }
            let result = !isCovered || value == skip || value == yesManual ? value : yesAuto
            if result != unknown { computed[day] = result }
        }
        return computed
    }

    struct Interval: Equatable {
        var begin: Int, center: Int, end: Int
    }

    /// Newest first, from the manual yeses (newest first).
    static func buildIntervals(yeses: [Int], frequency: Frequency) -> [Interval] {
        let numerator = frequency.numerator, denominator = frequency.denominator
        guard numerator >= 1, yeses.count >= numerator else { return [] }
        var intervals: [Interval] = []
        for index in (numerator - 1)..<yeses.count {
            let begin = yeses[index], center = yeses[index - numerator + 1]
            var size = denominator
            if denominator == 30 || denominator == 31 {
                // Loop's monthly habits: the interval spans the month's length (the next month's from its last day).
                let (year, month, dayOfMonth) = DayNumber.civil(begin)
                let length = monthLength(year: year, month: month)
                size = dayOfMonth == length ? monthLength(year: month == 12 ? year + 1 : year, month: month % 12 + 1) : length
            }
            if center - begin < size { intervals.append(Interval(begin: begin, center: center, end: begin + size - 1)) }
        }
        return intervals
    }

    static func snapIntervalsTogether(_ intervals: inout [Interval]) {
        guard intervals.count > 1 else { return }
        for index in 1..<intervals.count {
            let current = intervals[index], next = intervals[index - 1]
            let gapNextToCurrent = current.end - next.begin
            let gapCenterToEnd = current.end - current.center
            if gapNextToCurrent >= 0 {
                let shift = min(gapCenterToEnd, gapNextToCurrent + 1)
                intervals[index] = Interval(begin: current.begin - shift, center: current.center, end: current.end - shift)
            }
        }
    }

    static func monthLength(year: Int, month: Int) -> Int {
        DayNumber.from(year: month == 12 ? year + 1 : year, month: month % 12 + 1, day: 1) - DayNumber.from(year: year, month: month, day: 1)
    }

    // MARK: ScoreList

    /// The score of every day `from...to` (`ScoreList.recompute`). Non-daily
    /// yes/no habits look back over twice the frequency's days for twice its
    /// repetitions; an at-most habit starts at 1 and an unknown day meets it.
    ///
    /// With `resuming` (a day and its score, from an earlier walk that began at
    /// the same `from`), the walk goes on from the day after it and returns the
    /// scores from there: a day's score depends only on the day before's and on
    /// the values of the last `denominator` days, which `values` must still give.
    public static func scores(values: (Int) -> Int, from: Int, to: Int, frequency: Frequency,
                              numeric: Bool, atMost: Bool, target: Double, resuming: (day: Int, score: Double)? = nil) -> [Double] {
        let start = resuming.map { max(from, $0.day + 1) } ?? from
        guard start <= to else { return [] }
        var numerator = frequency.numerator, denominator = frequency.denominator
        let rate = frequency.value
        if !numeric, rate < 1 {
            numerator *= 2
            denominator *= 2
        }
        // What the walk's rolling sum held on the day before `start` (the values are whole numbers: sums are exact).
        var rollingSum = 0.0
        if start > from {
            for day in max(from, start - denominator)..<start {
                rollingSum += numeric ? Double(max(0, values(day))) : (values(day) == yesManual ? 1 : 0)
            }
        }
        var previous = resuming?.score ?? (numeric && atMost ? 1.0 : 0.0)
        var result: [Double] = []
        result.reserveCapacity(to - start + 1)
        for day in start...to {
            let value = values(day)
            let leaving = day - denominator >= from ? values(day - denominator) : unknown
            if numeric {
                rollingSum += Double(max(0, value))
                if day - denominator >= from { rollingSum -= Double(max(0, leaving)) }
                if value != skip {
                    let sum = rollingSum / 1000
                    let completed: Double
                    if !atMost {
                        completed = target > 0 ? min(1, sum / target) : 1
                    } else {
                        completed = target > 0 ? min(1, max(0, 1 - (sum - target) / target)) : (sum > 0 ? 0 : 1)
                    }
                    previous = score(frequency: rate, previous: previous, completed: completed)
                }
            } else {
                if value == yesManual { rollingSum += 1 }
                if day - denominator >= from, leaving == yesManual { rollingSum -= 1 }
                if value != skip {
                    previous = score(frequency: rate, previous: previous, completed: min(1, rollingSum / Double(numerator)))
                }
            }
            result.append(previous)
        }
        return result
    }

    // MARK: StreakList

    /// Whether a computed day counts for a streak (`StreakList.recompute`):
    /// a yes/no day above 0 (done, covered or skipped), a numeric day that
    /// meets its target.
    public static func countsForStreak(_ value: Int, numeric: Bool, atMost: Bool, target: Double) -> Bool {
        guard numeric else { return value > 0 }
        if atMost { return value != unknown && Double(value) / 1000 <= target }
        return Double(value) / 1000 >= target
    }

    /// The streaks (`start...end` runs of consecutive counting days), oldest first.
    public static func streaks(counting days: [Int]) -> [ClosedRange<Int>] {
        var runs: [ClosedRange<Int>] = []
        for day in days.sorted() {
            if let last = runs.last, last.upperBound == day - 1 {
                runs[runs.count - 1] = last.lowerBound...day
            } else if runs.last?.contains(day) != true {
                runs.append(day...day)
            }
        }
        return runs
    }
}
