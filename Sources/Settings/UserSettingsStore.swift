/// Settings owns the person's choices (unit, goal, progress range, sync
/// folder) and the units weights are typed in. It imports Storage only.
import Foundation
import Observation
import Storage
import Vocabulary

/// The shared, loaded copy of the settings. Several Features read it (the
/// unit, the goal); `AppModel.assemble(_:)` hands the same instance to each.
@MainActor
@Observable
public final class UserSettingsStore {
    public private(set) var settings = UserSettings.defaults
    /// Stored values that could not be used and were replaced by defaults.
    public private(set) var warnings: [String] = []

    @ObservationIgnored private let repository: any SettingsRepository
    @ObservationIgnored private let loader: FreshLoader

    public init(repository: any SettingsRepository) {
        self.repository = repository
        loader = FreshLoader(version: { try await repository.externalVersion() })
    }

    public var isLoading: Bool { loader.isLoading }
    public var hasLoaded: Bool { loader.hasLoaded }
    public var lastError: (any Error)? { loader.lastError }

    public var unit: WeightUnit { settings.unit }
    public var goalKilograms: Double? { settings.goalKilograms }

    /// Starts reading the settings; returns at once.
    public func startLoading() { loader.start(performLoad) }

    /// Reads the settings again after a write, if they were read at all (see `FreshLoader.refresh`).
    public func reload() async { await loader.refresh(performLoad) }

    /// Loads once, and again when another process has written since; throws
    /// the storage error when the settings could not be read.
    public func ensureLoaded() async throws { try await loader.ensureLoaded(performLoad) }

    /// Persists one change, then applies it. Nothing changes when the write fails.
    /// With `at` (the caller's clock), the change is journaled, so `undo` can
    /// take it back; a remembered choice such as the progress range is not.
    public func apply(_ change: SettingChange, at: Date? = nil) async throws {
        try await ensureLoaded()
        // A setting given the value it has is no change: nothing is written or journaled (`goal 80` at 80 was).
        var changed = settings
        change.setting.apply(change.value, &changed)
        guard changed != settings else { return }
        // What the history calls it, in the unit in force when it is made.
        let journal = at.map { JournalEntry(action: change.setting == .goal ? "goal" : "setting", summary: change.setting.said(change.value, settings), at: $0) }
        try await repository.save(change, journal: journal)
        settings = changed
    }

    private func performLoad() async throws {
        let loaded = try await repository.loadSettings()
        settings = loaded.settings
        warnings = loaded.warnings
    }
}
