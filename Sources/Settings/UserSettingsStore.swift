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
        Self.apply(change, to: &changed)
        guard changed != settings else { return }
        try await repository.save(change, journal: at.map { JournalEntry(action: change.journalAction, summary: summary(of: change), at: $0) })
        settings = changed
    }

    private static func apply(_ change: SettingChange, to settings: inout UserSettings) {
        switch change {
        case let .unit(unit): settings.unit = unit
        case let .goalKilograms(goal): settings.goalKilograms = goal
        case let .progressRange(range): settings.progressRange = range
        case let .syncFolder(folder): settings.syncFolder = folder
        case let .heightMetres(height): settings.heightMetres = height
        case let .dayStartMinutes(minutes): settings.dayStartMinutes = minutes
        case let .deviceName(name): settings.deviceName = name
        case let .measureUnit(unit): settings.measureUnit = unit
        case let .sex(sex): settings.sex = sex
        }
    }

    private func performLoad() async throws {
        let loaded = try await repository.loadSettings()
        settings = loaded.settings
        warnings = loaded.warnings
    }

    /// What the history calls a change, in the unit in force when it is made.
    private func summary(of change: SettingChange) -> String {
        switch change {
        case let .unit(unit): "set units \(unit.rawValue)"
        case let .goalKilograms(goal?): "goal \(settings.unit.format(goal))"
        case .goalKilograms(nil): "goal cleared"
        case let .progressRange(range): "progress range \(range)"
        case let .syncFolder(folder?): "set sync-folder \(folder)"
        case .syncFolder(nil): "set sync-folder off"
        case let .heightMetres(height?): "set height \(Int((height * 100).rounded())) cm"
        case .heightMetres(nil): "set height off"
        case let .dayStartMinutes(minutes): "set day-start \(DayStart.text(minutes))"
        case let .deviceName(name?): "set device-name \(name)"
        case .deviceName(nil): "set device-name off"
        case let .measureUnit(unit): "set measure-unit \(unit?.rawValue ?? "off")"
        case let .sex(sex): "set sex \(sex?.rawValue ?? "off")"
        }
    }
}

extension SettingChange {
    /// The journal's word for it.
    var journalAction: String {
        if case .goalKilograms = self { return "goal" }
        return "setting"
    }
}
