import Foundation

/// The person's choices that outlive a session.
public struct UserSettings: Sendable, Equatable {
    public var unit: WeightUnit
    public var goalKilograms: Double?
    /// The progress range's name (`1w`…`all`); the Progress target gives it meaning.
    public var progressRange: String
    /// A folder another program syncs (Syncthing, Nextcloud, Dropbox), or nil.
    public var syncFolder: String?
    /// The person's height, for the BMI; nil until set.
    public var heightMetres: Double?

    public init(unit: WeightUnit = .kilograms, goalKilograms: Double? = nil,
                progressRange: String = "3m", syncFolder: String? = nil, heightMetres: Double? = nil) {
        self.unit = unit
        self.goalKilograms = goalKilograms
        self.progressRange = progressRange
        self.syncFolder = syncFolder
        self.heightMetres = heightMetres
    }

    public static let defaults = UserSettings()
}

/// One setting that changed, as the repository stores it.
public enum SettingChange: Sendable, Equatable {
    case unit(WeightUnit)
    case goalKilograms(Double?)
    case progressRange(String)
    case syncFolder(String?)
    case heightMetres(Double?)
}

/// Settings as read back, with a note for every stored value that could not be used.
public struct LoadedSettings: Sendable, Equatable {
    public var settings: UserSettings
    public var warnings: [String]

    public init(settings: UserSettings, warnings: [String] = []) {
        self.settings = settings
        self.warnings = warnings
    }
}

/// Where settings are kept.
public protocol SettingsRepository: Sendable {
    func loadSettings() async throws -> LoadedSettings
    func save(_ change: SettingChange) async throws
    /// Changes when another process has written; see `LocalDataStore.externalVersion()`.
    func externalVersion() async throws -> Int
}
