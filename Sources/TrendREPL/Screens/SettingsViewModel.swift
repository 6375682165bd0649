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

    static let keys = ["unit", "height", "day-starts-at", "sync-folder"]

    func show(style: TerminalStyle) async throws -> CommandOutput {
        try await settingsFeature.load()
        let current = settingsFeature.current
        let goal = current.goalKilograms.map { current.unit.format($0) } ?? "none"
        var lines = [
            "unit            \(current.unit.rawValue)",
            "goal            \(goal)",
            "progress range  \(current.progressRange)",
            "height          \(current.heightMetres.map(Self.height) ?? "none ('set height 180 cm' for the BMI)")",
            "day starts at   \(DayStart.text(current.dayStartMinutes))" + (current.dayStartMinutes == 0 ? "" : " (habit marks before it count for the day before)"),
            "sync folder     \(current.syncFolder.map(TerminalText.visible) ?? "off")",
            "data directory  \(TerminalText.visible(settingsFeature.dataDirectory.path))",
        ]
        lines += settingsFeature.warnings.map { style.paint("warning: ", .magenta) + $0 }
        return CommandOutput(text: lines.joined(separator: "\n"), json: Self.json(current, dataDirectory: settingsFeature.dataDirectory))
    }

    func set(_ arguments: [String], style: TerminalStyle) async throws -> CommandOutput {
        guard arguments.count >= 2 else {
            throw CommandFailure(.usage, "set: needs a key and a value, e.g. 'set unit lb'. Keys: \(Self.keys.joined(separator: ", "))")
        }
        let key = arguments[0].lowercased()
        let value = arguments.dropFirst().joined(separator: " ")
        let before = settingsFeature.current
        switch key {
        case "unit", "units":
            try await settingsFeature.setUnit(named: value)
        case "height":
            try await settingsFeature.setHeight(["off", "none", "clear"].contains(value.lowercased()) ? nil : value)
        case "day-starts-at", "day-start", "start-of-day":
            try await settingsFeature.setDayStart(["midnight", "off"].contains(value.lowercased()) ? "00:00" : value)
        case "sync-folder", "sync", "syncfolder":
            try await settingsFeature.setSyncFolder(value.lowercased() == "off" ? nil : value)
        default:
            throw CommandFailure(.usage, "set: unknown setting '\(ReplSession.printable(arguments[0]))'; keys are \(Self.keys.joined(separator: ", "))")
        }
        // One line: what the setting is now ('settings' shows them all); JSON keeps the whole document.
        let current = settingsFeature.current
        let line: String = switch key {
        case "unit", "units": "Unit: \(current.unit.rawValue)."
        case "height": "Height: " + (current.heightMetres.map(Self.height) ?? "none") + "."
        case "day-starts-at", "day-start", "start-of-day":
            "Days start at \(DayStart.text(current.dayStartMinutes))"
                + (current.dayStartMinutes == 0 ? "." : "; habit marks before it count for the day before.")
        default: "Sync folder: \(current.syncFolder.map(TerminalText.visible) ?? "off")."
        }
        return CommandOutput(text: line + (current == before ? " (It already was; nothing changed.)" : ""),
                             json: Self.json(current, dataDirectory: settingsFeature.dataDirectory))
    }

    /// `1.80 m`.
    static func height(_ metres: Double) -> String {
        WeightUnit.fixed(metres, decimals: 2) + " m"
    }

    static func json(_ settings: UserSettings, dataDirectory: URL) -> JSON {
        .object([
            ("unit", .string(settings.unit.rawValue)),
            ("goalKilograms", .optional(settings.goalKilograms)),
            ("progressRange", .string(settings.progressRange)),
            ("syncFolder", .optional(settings.syncFolder)),
            ("heightMetres", .optional(settings.heightMetres)),
            ("dayStartsAt", .string(DayStart.text(settings.dayStartMinutes))),
            ("dataDirectory", .string(dataDirectory.path)),
        ])
    }
}
