import Foundation
import Vocabulary

/// The weigh-ins that carry body fat, lean: their instants (ascending), weights and percents.
public struct BodyFatSamples: Sendable, Equatable {
    public var seconds: [Double] = []
    public var kilograms: [Double] = []
    public var percent: [Double] = []

    public init(seconds: [Double] = [], kilograms: [Double] = [], percent: [Double] = []) {
        self.seconds = seconds
        self.kilograms = kilograms
        self.percent = percent
    }
}

/// Body composition from the weigh-ins that carry body fat (typed with
/// `weigh 82.4 fat 23.5%` or `fat 23.5%`, or imported): the fat percent, the
/// lean mass (`weight × (1 − fat)`) and the fat mass, each trended with the
/// weight's gap-aware 10 % smoothing (`DailySeries`) over its own daily means,
/// as TrendWeight trends them.
public struct BodyComposition: Sendable, Equatable {
    /// The last day with body fat, and that day's mean.
    public let latestDay: Int
    public let latestPercent: Double
    /// The trends on that day.
    public let percentTrend: Double
    public let leanMassTrendKilograms: Double
    public let fatMassTrendKilograms: Double
    /// The lean-mass trend's change over the days looked at (from its first day with body fat).
    public let leanMassChangeKilograms: Double
    /// Days with body fat among those looked at.
    public let days: Int

    /// The composition of `entries` (any order); nil when none carries body fat.
    /// - Complexity: O(n log n) for entries out of order.
    public static func of(_ entries: [WeightEntry], localDays: LocalDays) -> BodyComposition? {
        let measured = entries.filter { $0.bodyFatPercent != nil }.sorted { ($0.date, $0.id) < ($1.date, $1.id) }
        let samples = BodyFatSamples(seconds: measured.map(\.date.timeIntervalSince1970), kilograms: measured.map(\.kilograms),
                                     percent: measured.map { $0.bodyFatPercent ?? 0 })
        let series = Series(samples, localDays: localDays)
        guard let last = series.percent.days.last, let latest = series.percent.kilograms.last,
              let percentTrend = series.percent.smoothedKilograms.last, let leanTrend = series.lean.smoothedKilograms.last,
              let fatTrend = series.fat.smoothedKilograms.last, let firstLean = series.lean.smoothedKilograms.first else { return nil }
        return BodyComposition(latestDay: last, latestPercent: latest, percentTrend: percentTrend, leanMassTrendKilograms: leanTrend,
                               fatMassTrendKilograms: fatTrend, leanMassChangeKilograms: leanTrend - firstLean, days: series.percent.count)
    }

    /// Body fat %, lean mass and fat mass of weigh-ins with body fat, each over its own daily means with
    /// the weight's smoothing: the one rule `today`, `progress … fat|lean` and the commentary use.
    public struct Series: Sendable, Equatable {
        public let percent: DailySeries
        public let lean: DailySeries
        public let fat: DailySeries

        public init(_ samples: BodyFatSamples, localDays: LocalDays) {
            let lean = zip(samples.kilograms, samples.percent).map { $0 * (1 - $1 / 100) }
            let fat = zip(samples.kilograms, samples.percent).map { $0 * $1 / 100 }
            percent = DailySeries(sortedSeconds: samples.seconds, kilograms: samples.percent, localDays: localDays)
            self.lean = DailySeries(sortedSeconds: samples.seconds, kilograms: lean, localDays: localDays)
            self.fat = DailySeries(sortedSeconds: samples.seconds, kilograms: fat, localDays: localDays)
        }
    }

    /// How recent body fat must be for `today` to show it.
    public static let recentDays = 14
}
