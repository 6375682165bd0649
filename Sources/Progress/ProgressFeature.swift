import Foundation
import Observation
import Settings
import Vocabulary
import WeightLog

/// Why a goal was refused.
public enum ProgressError: Error, Equatable, CustomStringConvertible, Sendable {
    case unknownRange(String)

    public var description: String {
        switch self {
        case let .unknownRange(name): "'\(name)' is not a range; use 1w, 3m, 1y, all, 30d, a month like 2026-02, a year like 2025 or 2026-01-01..2026-01-31"
        }
    }
}

/// The progress capability: the chart's data for the chosen range, the
/// goal, and the range choice (which outlives the session).
@MainActor
@Observable
public final class ProgressFeature {
    @ObservationIgnored private let progress: ProgressTracker
    @ObservationIgnored private let weightLog: WeightLogManager
    @ObservationIgnored private let settings: UserSettingsStore
    @ObservationIgnored private let currentDate: @MainActor () -> Date
    public let calendar: Calendar
    /// Why the range last chosen could not be kept for next time; nil when it was.
    public private(set) var rangeNotKept: (any Error)?

    public init(progress: ProgressTracker, weightLog: WeightLogManager, settings: UserSettingsStore,
                calendar: Calendar, currentDate: @escaping @MainActor () -> Date) {
        self.progress = progress
        self.weightLog = weightLog
        self.settings = settings
        self.calendar = calendar
        self.currentDate = currentDate
    }

    public var progressSnapshot: WeightHistoryData? { progress.snapshot }
    public var goalWeightKilograms: Double? { settings.goalKilograms }
    public var selectedWeightUnit: WeightUnit { settings.unit }
    public var lastError: (any Error)? { weightLog.lastError ?? settings.lastError }
    public var selectedProgressRange: ProgressRange {
        ProgressRange(name: settings.settings.progressRange, today: today) ?? .default
    }

    /// Launch work: the log and settings are loaded by their owners; the
    /// snapshot is computed when first asked for, so start-up stays light.
    public func startLoading() {
        settings.startLoading()
        weightLog.startLoading()
    }

    /// Recomputes the snapshot after a change, if one is being shown.
    public func refresh() async {
        guard progress.snapshot != nil, weightLog.hasLoaded else { return }
        await compute(range: selectedProgressRange)
    }

    /// The history for `range` (nil: the selected one), loading what it needs.
    /// Reads the settings (the unit a goal is typed in) before anything is parsed.
    /// Today's local day, from the clock.
    public var today: Int { weightLog.localDays(for: calendar.timeZone).day(of: currentDate()) }

    public func loadSettings() async throws {
        try await settings.ensureLoaded()
    }

    public func prepare(range: ProgressRange? = nil) async throws -> WeightHistoryData {
        try await settings.ensureLoaded()
        try await weightLog.ensureLoaded()
        return await compute(range: range ?? selectedProgressRange)
    }

    /// Chooses the range shown from now on (persisted) and computes it. The
    /// chart is the answer: when the choice cannot be kept (a read-only
    /// folder, a full disk), the range is shown all the same and
    /// `rangeNotKept` says why.
    @discardableResult
    public func selectProgressRange(_ range: ProgressRange) async throws -> WeightHistoryData {
        do {
            try await settings.apply(.progressRange(range.rawValue))
            rangeNotKept = nil
        } catch {
            rangeNotKept = error
        }
        return try await prepare(range: range)
    }

    /// Sets (kilograms, range-checked) or clears the goal.
    public func setGoal(kilograms: Double?) async throws {
        try await settings.apply(.goalKilograms(kilograms), at: currentDate())
        await refresh()
    }

    @discardableResult
    private func compute(range: ProgressRange) async -> WeightHistoryData {
        let zone = calendar.timeZone
        // A span that ended in the past is shown as of its last day.
        let end = range.endDay.map { min($0, today) } ?? today
        return await progress.update(series: weightLog.dailySeries(in: zone), today: end, range: range,
                                     goalKilograms: settings.goalKilograms)
    }
}
