import AppCore
import Foundation
import Settings
import Vocabulary

/// The words of the settings screen: what each command takes, its help and how it completes.
extension SettingsViewModel {
    static var commands: [CommandSpec] {
        [
            CommandSpec(name: "settings", aliases: ["config"],
                        summary: "show the unit, goal, progress range, sync folder, device name and data directory",
                        examples: ["settings"]) { context, arguments in
                try await SettingsViewModel(settingsFeature: context.app.settingsFeature).show(style: context.style)
            },
            CommandSpec(name: "set", syntax: .subcommands(key: "KEY", [
                            ("unit", .value("VALUE", .words(WeightUnit.allCases.map(\.rawValue)), .phrase)),
                            ("measure-unit", .value("VALUE", .words(LengthUnit.allCases.map(\.rawValue) + ["off"]), .phrase)),
                            ("height", .value("VALUE", .words(["off"]), .phrase)), ("sex", .value("VALUE", .words(["female", "male", "off"]), .phrase)),
                            ("day-starts-at", .value("VALUE", .words(["00:00", "03:00", "04:00"]), .phrase)), ("sync-folder", .value("VALUE", .file, .phrase)),
                            ("device-name", .value("VALUE", .words([]), .phrase)),
                        ], aliases: ["units": "unit", "measure-units": "measure-unit", "tape-unit": "measure-unit", "length-unit": "measure-unit",
                                     "day-start": "day-starts-at", "start-of-day": "day-starts-at", "sync": "sync-folder", "syncfolder": "sync-folder",
                                     "device": "device-name", "name": "device-name"]),
                        summary: "change a setting: unit kg|lb|st, measure-unit cm|in, height 180 cm|5ft 11in|off, sex female|male|off, "
                            + "day-starts-at HH:MM, sync-folder PATH|off, device-name NAME|off",
                        examples: ["set unit lb", "set measure-unit in", "set sex female", "set height 180 cm", "set height 5ft 11in", "set day-starts-at 04:00", "set sync-folder ~/Sync/trend",
                                   "set sync-folder off", "set device-name laptop"]) { context, arguments in
                try await SettingsViewModel(settingsFeature: context.app.settingsFeature).set(try arguments.required("KEY"), to: try arguments.required("VALUE"), style: context.style)
            },
        ]
    }
}
