import Foundation
import Storage
import Vocabulary

/// Settings in the `settings` table (through `SettingsTable`), one row per key. Each change writes only
/// its own key, so two processes changing different settings keep both.
public actor LocalSettingsRepository: SettingsRepository {
    private let store: LocalDataStore

    public init(store: LocalDataStore) {
        self.store = store
    }

    /// Runs on the store's own thread, never on the cooperative pool.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { store.executor.asUnownedSerialExecutor() }

    enum Key {
        static let unit = "unit"
        static let goalKilograms = "goalKilograms"
        static let progressRange = "progressRange"
        static let syncFolder = "syncFolder"
        static let heightMetres = "heightMetres"
        static let dayStartMinutes = "dayStartMinutes"
        static let deviceName = "deviceName"
        static let measureUnit = "measureUnit"
        static let sex = "sex"
    }

    public func loadSettings() throws -> LoadedSettings {
        let rows = try store.read { try SettingsTable.rows(in: $0) }
        let values = Dictionary(rows.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
        return Self.decode(values)
    }

    public func externalVersion() throws -> Int {
        try store.externalVersion()
    }

    public func save(_ change: SettingChange, journal: JournalEntry?) throws {
        let (key, value) = Self.encode(change)
        try store.write(journal: journal) { connection in
            try SettingsTable.write(key: key, value: value, in: connection)
        }
    }

    static func encode(_ change: SettingChange) -> (String, String?) {
        switch change {
        case let .unit(unit): return (Key.unit, unit.rawValue)
        case let .goalKilograms(goal): return (Key.goalKilograms, goal.map { "\($0)" })
        case let .progressRange(range): return (Key.progressRange, range)
        case let .syncFolder(folder): return (Key.syncFolder, folder)
        case let .heightMetres(height): return (Key.heightMetres, height.map { "\($0)" })
        case let .dayStartMinutes(minutes): return (Key.dayStartMinutes, minutes == 0 ? nil : String(minutes))
        case let .deviceName(name): return (Key.deviceName, name)
        case let .measureUnit(unit): return (Key.measureUnit, unit?.rawValue)
        case let .sex(sex): return (Key.sex, sex?.rawValue)
        }
    }

    static func decode(_ values: [String: String]) -> LoadedSettings {
        var settings = UserSettings.defaults
        var warnings: [String] = []
        if let raw = values[Key.unit] {
            if let unit = WeightUnit(rawValue: raw) { settings.unit = unit }
            else { warnings.append("the stored unit '\(raw)' is unknown; using kg") }
        }
        if let raw = values[Key.goalKilograms] {
            if let goal = Double(raw), WeightUnit.acceptedKilograms.contains(goal) { settings.goalKilograms = goal }
            else { warnings.append("the stored goal '\(raw)' is not a weight; no goal is set") }
        }
        if let raw = values[Key.progressRange] { settings.progressRange = raw }
        if let raw = values[Key.syncFolder], !raw.isEmpty { settings.syncFolder = raw }
        if let raw = values[Key.deviceName] { settings.deviceName = DeviceName.checked(raw) }
        if let raw = values[Key.heightMetres] {
            if let height = Double(raw), HeightInput.acceptedMetres.contains(height) { settings.heightMetres = height }
            else { warnings.append("the stored height '\(raw)' is not a height; no height is set") }
        }
        if let raw = values[Key.dayStartMinutes] {
            if let minutes = Int(raw), DayStart.acceptedMinutes.contains(minutes) { settings.dayStartMinutes = minutes }
            else { warnings.append("the stored start of day '\(raw.prefix(20))' is not a time; days start at midnight") }
        }
        if let raw = values[Key.measureUnit] {
            if let unit = LengthUnit(rawValue: raw) { settings.measureUnit = unit }
            else { warnings.append("the stored measure unit '\(raw.prefix(20))' is unknown; using \(settings.tapeUnit.rawValue)") }
        }
        if let raw = values[Key.sex] {
            if let sex = Sex(rawValue: raw) { settings.sex = sex }
            else { warnings.append("the stored sex '\(raw.prefix(20))' is unknown; no body-fat estimate is made") }
        }
        return LoadedSettings(settings: settings, warnings: warnings)
    }
}
