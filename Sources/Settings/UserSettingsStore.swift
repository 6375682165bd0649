/// Settings owns the person's choices (unit, goal, progress range, sync
/// folder) and the units weights are typed in. It imports Storage only.
import Foundation
import Observation
import Storage

/// The shared, loaded copy of the settings. Several Features read it (the
/// unit, the goal); `AppModel.live()` hands the same instance to each.
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

    /// Reads the settings, or joins a read in flight.
    public func reload() async { await loader.reload(performLoad) }

    /// Loads once, and again when another process has written since; throws
    /// the storage error when the settings could not be read.
    public func ensureLoaded() async throws { try await loader.ensureLoaded(performLoad) }

    /// Persists one change, then applies it. Nothing changes when the write fails.
    public func apply(_ change: SettingChange) async throws {
        try await ensureLoaded()
        try await repository.save(change)
        switch change {
        case let .unit(unit): settings.unit = unit
        case let .goalKilograms(goal): settings.goalKilograms = goal
        case let .progressRange(range): settings.progressRange = range
        case let .syncFolder(folder): settings.syncFolder = folder
        case let .heightMetres(height): settings.heightMetres = height
        case let .dayStartMinutes(minutes): settings.dayStartMinutes = minutes
        }
    }

    private func performLoad() async throws {
        let loaded = try await repository.loadSettings()
        settings = loaded.settings
        warnings = loaded.warnings
    }
}
