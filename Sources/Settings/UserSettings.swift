import Foundation
import Storage
import Vocabulary

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
    /// Minutes after midnight when a habit day begins (Loop's "start of day"): a mark made
    /// before it counts for the day before. 0 is midnight.
    public var dayStartMinutes: Int
    /// What this installation is called in the sync folder (`set device-name`); nil: the host's name.
    /// Like the sync folder, it stays on this device.
    public var deviceName: String?
    /// The unit tape measures are shown in (`set measure-unit`); nil: the usual one with the weight's unit.
    public var measureUnit: LengthUnit?
    /// For the US-Navy body-fat estimate (`set sex`); nil until set, and never needed otherwise.
    public var sex: Sex?
    /// Who the report is about (`set name`); nil: it names no one.
    public var personName: String?
    /// The year of birth (`set born`), for the report's age band; nil until set.
    public var birthYear: Int?

    /// The unit tape measures are shown and typed in: the one set, or inches for a person who weighs in pounds or stones.
    public var tapeUnit: LengthUnit { measureUnit ?? LengthUnit.usual(with: unit) }

    public init(unit: WeightUnit = .kilograms, goalKilograms: Double? = nil,
                progressRange: String = "3m", syncFolder: String? = nil, heightMetres: Double? = nil, dayStartMinutes: Int = 0) {
        self.unit = unit
        self.goalKilograms = goalKilograms
        self.progressRange = progressRange
        self.syncFolder = syncFolder
        self.heightMetres = heightMetres
        self.dayStartMinutes = dayStartMinutes
    }

    public static let defaults = UserSettings()
}

/// One setting that changed, as the repository stores it: the setting and its stored value (nil: the default).
public struct SettingChange: Sendable, Equatable {
    public let setting: Setting
    public let value: String?

    public init(_ setting: Setting, _ value: String?) {
        self.setting = setting
        self.value = value
    }

    public static func unit(_ unit: WeightUnit) -> SettingChange { SettingChange(.unit, unit.rawValue) }
    public static func goalKilograms(_ goal: Double?) -> SettingChange { SettingChange(.goal, goal.map { "\($0)" }) }
    public static func progressRange(_ range: String) -> SettingChange { SettingChange(.progressRange, range) }
}

/// What the US-Navy body-fat estimate needs to know: its formulas differ for women (with the hips) and men.
public enum Sex: String, Sendable, CaseIterable, Codable {
    case female, male

    /// `female`, `f`, `woman`, `male`, `m`, `man`.
    public init?(word: String) {
        switch word.lowercased() {
        case "female", "f", "woman", "w": self = .female
        case "male", "m", "man": self = .male
        default: return nil
        }
    }
}

/// The rule for a device's name: 1–40 characters once trimmed, no control characters.
public enum DeviceName {
    public static let maximumLength = 40

    /// The name as typed, trimmed; nil when it is empty, too long or holds control characters.
    public static func checked(_ text: String) -> String? {
        let name = text.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, name.count <= maximumLength, !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { return nil }
        return name
    }
}

/// The years of birth Trend accepts (`set born 1984`), and the ten-year band a doctor reads an age in.
public enum BirthYear {
    public static let accepted: ClosedRange<Int> = 1900...2100

    /// The age band in `year` ("40–49"), or nil for a year before the birth.
    public static func ageBand(born: Int, in year: Int) -> String? {
        let age = year - born
        guard age >= 0 else { return nil }
        let low = age / 10 * 10
        return "\(low)–\(low + 9)"
    }
}

/// The rule for when a habit day may start: `HH:MM` from 00:00 to 12:00 (Loop offers the early hours).
public enum DayStart {
    public static let acceptedMinutes: ClosedRange<Int> = 0...720

    /// `04:00`, `4:30`, `4` (hours) as minutes after midnight.
    public static func parse(_ text: String) throws(SettingsError) -> Int {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let hours = Int(parts[0]), parts[0].count <= 2,
              let minutes = parts.count == 2 ? Int(parts[1]) : 0, parts.count == 1 || parts[1].count == 2,
              (0..<60).contains(minutes), hours >= 0 else { throw .notADayStart(text) }
        let total = hours * 60 + minutes
        guard acceptedMinutes.contains(total) else { throw .notADayStart(text) }
        return total
    }

    /// `04:00`.
    public static func text(_ minutes: Int) -> String { String(format: "%02d:%02d", minutes / 60, minutes % 60) }
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
    /// Stores one change, journaled under `journal` when given.
    func save(_ change: SettingChange, journal: JournalEntry?) async throws
    /// Changes when another process has written; see `LocalDataStore.externalVersion()`.
    func externalVersion() async throws -> Int
}
