import Foundation

/// A table whose rows travel between a person's installations through the
/// sync folder (DESIGN §8), as its owner declares it beside its journaled
/// table: the journal tells which rows changed, and this says which of them
/// stay on this device, which column adds up, and how a row from another
/// device is checked before it is kept.
public struct SyncedTable: Sendable {
    /// The table, its key and the columns a change carries (those the journal records).
    public let table: JournaledTable
    /// When set, only rows whose first key column holds one of these travel (the portable settings;
    /// the sync folder and the device name stay on each device).
    public let onlyKeys: Set<String>?
    /// A column a `+N` change adds to (a habit day's amount): such changes made on two devices add up.
    public let additive: String?
    /// What one `+N` change may add, checked as the command that makes it checks it (`habit done Water +3`):
    /// one outside is left out and named. Honest additions from several devices may still sum past it.
    public let acceptedAddition: ClosedRange<Double>
    /// Why a row from another device cannot be kept (as a restore checks a row), or nil when it can.
    public let problem: @Sendable (RowImage) -> String?
    /// The row under another name when its unique name is taken by another row (`n` is 2, 3, …).
    public let renamed: (@Sendable (RowImage, Int) -> RowImage)?
    /// A row as a person names it in a note (`the weigh-in of Tue 5 Jan 07:12`, `Water, Sat 19 Dec`), in the person's
    /// time zone, a parent's name read through the connection; nil: by its key.
    public let describe: (@Sendable (RowImage, TimeZone, SQLiteConnection) -> String?)?
    /// What to say of a row that came from another device (the installation id given) and is new here
    /// (`likely a double of one here`), nil: nothing.
    public let arrived: (@Sendable (RowImage, String, TimeZone, SQLiteConnection) -> String?)?
    /// Whether two rows that want one unique name are one thing made on two devices while apart (the same habit
    /// added on both): they become one, the rows that hang from them together. Nil, or false: the later is renamed.
    public let same: (@Sendable (RowImage, RowImage) -> Bool)?

    public init(table: JournaledTable, onlyKeys: Set<String>? = nil, additive: String? = nil,
                acceptedAddition: ClosedRange<Double> = 0...0,
                renamed: (@Sendable (RowImage, Int) -> RowImage)? = nil,
                describe: (@Sendable (RowImage, TimeZone, SQLiteConnection) -> String?)? = nil,
                arrived: (@Sendable (RowImage, String, TimeZone, SQLiteConnection) -> String?)? = nil,
                same: (@Sendable (RowImage, RowImage) -> Bool)? = nil,
                problem: @escaping @Sendable (RowImage) -> String?) {
        precondition(table.key.count <= 2, "a synced table's key has one or two columns")
        self.table = table
        self.onlyKeys = onlyKeys
        self.additive = additive
        self.acceptedAddition = acceptedAddition
        self.problem = problem
        self.renamed = renamed
        self.describe = describe
        self.arrived = arrived
        self.same = same
    }

    /// Whether the row with `key` travels to the other devices.
    public func travels(_ key: [SQLValue]) -> Bool {
        guard let onlyKeys else { return true }
        guard case let .text(name)? = key.first else { return false }
        return onlyKeys.contains(name)
    }
}

/// The sync log's tables, which Storage keeps beside the journal: the clock
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
public struct SyncTables: SchemaOwner {
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
}

extension SQLiteConnection {
    /// Empties the sync log and the sync's `meta` values (`sync.…`): the installation knows nothing of any sync,
    /// as before its first (it leaves the sync; a later one joins anew).
    public func forgetSync() throws {
        for table in SyncTables.tableNames { try execute("DELETE FROM \(table)") }
        try execute("DELETE FROM meta WHERE key LIKE 'sync.%'")
    }

    /// Notes, inside a journaled change, that it adds `amount` to the additive
    /// column of the row with `key` (`habit done Water +3`), so the change
    /// travels as an addition that adds up with another device's.
    public func noteSyncAddition(table code: Int, key: [SQLValue], amount: Double) throws {
        guard schema.syncs, key.count == 1 || key.count == 2 else { return }
        try run("""
            INSERT INTO sync_additions(change_id, table_code, k0, k1, amount)
            SELECT change_id, ?, ?, ?, ? FROM journal_recording WHERE id = 1 AND change_id IS NOT NULL
            ON CONFLICT DO UPDATE SET amount = amount + excluded.amount
            """, [.int(code), key[0], key.count > 1 ? key[1] : .text(""), .double(amount)])
    }
}

extension ChangeJournal {
    /// Marks every row an undo or a redo of the journal rows `seqs` wrote, so
    /// the next sync sends what they hold now (an undone sync is sent back as this device's change),
    /// with the columns they changed (a bit a column, by place; -1 for a row made or removed): the
    /// columns of another device's edit that the undo did not touch keep their clocks.
    static func markSyncDirty(_ seqs: ClosedRange<Int>, in connection: SQLiteConnection) throws {
        guard connection.schema.syncs else { return }
        for table in connection.schema.synced.values {
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
}

extension DatabaseSchema {
    /// The rows of each synced table that the other devices have: those the sync log knows and has not seen deleted,
    /// in their table's column order, parents' tables (lower codes) first. Empty where the schema does not sync.
    func rowsOtherDevicesHave(in connection: SQLiteConnection) throws -> [(table: JournaledTable, rows: [[SQLValue]])] {
        guard syncs else { return [] }
        return try synced.keys.sorted().compactMap { code in
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
