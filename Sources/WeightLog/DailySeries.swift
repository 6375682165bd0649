import Foundation
import Vocabulary

/// The daily values of a weight history and the trend through them: one
/// element per local day with at least one entry, in day order.
///
/// The daily value is the mean of that day's entries. The trend is The
/// Hacker's Diet's exponentially smoothed average, 10% a day, gap-aware:
/// the first day's trend is its weight; a day `g` days after the previous
/// one moves `1 − 0.9^g` of the way from the previous trend to its weight.
public struct DailySeries: Sendable, Equatable {
    /// Local day numbers (see `LocalDays`), ascending, unique.
    public private(set) var days: [Int]
    public private(set) var kilograms: [Double]
    public private(set) var smoothedKilograms: [Double]
    /// Entries behind each day, for incremental appends.
    public private(set) var entryCounts: [Int]

    public static let smoothing = 0.1

    public init() {
        days = []
        kilograms = []
        smoothedKilograms = []
        entryCounts = []
    }

    public var isEmpty: Bool { days.isEmpty }
    public var count: Int { days.count }

    /// Builds the series from instants (seconds since 1970) sorted ascending
    /// and their weights.
    /// - Complexity: O(n) over the entries, no Calendar calls.
    public init(sortedSeconds seconds: [Double], kilograms weights: [Double], localDays: LocalDays) {
        self.init()
        _ = build(count: seconds.count, localDays: localDays, seconds: { seconds[$0] }, weight: { weights[$0] })
    }

    /// Builds the series from entries; entries in date order (as the log
    /// keeps them) are read once, others are sorted first.
    /// - Complexity: O(n) for entries in order, O(n log n) otherwise.
    public init(entries: [WeightEntry], localDays: LocalDays) {
        self.init()
        let inOrder = build(count: entries.count, localDays: localDays,
                            seconds: { entries[$0].date.timeIntervalSince1970 }, weight: { entries[$0].kilograms })
        if !inOrder {
            let sorted = entries.sorted { $0.date < $1.date }
            self = DailySeries()
            _ = build(count: sorted.count, localDays: localDays,
                      seconds: { sorted[$0].date.timeIntervalSince1970 }, weight: { sorted[$0].kilograms })
        }
    }

    /// The one pass: bucket by local day, average, then smooth. Returns false
    /// (leaving a partial series) as soon as an instant goes backwards.
    @inline(__always)
    private mutating func build(count: Int, localDays: LocalDays, seconds: (Int) -> Double, weight: (Int) -> Double) -> Bool {
        guard count > 0 else { return true }
        let span = seconds(count - 1) - seconds(0)
        let capacity = span >= 0 ? min(count, Int(span / 86_400) + 2) : count
        days.reserveCapacity(capacity)
        kilograms.reserveCapacity(capacity)
        entryCounts.reserveCapacity(capacity)
        var cursor = LocalDays.DayCursor(localDays)
        var currentDay = Int.min
        var previous = -Double.infinity
        var sum = 0.0
        var inDay = 0
        for index in 0..<count {
            let instant = seconds(index)
            guard instant >= previous else { return false }
            previous = instant
            let day = cursor.day(ofSeconds: instant)
            if day != currentDay {
                if inDay > 0 {
                    days.append(currentDay)
                    kilograms.append(sum / Double(inDay))
                    entryCounts.append(inDay)
                }
                currentDay = day
                sum = 0
                inDay = 0
            }
            sum += weight(index)
            inDay += 1
        }
        if inDay > 0 {
            days.append(currentDay)
            kilograms.append(sum / Double(inDay))
            entryCounts.append(inDay)
        }
        smoothedKilograms = Self.smooth(days: days, kilograms: kilograms)
        return true
    }

    /// Adds one entry on or after the last day without recomputing the rest.
    /// Returns false (and changes nothing) when the entry falls before the last day.
    public mutating func append(kilograms weight: Double, onDay day: Int) -> Bool {
        guard let lastDay = days.last else {
            days = [day]
            kilograms = [weight]
            entryCounts = [1]
            smoothedKilograms = [weight]
            return true
        }
        if day < lastDay { return false }
        if day == lastDay {
            let last = days.count - 1
            let total = kilograms[last] * Double(entryCounts[last]) + weight
            entryCounts[last] += 1
            kilograms[last] = total / Double(entryCounts[last])
            smoothedKilograms[last] = last == 0
                ? kilograms[last]
                : Self.step(previous: smoothedKilograms[last - 1], weight: kilograms[last], gapDays: day - days[last - 1])
            return true
        }
        days.append(day)
        kilograms.append(weight)
        entryCounts.append(1)
        smoothedKilograms.append(Self.step(previous: smoothedKilograms[smoothedKilograms.count - 1], weight: weight,
                                           gapDays: day - lastDay))
        return true
    }

    /// The index of the first day at or after `day`.
    public func firstIndex(onOrAfter day: Int) -> Int {
        var low = 0, high = days.count
        while low < high {
            let middle = (low + high) / 2
            if days[middle] < day { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The trend through daily values.
    public static func smooth(days: [Int], kilograms: [Double]) -> [Double] {
        guard let first = kilograms.first else { return [] }
        var smoothed = [Double](repeating: 0, count: kilograms.count)
        smoothed[0] = first
        var previous = first
        for index in 1..<max(1, kilograms.count) {
            previous = step(previous: previous, weight: kilograms[index], gapDays: days[index] - days[index - 1])
            smoothed[index] = previous
        }
        return smoothed
    }

    /// `1 − 0.9^g` for the gaps that occur nearly always, computed once.
    private static let factors: [Double] = (0...64).map { 1 - pow(1 - smoothing, Double($0)) }

    @inline(__always)
    public static func step(previous: Double, weight: Double, gapDays: Int) -> Double {
        let factor = gapDays < factors.count ? factors[gapDays] : 1 - pow(1 - smoothing, Double(gapDays))
        return previous + factor * (weight - previous)
    }
}
