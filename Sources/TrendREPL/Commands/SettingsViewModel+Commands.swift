import AppCore
import Foundation
import Settings
import Vocabulary

/// The words of the settings screen: what each command takes, its help and how it completes.
extension SettingsViewModel {
    static var commands: [CommandSpec] {
        [
            CommandSpec(name: "settings", aliases: ["config"], usage: "settings",
                        summary: "show the unit, goal, progress range, sync folder and data directory") { context, arguments in
                guard arguments.isEmpty else { throw CommandFailure(.usage, "settings: takes no arguments; to change one, use 'set KEY VALUE'") }
                return try await SettingsViewModel(settingsFeature: context.app.settingsFeature).show(style: context.style)
            },
            CommandSpec(name: "set", usage: "set KEY VALUE",
                        summary: "change a setting: unit kg|lb|st, height 180 cm|5ft 11in|off, day-starts-at HH:MM, sync-folder PATH|off",
                        examples: ["set unit lb", "set height 180 cm", "set height 5ft 11in", "set day-starts-at 04:00", "set sync-folder ~/Sync/trend",
                                   "set sync-folder off"],
                        completion: .subcommands(["unit": [.words(WeightUnit.allCases.map(\.rawValue))],
                                                  "height": [.words(["off"])], "day-starts-at": [.words(["00:00", "03:00", "04:00"])], "sync-folder": [.file]])) { context, arguments in
                try await SettingsViewModel(settingsFeature: context.app.settingsFeature).set(arguments, style: context.style)
            },
        ]
    }
}
