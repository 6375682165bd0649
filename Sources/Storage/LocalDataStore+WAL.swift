import CSQLite
import Foundation

/// The write-ahead log's hygiene: a bounded size, a checkpoint after large
/// or failed writes, a clean close at exit, and a `-wal` (or a bulk write's
/// hot `-journal`) that belongs to another database never applied to this one.
///
/// Each Trend database gets a random `application_id` (kept in its header,
/// so checkpoints never change it), and `trend.sqlite-walid` beside it names
/// the database the `-wal` belongs to. A `-wal` or `-journal` found beside a
/// database whose id differs (a `trend.sqlite` copied in over an old one) is moved aside.
extension LocalDataStore {
    /// The WAL may shrink back to this after a checkpoint (bytes).
    static let journalSizeLimit = 16 * 1_048_576

    static func walURL(_ database: URL) -> URL { URL(fileURLWithPath: database.path + "-wal") }
    static func shmURL(_ database: URL) -> URL { URL(fileURLWithPath: database.path + "-shm") }
    /// The rollback journal a bulk write keeps while it runs (`write(bulk:)`).
    static func journalURL(_ database: URL) -> URL { URL(fileURLWithPath: database.path + "-journal") }
    static func walOwnerURL(_ database: URL) -> URL { URL(fileURLWithPath: database.path + "-walid") }

    /// Before SQLite opens the file: moves a `-wal` (and its `-shm`), or a hot
    /// `-journal` left by a bulk write that was killed, aside when it belongs
    /// to another database; returns the warning to show, if any. SQLite would
    /// otherwise apply another database's pages to this one.
    static func setAsideForeignLogs(of database: URL) -> String? {
        // No such file, or an empty one, has nothing to apply: the usual start-up stops at two stats.
        let logs = [(walURL(database), Optional(shmURL(database))), (journalURL(database), nil)].filter { log, _ in
            var info = stat()
            return stat(log.path, &info) == 0 && info.st_size > 0
        }
        guard !logs.isEmpty,
              let owner = try? String(contentsOf: walOwnerURL(database), encoding: .utf8),  // Written by an older Trend: trusted.
              let expected = UInt32(owner.trimmingCharacters(in: .whitespacesAndNewlines)),
              let found = applicationID(ofFileAt: database), found != expected else { return nil }
        // A name no earlier set-aside has: no clock is needed (and Storage is given none).
        let stamp = UUID().uuidString.prefix(8).lowercased()
        var movedAside: [String] = []
        for (log, companion) in logs {
            let aside = URL(fileURLWithPath: "\(log.path).foreign-\(stamp)")
            guard rename(log.path, aside.path) == 0 else { continue }
            if let companion { rename(companion.path, "\(companion.path).foreign-\(stamp)") }
            movedAside.append("\(log.path) belonged to another database than \(database.lastPathComponent) and was not applied; "
                              + "it was moved aside to \(aside.lastPathComponent)")
        }
        return movedAside.isEmpty ? nil : movedAside.joined(separator: "\n")
    }

    /// The `application_id` in a database file's header, read without SQLite.
    static func applicationID(ofFileAt database: URL) -> UInt32? {
        guard let handle = FileHandle(forReadingAtPath: database.path) else { return nil }
        // Closing a file only read cannot lose data.
        defer { try? handle.close() }
        guard let header = try? handle.read(upToCount: 100), header.count == 100 else { return nil }  // Too short: a new file.
        return header[68..<72].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    }

    /// After SQLite opened the file: bounds the WAL, gives a database without
    /// one its `application_id`, and names it as the owner of the WAL.
    static func claimWAL(_ connection: SQLiteConnection, of database: URL) throws {
        try connection.execute("PRAGMA journal_size_limit = \(journalSizeLimit)")
        var id = UInt32(truncatingIfNeeded: try connection.scalarInt("PRAGMA application_id") ?? 0)
        if id == 0 {
            id = UInt32.random(in: 1...UInt32(Int32.max))
            do {
                try connection.execute("PRAGMA application_id = \(id)")
                // Into the main file now, so its header names it before any WAL can.
                try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            } catch StorageError.readOnly {
                return  // A read-only database writes no WAL to guard.
            }
        }
        let owner = walOwnerURL(database)
        if (try? String(contentsOf: owner, encoding: .utf8)) != "\(id)\n" {  // Missing or stale: written below.
            let descriptor = Foundation.open(owner.path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0o600)
            guard descriptor >= 0 else { return }  // Without it a foreign WAL cannot be told apart; the database still works.
            defer { Foundation.close(descriptor) }
            let text = Array("\(id)\n".utf8)
            _ = text.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
        }
    }

    /// Folds the WAL into the database and truncates it: after a large
    /// import or restore, and after a write that failed for want of space.
    public func checkpoint() throws {
        try read { try $0.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
    }
}
