import CommandLanguage
import Backup
import Foundation
import Sync
import Vocabulary

/// The words of the backup screen: what each command takes, its help and how it completes.
extension BackupViewModel {
    static var commands: [CommandSpec] {
        [
            CommandSpec(name: "backup", aliases: ["backups"], syntax: .optional(.value(.backupAction, .words(["status", "now", "list"]), .oneOf(["status", "now", "list"], also: ["ls"]))),
                        summary: "backup status, a snapshot now, or the snapshots you can restore",
                        examples: ["backup", "backup now", "backup list"]) { context, arguments in
                let viewModel = BackupViewModel(backupFeature: context.app.backupFeature)
                switch arguments[.backupAction] {
                case "now": return try await viewModel.now()
                case "list", "ls": return try await viewModel.list(style: context.style)
                default: return try await viewModel.status()
                }
            },
            CommandSpec(name: "restore", syntax: .sequence([
                            .choice([.word("latest"), .word("previous"), .sequence([.word("weekly"), .value(.weeklyBackup, .vocabulary("weekly"))]),
                                     .sequence([.word("before-restore"), .value(.beforeRestoreBackup, .vocabulary("before-restore"))]),
                                     .sequence([.word("sync"), .value(.installation)]), .value(.file, .file, .snapshotFile)]),
                            .anyOrder([.word("merge"), .word("skip-invalid")]),
                        ]),
                        summary: "replace everything with a snapshot (a copy of what is there is kept first); 'merge' adds instead",
                        examples: ["restore latest", "restore weekly 2026-W48", "restore before-restore 2026-11-29T13-40-05Z",
                                   "restore ~/old/Latest.json", "restore sync 1a2b3c4d merge", "restore previous skip-invalid"]) { context, arguments in
                try await BackupViewModel(backupFeature: context.app.backupFeature)
                    .restore(try RestoreSource(arguments), merge: arguments.has("merge"), skipInvalid: arguments.has("skip-invalid"), context: context)
            },
            CommandSpec(name: "delete-all-data", syntax: .optional(.word("everywhere")),
                        summary: "delete every weigh-in, habit and setting but this device's sync folder (a snapshot is kept first); "
                            + "a device that syncs leaves the sync, unless 'everywhere' deletes on every device",
                        examples: ["delete-all-data", "delete-all-data everywhere"]) { context, arguments in
                return try await BackupViewModel(backupFeature: context.app.backupFeature)
                    .deleteAll(everywhere: arguments.has("everywhere"), devices: try await syncedDevices(context.app.syncFeature), context: context)
            },
        ]
    }
}

extension RestoreSource {
    /// The snapshot a `restore` names, as its declaration read it.
    init(_ arguments: ParsedArguments) throws {
        if arguments.has("latest") {
            self = .latest
        } else if arguments.has("previous") {
            self = .previous
        } else if arguments.has("weekly") {
            self = .weekly(try arguments.required(.weeklyBackup))
        } else if arguments.has("before-restore") {
            self = .beforeRestore(try arguments.required(.beforeRestoreBackup))
        } else if arguments.has("sync") {
            self = .sync(try arguments.required(.installation))
        } else {
            self = .file(try arguments.required(.file))
        }
    }
}

extension ArgumentGrammar {
    /// A snapshot file: a path (with a `/`) or a name ending in `.json`, `~` read as home.
    static let snapshotFile = ArgumentGrammar(noun: "a snapshot") { words, _, _ in
        guard let word = words.first, word.contains("/") || word.lowercased().hasSuffix(".json") else { return [] }
        return [ArgumentReading(.file(URL(fileURLWithPath: HomePath.expanding(word))), consumed: 1)]
    }
}

/// What the backup commands read, by key: `backup status|now|list`, and the snapshot a `restore` names
/// (`weekly YYYY-Www`, `before-restore NAME`, `sync ID`).
extension ArgumentKey where Value == String {
    static var backupAction: Self { .init("status|now|list") }
    static var weeklyBackup: Self { .init("YYYY-Www") }
    static var beforeRestoreBackup: Self { .init("NAME") }
    static var installation: Self { .init("ID") }
}

/// The other devices by name when this one syncs (the question of `delete-all-data` names them), nil when it does not.
@MainActor
private func syncedDevices(_ syncFeature: SyncFeature) async throws -> [String]? {
    let status = try await syncFeature.status()
    guard status.folder != nil else { return nil }
    return status.devices.map { $0.name.isEmpty ? String($0.installation.prefix(8)) : $0.name }
}
