import AppCore
import Backup
import Foundation

/// The words of the backup screen: what each command takes, its help and how it completes.
extension BackupViewModel {
    static var commands: [CommandSpec] {
        [
            CommandSpec(name: "backup", aliases: ["backups"], syntax: .optional(.words("status", "now", "list")),
                        summary: "backup status, a snapshot now, or the snapshots you can restore",
                        examples: ["backup", "backup now", "backup list"]) { context, arguments in
                let viewModel = BackupViewModel(backupFeature: context.app.backupFeature)
                switch arguments.map({ $0.lowercased() }) {
                case [], ["status"]: return try await viewModel.status()
                case ["now"]: return try await viewModel.now()
                case ["list"], ["ls"]: return try await viewModel.list(style: context.style)
                default: throw CommandFailure(.usage, "backup: use 'backup', 'backup now' or 'backup list'")
                }
            },
            CommandSpec(name: "restore", syntax: .sequence([
                            .choice([.word("latest"), .word("previous"), .sequence([.word("weekly"), .value("YYYY-Www", .vocabulary("weekly"))]),
                                     .sequence([.word("before-restore"), .value("NAME", .vocabulary("before-restore"))]),
                                     .sequence([.word("sync"), .value("ID")]), .value("FILE", .file)]),
                            .optional(.word("merge")), .optional(.word("skip-invalid")),
                        ]),
                        summary: "replace everything with a snapshot (a copy of what is there is kept first); 'merge' adds instead",
                        examples: ["restore latest", "restore weekly 2026-W48", "restore before-restore 2026-11-29T13-40-05Z",
                                   "restore ~/old/Latest.json", "restore sync 1a2b3c4d merge", "restore previous skip-invalid"]) { context, arguments in
                try await BackupViewModel(backupFeature: context.app.backupFeature).restore(arguments, context: context)
            },
            CommandSpec(name: "delete-all-data",
                        summary: "delete every weigh-in, habit and setting but this device's sync folder (a snapshot is kept first)",
                        examples: ["delete-all-data"]) { context, arguments in
                return try await BackupViewModel(backupFeature: context.app.backupFeature).deleteAll(context: context)
            },
        ]
    }
}
