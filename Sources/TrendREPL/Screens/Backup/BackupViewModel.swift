import CommandLanguage
import AppCore
import Backup
import Foundation
import Sync
import Settings
import Vocabulary

/// The backup screens: `backup [status|now|list]`, `restore …`, `delete-all-data`.
@MainActor
struct BackupViewModel {
    private let backupFeature: BackupFeature

    init(backupFeature: BackupFeature = AppModel.shared.backupFeature) {
        self.backupFeature = backupFeature
    }

    /// Times in the person's zone, the injected calendar's.
    private var dates: DateText { DateText(timeZone: backupFeature.timeZone) }

    func status() async throws -> CommandOutput {
        CommandOutput(StatusAnswer(status: try await backupFeature.status(), syncWarning: backupFeature.syncWarning, dates: dates), style: .plain)
    }

    /// `backup status`: where the snapshots are, when the last was made, the sync folder, what went wrong.
    struct StatusAnswer: CommandAnswer {
        let status: BackupStatus
        let syncWarning: String?
        let dates: DateText

        func encode(to encoder: any Encoder) throws {
            try JSON.object([
                ("folder", .string(status.folder.path)), ("lastBackupAt", .optional(status.lastBackupAt.map(dates.instant))),
                ("nextAutomaticAfter", .optional(status.nextAutomaticAfter.map(dates.instant))), ("syncFolder", .optional(status.syncFolder)),
                ("syncFolderWritable", status.syncFolderWritable.map(JSON.bool) ?? .null), ("syncWarning", .optional(syncWarning)),
                ("lastFailure", status.lastFailure.map { .object([("at", .string(dates.instant($0.at))), ("reason", .string($0.reason))]) } ?? .null),
                ("overdue", .bool(status.overdue)),
            ]).encode(to: encoder)
        }

        func text(style: TerminalStyle) -> String {
            var lines = ["Backups in \(TerminalText.visible(status.folder.path))"]
            if let last = status.lastBackupAt {
                lines.append("  last snapshot   \(dates.local(last))")
                lines.append("  next automatic  after \(dates.local(status.nextAutomaticAfter ?? last)), once something changes")
            } else {
                lines.append("  last snapshot   none yet ('backup now' makes one)")
            }
            switch (status.syncFolder, status.syncFolderWritable) {
            case let (folder?, true?): lines.append("  sync folder     \(folder) (mirroring)")
            case let (folder?, _): lines.append("  sync folder     \(folder) (cannot be written: check it exists and is yours)")
            default: lines.append("  sync folder     off ('set sync-folder PATH' to mirror snapshots)")
            }
            if let failure = status.lastFailure {
                lines.append("  last failure    \(dates.local(failure.at)): \(TerminalText.printable(failure.reason, limit: 200))")
            }
            if status.overdue { lines.append("  overdue         the next automatic snapshot is late; 'backup now' tries again") }
            if let syncWarning { lines.append("  warning: \(syncWarning)") }
            return lines.joined(separator: "\n")
        }
    }

    func now() async throws -> CommandOutput {
        let listing = try await backupFeature.backupNow()
        return CommandOutput(Written(backup: ListingValue(listing: listing, dates: dates), syncWarning: backupFeature.syncWarning), style: .plain)
    }

    func list(style: TerminalStyle) async throws -> CommandOutput {
        let (listings, unreadable) = try await backupFeature.listings()
        return CommandOutput(Listed(backups: listings.map { ListingValue(listing: $0, dates: dates) }, unreadable: unreadable), style: style)
    }

    /// A snapshot as scripts read it.
    struct ListingValue: Encodable {
        let listing: BackupListing
        let dates: DateText

        func encode(to encoder: any Encoder) throws {
            try JSON.object([("name", .string(listing.name)), ("kind", .string(listing.kind.rawValue)), ("createdAt", .string(dates.instant(listing.createdAt))),
                             ("installationID", .string(listing.installationID)), ("entries", .integer(listing.entries)), ("habits", .integer(listing.habits))])
                .encode(to: encoder)
        }
    }

    /// `backup now`: the snapshot written.
    struct Written: CommandAnswer {
        let backup: ListingValue
        let syncWarning: String?

        func text(style: TerminalStyle) -> String {
            "Snapshot written: \(counted(backup.listing.entries, "weigh-in")), \(counted(backup.listing.habits, "habit")) (\(TerminalText.visible(backup.listing.url.path)))."
                + (syncWarning.map { "\nwarning: \($0)" } ?? "")
        }
    }

    /// `backup list`: the snapshots a restore can use, and the files that could not be read.
    struct Listed: CommandAnswer {
        let backups: [ListingValue]
        let unreadable: [String]

        func text(style: TerminalStyle) -> String {
            var lines: [String] = []
            if backups.isEmpty { lines.append("No snapshots yet. 'backup now' makes one.") }
            let width = backups.map { TerminalText.columns(TerminalText.visible($0.listing.name)) }.max() ?? 0
            for value in backups {
                let listing = value.listing
                lines.append("  \(TerminalText.visible(listing.name).rightPadded(to: width))  \(value.dates.local(listing.createdAt))  "
                             + "\(counted(listing.entries, "weigh-in")), \(counted(listing.habits, "habit"))"
                             + (listing.kind == .sync ? style.dim("  installation \(TerminalText.visible(String(listing.installationID.prefix(8))))") : ""))
            }
            lines += unreadable.map { style.paint("  \($0): cannot be read (damaged or not a snapshot)", .magenta) }
            return lines.joined(separator: "\n")
        }
    }

    func restore(_ source: RestoreSource, merge: Bool, skipInvalid: Bool, context: CommandContext) async throws -> CommandOutput {
        // A large snapshot takes seconds to check and write: say what is happening on a terminal.
        let checking = ProgressBar(enabled: context.isInteractive, label: "Checking the snapshot")
        checking.update(0.3)
        let plan: RestorePlan
        do {
            plan = try await backupFeature.prepareRestore(from: source, skippingInvalid: skipInvalid)
            checking.finish()
        } catch {
            checking.finish()
            throw error
        }
        let dates = self.dates
        func span(_ first: Date?, _ last: Date?) -> String {
            guard let first, let last else { return "" }
            return " from \(dates.local(first).prefix(10)) to \(dates.local(last).prefix(10))"
        }
        let incoming = plan.snapshot
        let settings = (merge ? "" : Self.settingsSentence(plan)) + Self.droppedSentence(plan)
        let question = merge
            ? "Add what is new from \(plan.name) (\(counted(incoming.weighIns, "weigh-in"))\(span(plan.incomingFirst, plan.incomingLast)), \(counted(incoming.habits, "habit"))) to what you have?"
            : "Replace your \(counted(plan.currentEntries, "weigh-in"))\(span(plan.currentFirst, plan.currentLast)) and \(counted(plan.currentHabits, "habit")) with \(plan.name) (\(incoming.weighIns) weigh-ins\(span(plan.incomingFirst, plan.incomingLast)), \(incoming.habits) habits, written \(dates.local(plan.snapshot.createdAt)))?\(settings) A copy of what you have now is kept."
        if context.isInteractive {
            guard await context.confirm(question) else {
                return CommandOutput(Said(key: "restored", value: false, sentence: "Nothing was changed."), style: .plain)
            }
        }
        let writing = ProgressBar(enabled: context.isInteractive, label: merge ? "Merging" : "Restoring")
        writing.update(0.6)
        let result: RestoreResult
        do {
            result = try await backupFeature.restore(plan, merge: merge)
            writing.finish()
        } catch {
            writing.finish()
            throw error
        }
        return CommandOutput(Restored(result: result, leftOut: plan.snapshot.dropped,
                                      settingsChanged: plan.settingChanges.map(\.key), settingsIgnored: plan.ignoredSettings,
                                      settingsSentence: Self.settingsSentence(plan), droppedSentence: Self.droppedSentence(plan)),
                             style: .plain)
    }

    /// `restore …`: what was restored or merged, what was left out, and the copy of what was there.
    struct Restored: CommandAnswer {
        let result: RestoreResult
        let leftOut: [String]
        let settingsChanged: [String]
        let settingsIgnored: Int
        /// The text only: the sentences on settings and on rows left out.
        let settingsSentence: String, droppedSentence: String

        enum CodingKeys: String, CodingKey {
            case restored, name, leftOut, beforeRestore, unchanged, entries, habits, settingsChanged, settingsIgnored, merged
        }

        struct Merged: Encodable { let weights: Int, duplicates: Int, habits: Int, habitDays: Int }

        /// A replacing restore says which settings changed; a merge, what it added.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(true, forKey: .restored)
            try container.encode(result.name, forKey: .name)
            try container.encode(leftOut, forKey: .leftOut)
            try container.encodeIfPresent(result.beforeRestoreName, forKey: .beforeRestore)
            try container.encode(result.unchanged, forKey: .unchanged)
            try container.encode(result.entries, forKey: .entries)
            try container.encode(result.habits, forKey: .habits)
            if let counts = result.merged {
                try container.encode(Merged(weights: counts.weights, duplicates: counts.duplicateWeights, habits: counts.habits,
                                            habitDays: counts.habitDays), forKey: .merged)
            } else {
                try container.encode(settingsChanged, forKey: .settingsChanged)
                try container.encode(settingsIgnored, forKey: .settingsIgnored)
            }
        }

        func text(style: TerminalStyle) -> String {
            var text: String
            if result.unchanged {
                text = "Nothing to restore: what is here is already \(result.name)'s content (\(counted(result.entries, "weigh-in")), "
                    + "\(counted(result.habits, "habit"))); nothing was changed."
            } else if let counts = result.merged {
                text = "Merged from \(result.name): \(counts.weights) new weigh-ins (\(counts.duplicateWeights) already here), \(counts.habits) new habits, \(counts.habitDays) habit days. The state before is kept as before-restore \(result.beforeRestoreName ?? "")."
            } else {
                text = "Restored \(result.name): \(counted(result.entries, "weigh-in")), \(counted(result.habits, "habit")).\(settingsSentence) What was there before is kept as before-restore \(result.beforeRestoreName ?? "")."
            }
            if !leftOut.isEmpty {
                text += droppedSentence + "\n" + leftOut.prefix(20).map { "  left out: \(TerminalText.printable($0, limit: 120))" }
                    .joined(separator: "\n")
                if leftOut.count > 20 { text += "\n  … and \(leftOut.count - 20) more" }
            }
            return text
        }
    }

    /// " 2 rows the snapshot holds cannot be accepted and are left out."
    static func droppedSentence(_ plan: RestorePlan) -> String {
        let count = plan.snapshot.dropped.count
        guard count > 0 else { return "" }
        return " \(counted(count, "row")) of the snapshot cannot be accepted and \(count == 1 ? "is" : "are") left out."
    }

    /// " Settings: unit kg → lb, goal 75.0 kg → 80.0 kg. 3 settings of the other device are left out."
    static func settingsSentence(_ plan: RestorePlan) -> String {
        func shown(_ change: SettingsTable.Change, _ value: String?) -> String {
            guard let value else { return "none" }
            if change.key == "goalKilograms", let kilograms = Double(value) { return WeightUnit.kilograms.format(kilograms) }
            return TerminalText.printable(value)
        }
        var text = ""
        if !plan.settingChanges.isEmpty {
            let names = ["unit": "unit", "goalKilograms": "goal", "progressRange": "progress range"]
            text += " Settings: " + plan.settingChanges.map {
                "\(names[$0.key] ?? $0.key) \(shown($0, $0.from)) → \(shown($0, $0.to))"
            }.joined(separator: ", ") + "."
        }
        if plan.ignoredSettings > 0 {
            text += " \(counted(plan.ignoredSettings, "setting")) of the other device (such as its sync folder) \(plan.ignoredSettings == 1 ? "is" : "are") left out."
        }
        return text
    }

    /// `delete-all-data [everywhere]`: on a terminal, a question first, naming the other devices when this one syncs.
    func deleteAll(everywhere: Bool, devices: [String]?, context: CommandContext) async throws -> CommandOutput {
        if context.isInteractive {
            guard await context.confirm(Self.deletionQuestion(everywhere: everywhere, devices: devices)) else {
                return CommandOutput(DeletedAll(deleted: false, beforeRestore: nil, declined: true), style: .plain)
            }
        }
        let copy = try await backupFeature.deleteAllData(everywhere: everywhere)
        let reach: DeletedAll.Reach = devices == nil ? .unsynced : everywhere ? .everywhere : .leftSync
        return CommandOutput(DeletedAll(deleted: copy != nil, beforeRestore: copy, declined: false, reach: reach), style: .plain)
    }

    /// What `delete-all-data` asks: which devices it reaches, and what the others keep.
    static func deletionQuestion(everywhere: Bool, devices: [String]?) -> String {
        let kept = "A snapshot is kept in Backups/Before-restore."
        guard let devices else { return "Delete every weigh-in, habit and setting? \(kept)" }
        let others = devices.isEmpty ? "the devices that join the sync folder" : SyncReport.sentence(from: devices.map(TerminalText.visible))
        if everywhere {
            return "Delete every weigh-in, habit and setting on this device and on \(others)? 'undo' on any of them brings it back. \(kept)"
        }
        return "Delete every weigh-in, habit and setting on this device? It leaves the sync, and \(others) keep everything "
            + "('delete-all-data everywhere' deletes on every device). \(kept)"
    }

    /// `delete-all-data`: whether everything went, and the copy that brings it back.
    struct DeletedAll: CommandAnswer {
        /// Which devices a deletion reached.
        enum Reach: String, Encodable {
            /// This device does not sync.
            case unsynced
            /// This device alone, which left the sync.
            case leftSync
            /// Every device, at its next sync.
            case everywhere
        }

        let deleted: Bool
        let beforeRestore: String?
        /// The text only: the person said no.
        let declined: Bool
        var reach: Reach = .unsynced

        enum CodingKeys: String, CodingKey { case deleted, beforeRestore, reach }

        func text(style: TerminalStyle) -> String {
            if declined { return "Nothing was changed." }
            guard let beforeRestore else {
                return reach == .leftSync ? "There was nothing to delete; this device left the sync." : "There was nothing to delete; nothing was changed."
            }
            let back = "'restore before-restore \(beforeRestore)' brings it back"
            switch reach {
            case .unsynced: return "Everything was deleted. \(back)."
            case .leftSync:
                return "Everything on this device was deleted, and it left the sync: the other devices keep everything "
                    + "('set sync-folder PATH' joins again). \(back)."
            case .everywhere:
                return "Everything was deleted, here and, at their next sync, on every other device. 'undo' brings it back, here or on any of them."
            }
        }
    }
}
