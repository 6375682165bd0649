import Foundation
import Vocabulary

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
        let measured = entries.filter { $0.bodyFatPercent != nil }.sorted { $0.date < $1.date }
        guard !measured.isEmpty else { return nil }
        let seconds = measured.map(\.date.timeIntervalSince1970)
        func series(_ value: (WeightEntry) -> Double) -> DailySeries {
            DailySeries(sortedSeconds: seconds, kilograms: measured.map(value), localDays: localDays)
        }
        let percent = series { $0.bodyFatPercent ?? 0 }
        let lean = series { $0.kilograms * (1 - ($0.bodyFatPercent ?? 0) / 100) }
        let fat = series { $0.kilograms * ($0.bodyFatPercent ?? 0) / 100 }
        guard let last = percent.days.last, let latest = percent.kilograms.last, let percentTrend = percent.smoothedKilograms.last,
              let leanTrend = lean.smoothedKilograms.last, let fatTrend = fat.smoothedKilograms.last,
              let firstLean = lean.smoothedKilograms.first else { return nil }
        return BodyComposition(latestDay: last, latestPercent: latest, percentTrend: percentTrend, leanMassTrendKilograms: leanTrend,
                               fatMassTrendKilograms: fatTrend, leanMassChangeKilograms: leanTrend - firstLean, days: percent.count)
    }

    /// How recent body fat must be for `today` to show it.
    public static let recentDays = 14
}
