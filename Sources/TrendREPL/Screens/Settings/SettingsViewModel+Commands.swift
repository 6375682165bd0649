import CommandLanguage
import AppCore
import Foundation
import Settings

/// The words of the settings screen: what each command takes, its help and how it completes.
extension SettingsViewModel {
    static var commands: [CommandSpec] {
        [
            CommandSpec(name: "settings", aliases: ["config"],
                        summary: "show the unit, goal, progress range, sync folder, device name and data directory",
                        examples: ["settings"]) { context, arguments in
                try await SettingsViewModel(settingsFeature: context.app.settingsFeature).show(style: context.style)
            },
            // Every setting `set` takes, from its one description (`Setting.all`).
            CommandSpec(name: "set", syntax: .subcommands(key: ArgumentKey<String>.setting.placeholder, Setting.all.compactMap { setting in
                            setting.word.map { ($0, .value(.settingValue, $0 == Setting.syncFolder.word ? .file : .words(setting.choices), .phrase)) }
                        }, aliases: Dictionary(Setting.all.flatMap { setting in setting.aliases.map { ($0, setting.word ?? "") } }, uniquingKeysWith: { first, _ in first })),
                        // The day start says what it leaves on the day to come: the habits' marks, read with the words.
                        // Moving the day's start moves the habits' days: a word of that setting reads them.
                        readsWhenTyped: Dictionary(uniqueKeysWithValues: Setting.dayStart.words.map { ($0, .habits) }),
                        summary: "change a setting: " + Setting.all.compactMap { setting in setting.word.map { "\($0) \(setting.forms)" } }.joined(separator: ", "),
                        examples: ["set unit lb", "set measure-unit in", "set sex female", "set height 180 cm", "set height 5ft 11in", "set day-starts-at 04:00", "set sync-folder ~/Sync/trend",
                                   "set sync-folder off", "set device-name laptop"]) { context, arguments in
                guard let setting = Setting.named(try arguments.required(.setting)) else { throw CommandFailure(.usage, "set: needs a setting") }
                let output = try await SettingsViewModel(settingsFeature: context.app.settingsFeature)
                    .set(setting, to: try arguments.required(.settingValue), style: context.style)
                if setting == .syncFolder, context.app.settingsFeature.current.syncFolder != nil {
                    // What the folder is to this device: made private, private and joined, private and not joined, or plain.
                    return SettingsViewModel.withFolderState(output, try await context.app.syncFeature.folderWasSet())
                }
                guard setting == .dayStart else { return output }
                // A later day start can leave marks made after midnight on the day to come: said, with how to move them.
                return SettingsViewModel.withMarksAhead(output, context.app.habitsFeature.marksAhead())
            },
        ]
    }
}

/// `set KEY VALUE`'s two words, by key.
extension ArgumentKey where Value == String {
    static var setting: Self { .init("KEY") }
    static var settingValue: Self { .init("VALUE") }
}
