import AppCore
import Foundation
import Settings
import Vocabulary

/// The `settings` screen and `set KEY VALUE`.
@MainActor
struct SettingsViewModel {
    private let settingsFeature: SettingsFeature

    init(settingsFeature: SettingsFeature = AppModel.shared.settingsFeature) {
        self.settingsFeature = settingsFeature
    }

    static let keys = ["unit", "measure-unit", "height", "sex", "day-starts-at", "sync-folder", "device-name"]

    func show(style: TerminalStyle) async throws -> CommandOutput {
        return CommandOutput(Answer(settingsFeature.current, dataDirectory: settingsFeature.dataDirectory, warnings: settingsFeature.warnings),
                             style: style)
    }

    /// The settings as one value: the JSON document, and the listing `settings` shows (or, after `set`, its one line).
    struct Answer: CommandAnswer {
        let unit: String
        let goalKilograms: Double?
        let progressRange: String
        let syncFolder: String?
        let heightMetres: Double?
        let dayStartsAt: String
        /// This installation's name in the sync folder, when one was set (`set device-name`).
        let deviceName: String?
        /// The unit tape measures are shown in, and whether it was chosen (else it follows the weight's unit).
        let measureUnit: String
        let measureUnitSet: Bool
        /// For the US-Navy body-fat estimate; nil when not set.
        let sex: String?
        let dataDirectory: String
        /// The text only: the settings as read, their warnings, and the one line `set` says instead of the listing.
        let settings: UserSettings
        let warnings: [String]
        var line: String?

        enum CodingKeys: String, CodingKey {
            case unit, goalKilograms, progressRange, syncFolder, heightMetres, dayStartsAt, deviceName, measureUnit, sex, dataDirectory
        }

        init(_ settings: UserSettings, dataDirectory: URL, warnings: [String] = [], line: String? = nil) {
            unit = settings.unit.rawValue
            goalKilograms = settings.goalKilograms
            progressRange = settings.progressRange
            syncFolder = settings.syncFolder
            heightMetres = settings.heightMetres
            dayStartsAt = DayStart.text(settings.dayStartMinutes)
            deviceName = settings.deviceName
            measureUnit = settings.tapeUnit.rawValue
            measureUnitSet = settings.measureUnit != nil
            sex = settings.sex?.rawValue
            self.dataDirectory = dataDirectory.path
            self.settings = settings
            self.warnings = warnings
            self.line = line
        }

        func text(style: TerminalStyle) -> String {
            if let line { return line }
            let goal = goalKilograms.map { settings.unit.format($0) } ?? "none"
            var lines = [
                "unit            \(unit)",
                "goal            \(goal)",
                "progress range  \(progressRange)",
                "measure unit    \(measureUnit)" + (measureUnitSet ? "" : " (with the weight's unit; 'set measure-unit cm|in' to choose)"),
                "height          \(heightMetres.map(settings.tapeUnit.height) ?? "none ('set height 180 cm' for the BMI)")",
                "sex             \(sex ?? "not set (only the US-Navy body-fat estimate uses it: 'set sex female|male')")",
                "day starts at   \(dayStartsAt)" + (settings.dayStartMinutes == 0 ? "" : " (habit marks before it count for the day before)"),
                "sync folder     \(syncFolder.map(TerminalText.visible) ?? "off")",
                "device name     \(deviceName.map(TerminalText.visible) ?? "the host's name")",
                "data directory  \(TerminalText.visible(dataDirectory))",
            ]
            lines += warnings.map { style.paint("warning: ", .magenta) + $0 }
            return lines.joined(separator: "\n")
        }
    }

    /// `set KEY VALUE`: `key` in its declared spelling (`unit`, not `units`).
    func set(_ key: String, to value: String, style: TerminalStyle) async throws -> CommandOutput {
        let before = settingsFeature.current
        switch key {
        case "unit":
            try await settingsFeature.setUnit(named: value)
        case "measure-unit":
            try await settingsFeature.setMeasureUnit(named: ["off", "auto", "default"].contains(value.lowercased()) ? nil : value)
        case "sex":
            try await settingsFeature.setSex(named: ["off", "none", "clear"].contains(value.lowercased()) ? nil : value)
        case "height":
            try await settingsFeature.setHeight(["off", "none", "clear"].contains(value.lowercased()) ? nil : value)
        case "day-starts-at":
            try await settingsFeature.setDayStart(["midnight", "off"].contains(value.lowercased()) ? "00:00" : value)
        case "sync-folder":
            try await settingsFeature.setSyncFolder(value.lowercased() == "off" ? nil : value)
        case "device-name":
            try await settingsFeature.setDeviceName(value.lowercased() == "off" ? nil : value)
        default:
            throw CommandFailure(.usage, "set: unknown setting '\(ReplSession.printable(key))'; keys are \(Self.keys.joined(separator: ", "))")
        }
        // One line: what the setting is now ('settings' shows them all); JSON keeps the whole document.
        let current = settingsFeature.current
        let line: String = switch key {
        case "unit":
            "Unit: \(current.unit.rawValue)." + (current.measureUnit == nil && current.tapeUnit != before.tapeUnit
                ? " Tape measures follow it, in \(current.tapeUnit.name) ('set measure-unit \(before.tapeUnit.rawValue)' keeps them as they were)." : "")
        case "measure-unit":
            "Tape measures: \(current.tapeUnit.rawValue)" + (current.measureUnit == nil ? ", as usual with \(current.unit.rawValue)." : ".")
        case "sex": current.sex.map { "Sex: \($0.rawValue); with a height, neck and waist (and hips) measured, 'today' shows the US-Navy body-fat estimate." }
            ?? "Sex: not set; no body-fat estimate is made."
        case "height": "Height: " + (current.heightMetres.map(current.tapeUnit.height) ?? "none") + "."
        case "day-starts-at":
            "Days start at \(DayStart.text(current.dayStartMinutes))"
                + (current.dayStartMinutes == 0 ? "." : "; habit marks before it count for the day before.")
        case "device-name": "Device name: \(current.deviceName.map(TerminalText.visible) ?? "the host's name")."
        default: "Sync folder: \(current.syncFolder.map(TerminalText.visible) ?? "off")."
        }
        return CommandOutput(Answer(current, dataDirectory: settingsFeature.dataDirectory,
                                    line: line + (current == before ? " (It already was; nothing changed.)" : "")), style: style)
    }

}
