import Foundation
import Observation
import Vocabulary

/// Why a setting was refused.
public enum SettingsError: Error, Equatable, CustomStringConvertible, Sendable {
    case unknownUnit(String)
    case syncFolderMissing(String)
    case invalidDeviceName(String)
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

    public func setUnit(named word: String) async throws {
        guard let unit = WeightUnit(word: word) else { throw SettingsError.unknownUnit(word) }
        try await settings.apply(.unit(unit), at: currentDate())
    }

    /// Sets the height (for the BMI) from the words a person types, or clears it with nil.
    public func setHeight(_ text: String?) async throws {
        try await settings.apply(.heightMetres(try text.map { text throws(SettingsError) in try HeightInput.parse(text) }), at: currentDate())
    }

    /// Sets the unit tape measures are shown in, or with nil goes back to the one usual with the weight's unit.
    public func setMeasureUnit(named word: String?) async throws {
        guard let word else {
            try await settings.apply(.measureUnit(nil), at: currentDate())
            return
        }
        guard let unit = LengthUnit(word: word) else { throw SettingsError.unknownMeasureUnit(String(word.prefix(40))) }
        try await settings.apply(.measureUnit(unit), at: currentDate())
    }

    /// Sets the sex the US-Navy body-fat estimate uses, or with nil makes no estimate.
    public func setSex(named word: String?) async throws {
        guard let word else {
            try await settings.apply(.sex(nil), at: currentDate())
            return
        }
        guard let sex = Sex(word: word) else { throw SettingsError.unknownSex(String(word.prefix(40))) }
        try await settings.apply(.sex(sex), at: currentDate())
    }

    /// Sets when a habit day begins, `HH:MM` from 00:00 to 12:00.
    public func setDayStart(_ text: String) async throws {
        try await settings.apply(.dayStartMinutes(try DayStart.parse(text)), at: currentDate())
    }

    /// Names this installation in the sync folder (1–40 characters), or with nil goes back to the host's name.
    public func setDeviceName(_ text: String?) async throws {
        guard let text else {
            try await settings.apply(.deviceName(nil), at: currentDate())
            return
        }
        guard let name = DeviceName.checked(text) else { throw SettingsError.invalidDeviceName(String(text.prefix(60))) }
        try await settings.apply(.deviceName(name), at: currentDate())
    }

    /// Sets the sync folder to an existing folder (stored as an absolute path), or nil for off.
    public func setSyncFolder(_ path: String?) async throws {
        guard let path else {
            try await settings.apply(.syncFolder(nil), at: currentDate())
            return
        }
        let url = URL(fileURLWithPath: HomePath.expanding(path), relativeTo: nil).standardizedFileURL
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw SettingsError.syncFolderMissing(url.path)
        }
        try await settings.apply(.syncFolder(url.path), at: currentDate())
    }
}
