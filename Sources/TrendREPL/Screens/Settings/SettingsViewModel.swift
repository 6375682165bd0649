import CommandLanguage
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

    /// `set KEY VALUE`, as the setting's description reads the value; one line says what it is now.
    func set(_ setting: Setting, to value: String, style: TerminalStyle) async throws -> CommandOutput {
        let before = settingsFeature.current
        try await settingsFeature.set(setting, to: value)
        let current = settingsFeature.current
        // A path or a name from a person may hold control characters: shown, never sent.
        let line = TerminalText.visible(setting.confirmed(current, before))
        return CommandOutput(Answer(current, dataDirectory: settingsFeature.dataDirectory,
                                    line: line + (current == before ? " (It already was; nothing changed.)" : "")), style: style)
    }

    /// `set day-starts-at`'s line, and the marks a later day start leaves on the day to come, each with its undo.
    static func withMarksAhead(_ output: CommandOutput, _ ahead: [(name: String, day: Int)]) -> CommandOutput {
        guard !ahead.isEmpty else { return output }
        var output = output
        let named = ahead.map { "\($0.name) on \(DayNumber.spoken($0.day))" }.joined(separator: ", ")
        let first = ahead[0]
        output.text += "\nMarks made after midnight now fall on the day to come: \(named). To put one on today, clear it and mark it again: "
            + "'habit undo \(CommandTokenizer.quoted(first.name)) \(DayNumber.string(first.day))', then 'habit done \(CommandTokenizer.quoted(first.name))'."
        return output
    }
}
