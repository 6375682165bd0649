import CommandLanguage
import AppCore
import Foundation
import Sync
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

    /// The settings as one value: the JSON document, and the listing `settings` shows (or, after `set`, its one line),
    /// each setting as its description (`Setting`) gives it.
    struct Answer: CommandAnswer {
        let settings: UserSettings
        let dataDirectory: String
        /// The text only: the settings' warnings, and the one line `set` says instead of the listing.
        let warnings: [String]
        var line: String?

        init(_ settings: UserSettings, dataDirectory: URL, warnings: [String] = [], line: String? = nil) {
            (self.settings, self.dataDirectory, self.warnings, self.line) = (settings, dataDirectory.path, warnings, line)
        }

        func encode(to encoder: any Encoder) throws {
            let members = Setting.answerOrder.map { setting -> (String, JSON) in
                switch setting.answered(settings) {
                case let .text(text)?: (setting.answerKey, .string(text))
                case let .number(number)?: (setting.answerKey, .number(number))
                case nil: (setting.answerKey, .null)
                }
            }
            try JSON.object(members + [("dataDirectory", .string(dataDirectory))]).encode(to: encoder)
        }

        func text(style: TerminalStyle) -> String {
            if let line { return line }
            // A path or a name from a person may hold control characters: shown, never sent.
            let lines = Setting.all.map { $0.label.rightPadded(to: 16) + TerminalText.visible($0.listed(settings)) }
                + ["data directory".rightPadded(to: 16) + TerminalText.visible(dataDirectory)]
            return (lines + warnings.map { style.paint("warning: ", .magenta) + $0 }).joined(separator: "\n")
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

    /// `set sync-folder`'s line, and what the folder is to this device (DESIGN §11).
    static func withFolderState(_ output: CommandOutput, _ state: SyncFolderState) -> CommandOutput {
        let said = switch state {
        case .madePrivate:
            "The folder is private: what Trend writes there is sealed, and only devices that join with a code read it. "
                + "To add a device: 'sync invite' here, then 'sync join CODE' on it."
        case .member: "This device is a member of the private folder."
        case .privateNotMember:
            "The folder is private, and this device is not a member yet: run 'sync invite' on a device that syncs there, then "
                + "'sync join CODE' here. Until then nothing is read from it or written to it."
        case .plain:
            "The folder was written by an older Trend, in plain: it syncs as before. 'sync private' seals it, and prints the code the others join with."
        }
        var output = output
        output.text += "\n" + said
        return output
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
