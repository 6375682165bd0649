import Foundation
import Storage

/// Leaving the sync, and deleting all data on every device: what this installation tells the others in its folder
/// (`SyncNotice`), and what it hears from theirs, said once (DESIGN §8, Undo, restore and delete on one device of many).
extension SyncWorker {
    /// Where `delete-all-data everywhere` leaves the moment it deleted (ms) until the sync that sends the deletes
    /// writes its notice.
    static let deletedAllMark = "sync.deleted-all"

    /// The notices of `peer` not said here yet: that it left, and that it deleted all data everywhere.
    func unsaidNotices(of peer: String, in folder: SafeFolder, key: [UInt8]?) throws -> (left: SyncNotice?, deletedAll: SyncNotice?) {
        func unsaid(_ kind: SyncNotice.Kind) throws -> SyncNotice? {
            guard let notice = SyncNotice.read(kind, in: folder, installation: peer, key: key, files: files) else { return nil }
            let said = try store.read { try SyncLedger.meta(Self.saidMark(notice), in: $0) }.flatMap { Int($0) } ?? -1
            return notice.atMs > said ? notice : nil
        }
        return (try unsaid(.left), try unsaid(.deletedAll))
    }

    /// Says, once each, that the devices of `departures` left the sync: kept among `sync`'s notes; returns the notes.
    func say(_ departures: [SyncNotice], timeZone: TimeZone, nowMs: Int) throws -> [String] {
        try departures.map { notice in
            let note = "\(notice.name) left the sync on \(notice.day(in: timeZone)): what it sent stays here, and it reads and writes the folder no more"
            try store.write(notifying: false) { connection in
                try connection.run("INSERT INTO sync_notes(ms, text) VALUES(?, ?)", [.int(nowMs), .text(note)])
                try Self.markSaid(notice, in: connection)
            }
            return note
        }
    }

    /// Says, once each, that the devices of `deletions` (by installation) deleted all data everywhere, once this
    /// sync has merged their deletes (`reached`): this sync is then that deletion here, which `undo` takes back as it
    /// takes back a command, and the rows come back on every device. Returns what the history calls it, one a device.
    static func say(_ deletions: [String: SyncNotice], reached: [String: Int], timeZone: TimeZone, applied: inout SyncLedger.Applied,
                    in connection: SQLiteConnection) throws -> [String] {
        var said: [String] = []
        for (peer, notice) in deletions.sorted(by: { $0.key < $1.key }) where (reached[peer] ?? 0) >= notice.through {
            let deleted = "\(notice.name) deleted all data on \(notice.day(in: timeZone))"
            applied.note(deleted + "; 'undo' here brings it back")
            try markSaid(notice, in: connection)
            said.append(deleted)
        }
        return said
    }

    /// Where the moment of the last notice of its kind said here from its installation is kept.
    static func saidMark(_ notice: SyncNotice) -> String {
        "sync.said.\(notice.kind.rawValue).\(notice.installation)"
    }

    static func markSaid(_ notice: SyncNotice, in connection: SQLiteConnection) throws {
        try SyncLedger.setMeta(saidMark(notice), String(notice.atMs), in: connection)
    }

    /// Records that this installation deleted all data everywhere at `now`: its next sync, which sends the deletes,
    /// writes the notice its peers say it by.
    func announceDeletedAll(now: Date) throws {
        try store.write(notifying: false) {
            try SyncLedger.setMeta(Self.deletedAllMark, String(Int(now.timeIntervalSince1970 * 1000)), in: $0)
        }
    }

    /// Writes the notice of a deletion of all data waiting for the deletes to be sent (they are, once segments are written).
    func writePendingNotice(in own: SafeFolder, installation: String, device: String) throws {
        let (pending, written) = try store.read { connection in
            (try SyncLedger.meta(Self.deletedAllMark, in: connection).flatMap { Int($0) },
             Int(try SyncLedger.meta(SyncLedger.Mark.written, in: connection) ?? "0") ?? 0)
        }
        guard let pending else { return }
        let notice = SyncNotice(kind: .deletedAll, installation: installation, device: device, atMs: pending, through: written)
        try write(notice, in: own)
        try store.write(notifying: false) { try $0.run("DELETE FROM meta WHERE key = ?", [.text(Self.deletedAllMark)]) }
    }

    /// Writes `notice` in this installation's folder, signed by its key, in place of the one of its kind before.
    private func write(_ notice: SyncNotice, in own: SafeFolder) throws {
        try files.replace(notice.kind.fileName, in: own, installation: notice.installation, with: try notice.bytes(seed: try signer().seed))
    }

    /// Leaves the sync, as `delete-all-data` on this device alone does: a notice in its folder tells the others (when
    /// the folder can be reached), whose data it leaves as it is, and this installation forgets all it knew of the
    /// sync and takes a new id, so what it deletes after travels nowhere, and joining again later is joining anew.
    /// Its folder's files stay. Under the sync lock: no other process of this data directory is syncing meanwhile.
    func leave(folder: URL?, device: String, now: Date) throws {
        try store.exclusively("sync") {
            let installation = try store.read { try $0.storedInstallationID() }
            if let folder, let installation, let root = try? SafeFolder.open(folder, ["trend"], create: false),  // Gone: no one to tell.
               root.entry(installation) == .folder, let own = try? root.subfolder(installation, create: false),
               let access = try? self.access(root: root, folder: folder) {  // A private folder it is not a member of: no one to tell.
                files = access
                let written = Int(try store.read { try SyncLedger.meta(SyncLedger.Mark.written, in: $0) } ?? "0") ?? 0
                try write(SyncNotice(kind: .left, installation: installation, device: device,
                                     atMs: Int(now.timeIntervalSince1970 * 1000), through: written), in: own)
            }
            // Joining again later is joining anew, with a code.
            secretsFile.remove()
            rosterCache = nil
            try store.write(notifying: false) { connection in
                try SyncTables.forget(in: connection)
                try connection.run("UPDATE meta SET value = ? WHERE key = 'installationID'", [.text(UUID().uuidString.lowercased())])
            }
        }
    }
}
