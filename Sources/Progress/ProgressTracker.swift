import Foundation
import Observation
import WeightLog

/// Holds the progress snapshot and computes it: on the main actor for small
/// histories, off it for large ones, and a newer request supersedes (and
/// cancels) an older one so only the latest answer is kept.
@MainActor
@Observable
public final class ProgressTracker {
    public private(set) var snapshot: WeightHistoryData?
    public private(set) var isLoading = false
    @ObservationIgnored private var computation: Task<WeightHistoryData?, Never>?
    @ObservationIgnored private var generation = 0

    /// Daily series longer than this are computed off the main actor.
    public static let offMainActorThreshold = 20_000

    public init() {}

    /// Computes the history for `range` and keeps it, unless a newer request
    /// arrived meanwhile; returns what this request computed.
    @discardableResult
    /// The history computed away from the main actor; nil when its task was cancelled before it began.
    private nonisolated static func history(series: DailySeries, today: Int, range: ProgressRange,
                                            goalKilograms: Double?) async -> WeightHistoryData? {
        guard !Task.isCancelled else { return nil }
        return ProgressCalculator.history(series: series, today: today, range: range, goalKilograms: goalKilograms)
    }

    public func update(series: DailySeries, today: Int, range: ProgressRange, goalKilograms: Double?) async -> WeightHistoryData {
        generation += 1
        let mine = generation
        computation?.cancel()
        if series.count <= Self.offMainActorThreshold {
            let data = ProgressCalculator.history(series: series, today: today, range: range,
                                                  goalKilograms: goalKilograms)
            snapshot = data
            return data
        }
        isLoading = true
        // A nonisolated async function runs on the global executor: off the main actor, cancelled with the task.
        let task = Task(priority: .userInitiated) { await Self.history(series: series, today: today, range: range, goalKilograms: goalKilograms) }
        computation = task
        let result = await task.value
        if mine == generation {
            isLoading = false
            computation = nil
            if let result { snapshot = result }
        }
        return result ?? ProgressCalculator.history(series: series, today: today, range: range,
                                                    goalKilograms: goalKilograms)
    }
}
