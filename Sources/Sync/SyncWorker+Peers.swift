import Cryptography
import Foundation
import Storage

/// The devices this one has seen (`sync_peers`), as `sync` shows them.
extension SyncWorker {
    /// A device seen, as `sync_peers` keeps it.
    struct PeerRow {
        let id: String, name: String, applied: Int, lastChangeMs: Int?, received: Int, problem: String?
        /// The Ed25519 key pinned for the device the first time a file it signed was applied here.
        let key: [UInt8]?
    }

    static func peerRows(in connection: SQLiteConnection) throws -> [PeerRow] {
        try connection.query("""
            SELECT installation, name, applied, last_change_ms, received, problem, key FROM sync_peers ORDER BY name, installation
            """) {
            PeerRow(id: $0.text(0), name: $0.text(1), applied: $0.int(2), lastChangeMs: $0.optionalInt(3), received: $0.int(4),
                    problem: $0.optionalText(5), key: $0.optionalText(6).flatMap { Hex.bytes($0) })
        }
    }

    /// A device seen, with how far behind it is of the changes its folder holds (`available`, by installation).
    static func device(_ row: PeerRow, available: [String: Int]) -> SyncDevice {
        SyncDevice(installation: row.id, name: row.name, lastChange: row.lastChangeMs.map { Date(timeIntervalSince1970: Double($0) / 1000) },
                   applied: row.applied, behind: max(0, (available[row.id] ?? 0) - row.applied), received: row.received, problem: row.problem)
    }

    /// The devices seen, from what this one has applied of theirs.
    func devices(available: [String: Int] = [:]) throws -> [SyncDevice] {
        try store.read { try Self.peerRows(in: $0) }.map { Self.device($0, available: available) }
    }

    /// What `sync` says the merge decided, newest last.
    func notes(limit: Int) throws -> [String] {
        try store.read { connection in
            try connection.query("SELECT text FROM (SELECT id, text FROM sync_notes ORDER BY id DESC LIMIT ?) ORDER BY id", [.int(limit)]) { $0.text(0) }
        }
    }

    /// This device's changes not written out yet, and its installation id.
    func unsent() throws -> Int {
        try store.read { try $0.scalarInt("SELECT count(*) FROM sync_out") ?? 0 }
    }
}
