import Foundation
import Storage

/// Settings in the `settings` table (through `SettingsTable`), one row per key. Each change writes only
/// its own key, so two processes changing different settings keep both.
public actor LocalSettingsRepository: SettingsRepository {
    private let store: LocalDataStore

    public init(store: LocalDataStore) {
        self.store = store
    }

    /// Runs on the store's own thread, never on the cooperative pool.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { store.executor.asUnownedSerialExecutor() }

    public func loadSettings() throws -> LoadedSettings {
        let rows = try store.read { try SettingsTable.rows(in: $0) }
        let values = Dictionary(rows.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
        return Self.decode(values)
    }

    public func externalVersion() throws -> Int {
        try store.externalVersion()
    }

    public func save(_ change: SettingChange, journal: JournalEntry?) throws {
        try store.write(journal: journal) { connection in
            try SettingsTable.write(key: change.setting.key, value: change.value, in: connection)
        }
    }

    /// The stored values, each checked as `set` checks it (`Setting.problem`); one that cannot be used is the default,
    /// with a warning.
    static func decode(_ values: [String: String]) -> LoadedSettings {
        var settings = UserSettings.defaults
        var warnings: [String] = []
        for setting in Setting.all {
            guard let raw = values[setting.key] else { continue }
            if let problem = setting.problem(raw) {
                warnings.append(setting.warning(problem))
            } else {
                setting.apply(raw, &settings)
            }
        }
        return LoadedSettings(settings: settings, warnings: warnings)
    }
}
