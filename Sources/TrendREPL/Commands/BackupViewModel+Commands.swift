import AppCore
import Backup
import Foundation

/// The words of the backup screen: what each command takes, its help and how it completes.
extension BackupViewModel {
    static var commands: [CommandSpec] {
        [
            CommandSpec(name: "backup", aliases: ["backups"], usage: "backup [status|now|list]",
                        summary: "backup status, a snapshot now, or the snapshots you can restore",
                        examples: ["backup", "backup now", "backup list"],
                        completion: .positional([.words(["status", "now", "list"])])) { context, arguments in
                let viewModel = BackupViewModel(backupFeature: context.app.backupFeature)
                switch arguments.map({ $0.lowercased() }) {
                case [], ["status"]: return try await viewModel.status()
                case ["now"]: return try await viewModel.now()
                case ["list"], ["ls"]: return try await viewModel.list(style: context.style)
                default: throw CommandFailure(.usage, "backup: use 'backup', 'backup now' or 'backup list'")
                }
            },
            CommandSpec(name: "restore", usage: "restore latest|previous|weekly YYYY-Www|before-restore NAME|sync ID|FILE [merge] [skip-invalid]",
                        summary: "replace everything with a snapshot (a copy of what is there is kept first); 'merge' adds instead",
                        examples: ["restore latest", "restore weekly 2026-W48", "restore before-restore 2026-11-29T13-40-05Z",
                                   "restore ~/old/Latest.json", "restore sync 1a2b3c4d merge", "restore previous skip-invalid"],
                        completion: .subcommands(["latest": [.words(["merge"])], "previous": [.words(["merge"])],
                                                  "weekly": [.vocabulary("weekly"), .words(["merge"])],
                                                  "before-restore": [.vocabulary("before-restore"), .words(["merge"])],
                                                  "sync": []])) { context, arguments in
                try await BackupViewModel(backupFeature: context.app.backupFeature).restore(arguments, context: context)
            },
            CommandSpec(name: "delete-all-data", usage: "delete-all-data",
                        summary: "delete every weigh-in, habit and setting but this device's sync folder (a snapshot is kept first)") { context, arguments in
                guard arguments.isEmpty else { throw CommandFailure(.usage, "delete-all-data: takes no arguments") }
                return try await BackupViewModel(backupFeature: context.app.backupFeature).deleteAll(context: context)
            },
        ]
    }
}
