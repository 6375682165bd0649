import Foundation
import Observation

/// Why a setting was refused.
public enum SettingsError: Error, Equatable, CustomStringConvertible, Sendable {
    case unknownUnit(String)
    case syncFolderMissing(String)
    case invalidDeviceName(String)
    case invalidPersonName(String)
    case notABirthYear(String)
    case notAHeight(String)
    case heightOutOfRange(String)
    case notADayStart(String)
    case unknownMeasureUnit(String)
    case unknownSex(String)

    public var description: String {
        switch self {
        case let .unknownUnit(word): "'\(word)' is not a unit; use kg, lb or st"
        case let .notAHeight(text): "'\(text)' is not a height; write it like 180 cm, 1.80 m, 5ft 11in or 71 in"
        case let .heightOutOfRange(text): "\(text) is outside the accepted 0.5–2.8 m"
        case let .notADayStart(text): "'\(text)' is not a start of day; write a time from 00:00 to 12:00, e.g. 04:00"
        case let .unknownMeasureUnit(word): "'\(word)' is not a unit for tape measures; use cm or in"
        case let .unknownSex(word): "'\(word)' is not one the body-fat estimate knows; use female or male (or off)"
        case let .syncFolderMissing(path): "the sync folder \(path) does not exist or is not a folder; create it first"
        case let .invalidDeviceName(name): "'\(name)' is not a device name: give 1–\(DeviceName.maximumLength) characters, no control characters"
        case let .invalidPersonName(name): "'\(name)' is not a name: give 1–\(DeviceName.maximumLength) characters, no control characters"
        case let .notABirthYear(text): "'\(text)' is not a year of birth; write the year, from \(BirthYear.accepted.lowerBound) to \(BirthYear.accepted.upperBound)"
        }
    }
}

/// The settings screen's capability: show the choices and change them.
@MainActor
@Observable
public final class SettingsFeature {
    @ObservationIgnored private let settings: UserSettingsStore
    /// Where this installation keeps its database, history and backups.
    public let dataDirectory: URL
    @ObservationIgnored private let currentDate: @MainActor () -> Date

    public init(settings: UserSettingsStore, dataDirectory: URL, currentDate: @escaping @MainActor () -> Date) {
        self.settings = settings
        self.dataDirectory = dataDirectory
        self.currentDate = currentDate
    }

    public var current: UserSettings { settings.settings }
    public var isLoading: Bool { settings.isLoading }
    public var lastError: (any Error)? { settings.lastError }
    public var warnings: [String] { settings.warnings }

    public func startLoading() {
        settings.startLoading()
    }

    /// Reads the settings again (after a restore, or another process changed them).
    public func reload() async {
        await settings.reload()
    }

    /// Reads the settings (joining a read in flight); throws when storage fails.
    public func load() async throws {
        try await settings.ensureLoaded()
    }

    /// `set WORD VALUE`: the value read as the setting reads it (`Setting.read`), or, for one of `Setting.offWords`,
    /// the setting's default. Nothing changes when it is refused.
    public func set(_ setting: Setting, to typed: String) async throws {
        let value = Setting.isOff(typed) && setting.clearable ? nil : try setting.read(typed.trimmingCharacters(in: .whitespaces))
        try await settings.apply(SettingChange(setting, value), at: currentDate())
    }

    /// The setting's own words, or nil for its default.
    private func set(_ setting: Setting, _ typed: String?) async throws { try await set(setting, to: typed ?? "off") }

    public func setUnit(named word: String) async throws { try await set(.unit, word) }
    /// Sets the height (for the BMI) from the words a person types, or clears it with nil.
    public func setHeight(_ text: String?) async throws { try await set(.height, text) }
    /// Sets the unit tape measures are shown in, or with nil goes back to the one usual with the weight's unit.
    public func setMeasureUnit(named word: String?) async throws { try await set(.measureUnit, word) }
    /// Sets the sex the US-Navy body-fat estimate uses, or with nil makes no estimate.
    public func setSex(named word: String?) async throws { try await set(.sex, word) }
    /// Sets when a habit day begins, `HH:MM` from 00:00 to 12:00.
    public func setDayStart(_ text: String) async throws { try await set(.dayStart, text) }
    /// Names this installation in the sync folder (1–40 characters), or with nil goes back to the host's name.
    public func setDeviceName(_ text: String?) async throws { try await set(.deviceName, text) }
    /// Sets the sync folder to an existing folder (stored as an absolute path), or nil for off.
    public func setSyncFolder(_ path: String?) async throws { try await set(.syncFolder, path) }
}
