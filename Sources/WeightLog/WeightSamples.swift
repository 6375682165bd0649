/// Every weigh-in's instant and weight, oldest first, in two flat arrays:
/// all the trend, the streak and the check-in need, read from the index
/// without an object per row (see `WeightTable.samples(in:)`).
public struct WeightSamples: Sendable, Equatable {
    /// Seconds since 1970, ascending (equal instants in id order as stored).
    public var seconds: [Double] = []
    public var kilograms: [Double] = []

    public init() {}

    /// The samples of entries in the stored order.
    public init(_ entries: [WeightEntry]) {
        seconds = entries.map(\.date.timeIntervalSince1970)
        kilograms = entries.map(\.kilograms)
    }

    public var count: Int { seconds.count }
    public var isEmpty: Bool { seconds.isEmpty }

    /// Adds an entry's sample after every sample at or before its instant;
    /// returns whether it went at the end.
    @discardableResult
    mutating func insert(_ entry: WeightEntry) -> Bool {
        let instant = entry.date.timeIntervalSince1970
        var low = 0, high = seconds.count
        while low < high {
            let middle = (low + high) / 2
            if seconds[middle] <= instant { low = middle + 1 } else { high = middle }
        }
        seconds.insert(instant, at: low)
        kilograms.insert(entry.kilograms, at: low)
        return low == seconds.count - 1
    }

    /// Removes one sample with the entry's instant and weight (equal samples are interchangeable).
    mutating func remove(_ entry: WeightEntry) {
        let instant = entry.date.timeIntervalSince1970
        var low = 0, high = seconds.count
        while low < high {
            let middle = (low + high) / 2
            if seconds[middle] < instant { low = middle + 1 } else { high = middle }
        }
        var index = low
        while index < seconds.count, seconds[index] == instant {
            if kilograms[index] == entry.kilograms {
                seconds.remove(at: index)
                kilograms.remove(at: index)
                return
            }
            index += 1
        }
    }
}
