import Foundation
import Storage

/// The sync log's tables, kept beside the journal (Storage calls them through `SyncLogOwner`): the clock
/// of every row's latest version, its columns' clocks where they differ, and a digest of the row as sync last left it (`sync_rows`), the `+N` changes that still
/// add to a row (`sync_adds`), this installation's changes not yet in a
/// segment file (`sync_out`), the rows an undo or a redo touched
/// (`sync_dirty`), the `+N` notes of journaled changes (`sync_additions`),
/// rows from another device that wait for their parent (`sync_parked`), the
/// devices seen with their keys (`sync_peers`), what `sync` says happened (`sync_notes`)
/// and the files this installation wrote (`sync_written`).
/// Frozen: each migration below is the SQL that shipped, word for word. A
/// test pins its hash (`SchemaTests`); never edit one, add the next. The migrations of the tables look alike
/// (the journal's triggers, each table's own) because each is frozen as it shipped: they are not merged.
public struct SyncTables: SyncLogOwner {
    public init() {}

    /// The columns `sync_rows` and `sync_adds` begin with, a row's key and clock: part of migration 18's SQL.
    private static let keyAndClock = """
            table_code INTEGER NOT NULL,
            k0 NOT NULL,
            k1 NOT NULL DEFAULT '',
            ms INTEGER NOT NULL,
            counter INTEGER NOT NULL,
            origin TEXT NOT NULL,
        """

    public var migrations: [Migration] {
        [
            // 18: the sync log (DESIGN §8). A key is one or two values (k1 '' for one).
            Migration(18, #"""
            CREATE TABLE sync_rows (
            \#(Self.keyAndClock)
                deleted INTEGER NOT NULL DEFAULT 0,
                digest INTEGER,
                PRIMARY KEY (table_code, k0, k1)
            ) WITHOUT ROWID;
            CREATE TABLE sync_adds (
            \#(Self.keyAndClock)
                amount REAL NOT NULL,
                image TEXT NOT NULL,
                PRIMARY KEY (table_code, k0, k1, ms, counter, origin)
            ) WITHOUT ROWID;
            CREATE TABLE sync_out (
                seq INTEGER PRIMARY KEY,
                line TEXT NOT NULL
            );
            CREATE TABLE sync_dirty (
                table_code INTEGER NOT NULL,
                k0 NOT NULL,
                k1 NOT NULL DEFAULT '',
                PRIMARY KEY (table_code, k0, k1)
            ) WITHOUT ROWID;
            CREATE TABLE sync_additions (
                change_id INTEGER NOT NULL,
                table_code INTEGER NOT NULL,
                k0 NOT NULL,
                k1 NOT NULL DEFAULT '',
                amount REAL NOT NULL,
                PRIMARY KEY (change_id, table_code, k0, k1)
            ) WITHOUT ROWID;
            CREATE TABLE sync_parked (
                table_code INTEGER NOT NULL,
                k0 NOT NULL,
                k1 NOT NULL DEFAULT '',
                image TEXT NOT NULL,
                PRIMARY KEY (table_code, k0, k1)
            ) WITHOUT ROWID;
            CREATE TABLE sync_peers (
                installation TEXT PRIMARY KEY NOT NULL,
                name TEXT NOT NULL DEFAULT '',
                applied INTEGER NOT NULL DEFAULT 0,
                last_change_ms INTEGER,
                seen_of_us INTEGER NOT NULL DEFAULT 0,
                received INTEGER NOT NULL DEFAULT 0,
                problem TEXT
            ) WITHOUT ROWID;
            CREATE TABLE sync_notes (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                ms INTEGER NOT NULL,
                text TEXT NOT NULL
            );
            """#),
            // 20: per-column clocks (DESIGN §8): each column's clock where it differs from the row's, the tombstone's
            // under '-', and a deleted row's last image; the columns an undo or a redo changed (a bit each, -1 all);
            // each device's pinned Ed25519 key; and the files this installation wrote, to tell a copy of it.
            Migration(20, #"""
            ALTER TABLE sync_rows ADD COLUMN clocks TEXT;
            ALTER TABLE sync_rows ADD COLUMN image TEXT;
            ALTER TABLE sync_dirty ADD COLUMN columns INTEGER NOT NULL DEFAULT -1;
            ALTER TABLE sync_peers ADD COLUMN key TEXT;
            CREATE TABLE sync_written (
                name TEXT PRIMARY KEY NOT NULL,
                last INTEGER NOT NULL,
                size INTEGER NOT NULL,
                modified INTEGER NOT NULL,
                sha256 TEXT NOT NULL,
                ms INTEGER NOT NULL,
                counter INTEGER NOT NULL
            ) WITHOUT ROWID;
            """#),
        ]
    }
}

extension SyncTables {
    /// The sync log's tables, each named once: what an installation forgets when it leaves the sync.
    static let tableNames = ["sync_rows", "sync_adds", "sync_out", "sync_dirty", "sync_additions", "sync_parked", "sync_peers",
                             "sync_notes", "sync_written"]

    /// Empties the sync log and the sync's `meta` values (`sync.…`): the installation knows nothing of any sync,
    /// as before its first (it leaves the sync; a later one joins anew).
    static func forget(in connection: SQLiteConnection) throws {
        for table in tableNames { try connection.execute("DELETE FROM \(table)") }
        try connection.execute("DELETE FROM meta WHERE key LIKE 'sync.%'")
    }

    public func additionNoted(table code: Int, key: [SQLValue], amount: Double, in connection: SQLiteConnection) throws {
        try connection.run("""
            INSERT INTO sync_additions(change_id, table_code, k0, k1, amount)
            SELECT change_id, ?, ?, ?, ? FROM journal_recording WHERE id = 1 AND change_id IS NOT NULL
            ON CONFLICT DO UPDATE SET amount = amount + excluded.amount
            """, [.int(code), key[0], key.count > 1 ? key[1] : .text(""), .double(amount)])
    }

    /// Marks every row an undo or a redo of the journal rows `seqs` wrote, so
    /// the next sync sends what they hold now (an undone sync is sent back as this device's change),
    /// with the columns they changed (a bit a column, by place; -1 for a row made or removed): the
    /// columns of another device's edit that the undo did not touch keep their clocks.
    public func rowsReplayed(_ seqs: ClosedRange<Int>, synced: [Int: SyncedTable], in connection: SQLiteConnection) throws {
        for table in synced.values {
            let journaled = table.table
            let slots = journaled.key.map { journaled.columns.firstIndex(of: $0)! }
            let changed = journaled.columns.indices.map { "(CASE WHEN a\($0) IS NOT b\($0) THEN \(1 << $0) ELSE 0 END)" }
                .joined(separator: " | ")
            for image in ["a", "b"] {
                let values = slots.map { "\(image)\($0)" } + (slots.count == 1 ? ["''"] : [])
                try connection.run("""
                    INSERT INTO sync_dirty(table_code, k0, k1, columns)
                    SELECT table_code, \(values.joined(separator: ", ")),
                        CASE WHEN has_before = 1 AND has_after = 1 THEN \(changed) ELSE -1 END FROM journal_rows
                    WHERE seq BETWEEN ? AND ? AND table_code = ? AND has_\(image == "a" ? "after" : "before") = 1
                    ON CONFLICT DO UPDATE SET columns = columns | excluded.columns
                    """, [.int(seqs.lowerBound), .int(seqs.upperBound), .int(journaled.code)])
            }
        }
    }

    /// The rows of each synced table that the other devices have: those the sync log knows and has not seen deleted.
    public func rowsOtherDevicesHave(synced: [Int: SyncedTable], in connection: SQLiteConnection) throws
        -> [(table: JournaledTable, rows: [[SQLValue]])] {
        try synced.keys.sorted().compactMap { code in
            guard let table = synced[code]?.table else { return nil }
            let second = table.key.count > 1 ? "t.\(table.key[1])" : "''"
            let rows = try connection.query("""
                SELECT \(table.columns.map { "t.\($0)" }.joined(separator: ", ")) FROM \(table.name) t WHERE EXISTS (
                    SELECT 1 FROM sync_rows s WHERE s.table_code = ? AND s.k0 = t.\(table.key[0]) AND s.k1 = \(second) AND s.deleted = 0)
                """, [.int(code)]) { row in table.columns.indices.map { row.value(Int32($0)) ?? .null } }
            return rows.isEmpty ? nil : (table, rows)
        }
    }
}
