import AppCore
import CommandLanguage

/// An invite's code, and a member of the sync folder by name.
extension ArgumentKey where Value == String {
    static var inviteCode: Self { .init("CODE") }
    static var syncMember: Self { .init("NAME") }
}

/// The words after `sync` (none: the devices and what came in).
enum SyncSubcommand: String, CaseIterable {
    case now, invite, join, devices, remove, `private`
}

/// The words of the sync screen.
extension SyncViewModel {
    static var commands: [CommandSpec] {
        [
            CommandSpec(name: "sync", syntax: .optional(.subcommands(SyncSubcommand.self, aliases: ["members": .devices]) { subcommand in
                            switch subcommand {
                            case .now, .invite, .devices, .private: .none
                            case .join: .value(.inviteCode, .words([]), .phrase)
                            case .remove: .value(.syncMember, .words([]), .phrase)
                            }
                        }),
                        summary: "the devices sharing the sync folder, what came in, any problem; 'sync now' syncs at once; "
                            + "'sync invite' prints a code another device joins with ('sync join CODE'); 'sync devices', 'sync remove NAME'; "
                            + "'sync private' seals a folder an older Trend wrote",
                        examples: ["sync", "sync now", "sync invite", "sync join trend-abcd-efgh-…", "sync devices", "sync remove Old laptop",
                                   "sync private"]) { context, arguments in
                let model = SyncViewModel(syncFeature: context.app.syncFeature, timeZone: context.app.changeHistoryFeature.calendar.timeZone)
                switch arguments.subcommand(as: SyncSubcommand.self) {
                case .now: return try await model.syncNow(style: context.style)
                case .invite: return try await model.invite(style: context.style)
                case .join: return try await model.join(try arguments.required(.inviteCode), style: context.style)
                case .devices: return try await model.devices(style: context.style)
                case .remove: return try await model.remove(try arguments.required(.syncMember), style: context.style)
                case .private: return try await model.makePrivate(style: context.style)
                case nil: return try await model.show(style: context.style)
                }
            },
        ]
    }
}
