/// One step of the schema: the SQL a table's owner runs when a database
/// moves to `version`. Once shipped it never changes (`SchemaTests`
/// pins each one's text); a change to a table is a new migration.
public struct Migration: Sendable, Equatable {
    public let version: Int
    public let sql: String

    public init(_ version: Int, _ sql: String) {
        self.version = version
        self.sql = sql
    }
}

/// A table whose every change the journal records (`ChangeJournal`), as its
/// owner declares it: the code its triggers write into `journal_rows`, what
/// messages call a row, its key and every column, in the order its triggers
/// record them. The triggers themselves are in the owner's migrations; a
/// migration that adds a column makes them again.
public struct JournaledTable: Sendable, Equatable {
    public let code: Int
    public let name: String
    public let noun: String
    public let key: [String]
    public let columns: [String]
    /// Where an image keeps the row's rowid (weigh-ins, from migration 15; nil: not kept).
    public let rowidSlot: Int?
    /// How many characters of a key a message shows (weigh-in ids: 8), nil for all.
    public let keyShownAs: Int?
    /// Whether a large insert into it is journaled by its range of rowids (`ChangeJournal+Appends`).
    public let appendsByRange: Bool
    /// Whether `undo` and `redo` put its rows back: false for bookkeeping that travels by sync but is nobody's
    /// change (the tip deck, the reminders sent), which an undo of a restore or a habit's delete leaves as it is.
    public let undoable: Bool

    public init(code: Int, name: String, noun: String, key: [String], columns: [String], rowidSlot: Int? = nil,
                keyShownAs: Int? = nil, appendsByRange: Bool = false, undoable: Bool = true) {
        precondition(key.allSatisfy(columns.contains), "a journaled table's key is among its columns")
        self.code = code
        self.name = name
        self.noun = noun
        self.key = key
        self.columns = columns
        self.rowidSlot = rowidSlot
        self.keyShownAs = keyShownAs
        self.appendsByRange = appendsByRange
        self.undoable = undoable
    }
}

/// What owns tables in the database: each feature's table owner (beside
/// its `SnapshotSection`), and Storage's own `MetaTable` and `JournalTables`.
/// It declares the migrations that make its tables, the tables the journal
/// records, and the set forms of insert triggers a large insert may pause
/// (`InsertTriggerPause`).
public protocol SchemaOwner: Sendable {
    var migrations: [Migration] { get }
    var journaledTables: [JournaledTable] { get }
    /// For a trigger that may pause, the statements that do its work for every row with a rowid above `?1`.
    var insertTriggerSetForms: [String: [String]] { get }
    /// The tables whose rows travel to the person's other installations (`SyncedTable`).
    var syncedTables: [SyncedTable] { get }
}

extension SchemaOwner {
    public var journaledTables: [JournaledTable] { [] }
    public var insertTriggerSetForms: [String: [String]] { [:] }
    public var syncedTables: [SyncedTable] { [] }
}

/// The schema of one database, from the list of its owners (AppCore's
/// `DatabaseSchema.trend`): Storage runs it and names no table of a feature.
///
/// A database records in `PRAGMA user_version` the last version it was
/// moved to. `migrate` moves it forward in one transaction, running each
/// later version's SQL: the parts its owners declare for it, in the owners'
/// order. A database from a newer Trend, or one whose version and tables do
/// not agree (a version no Trend wrote, tables it did not make), is refused
/// and left as it was.
public struct DatabaseSchema: Sendable {
    /// One version's SQL: every owner's part for it.
    public struct Step: Sendable, Equatable {
        public let version: Int
        public let sql: String
    }

    /// The steps in version order.
    public let steps: [Step]
    /// Every journaled table, by its code.
    public let journaled: [Int: JournaledTable]
    /// Every pausable insert trigger's set form, by the trigger's name.
    public let insertTriggerSetForms: [String: [String]]
    /// Every synced table, by its journal code.
    public let synced: [Int: SyncedTable]
    /// The owner of the sync log's tables (Sync's `SyncTables`), when the schema holds them.
    public let syncLog: (any SyncLogOwner)?
    /// Whether the schema holds the sync log's tables.
    public var syncs: Bool { syncLog != nil }

    public init(_ owners: [any SchemaOwner]) {
        var parts: [Int: [String]] = [:]
        for owner in owners {
            for migration in owner.migrations { parts[migration.version, default: []].append(migration.sql) }
        }
        steps = parts.sorted { $0.key < $1.key }.map { Step(version: $0.key, sql: $0.value.joined(separator: "\n")) }
        var journaled: [Int: JournaledTable] = [:]
        var forms: [String: [String]] = [:]
        var synced: [Int: SyncedTable] = [:]
        for owner in owners {
            for table in owner.syncedTables { synced[table.table.code] = table }
            for table in owner.journaledTables {
                precondition(journaled[table.code] == nil, "two journaled tables share the code \(table.code)")
                journaled[table.code] = table
            }
            forms.merge(owner.insertTriggerSetForms) { first, _ in first }
        }
        self.journaled = journaled
        insertTriggerSetForms = forms
        self.synced = synced
        syncLog = owners.lazy.compactMap { $0 as? any SyncLogOwner }.first
    }

    /// The version a database is at once every step has run.
    public var currentVersion: Int { steps.last?.version ?? 0 }

    /// The journaled table whose large inserts are journaled by range, if any.
    var appendedTable: JournaledTable? { journaled.values.sorted { $0.code < $1.code }.first { $0.appendsByRange } }

    /// Moves the database forward to `currentVersion` in one transaction, or refuses it untouched.
    func migrate(_ connection: SQLiteConnection) throws {
        let found = try connection.scalarInt("PRAGMA user_version") ?? 0
        try check(found, connection)
        guard found < currentVersion else { return }
        try connection.execute("BEGIN IMMEDIATE")
        do {
            // Another process may have migrated while this one waited for the lock.
            let version = try connection.scalarInt("PRAGMA user_version") ?? 0
            try check(version, connection)
            if version < currentVersion {
                try checkTables(of: connection, at: version)
                for step in steps where step.version > version {
                    try connection.execute(step.sql)
                }
                try connection.execute("PRAGMA user_version = \(currentVersion)")
            }
            try connection.execute("COMMIT")
        } catch {
            // The migration's own error is the one to report; the rollback is tried until it takes.
            connection.rollBack()
            throw error
        }
    }

    private func check(_ version: Int, _ connection: SQLiteConnection) throws {
        if version > currentVersion {
            throw StorageError.newerSchema(path: connection.path, found: version, supported: currentVersion)
        }
        if version < 0 { throw StorageError.unknownSchema(path: connection.path, found: version) }
    }

    /// Refuses a database whose tables are not those this schema makes at
    /// `version` (names and kinds of tables, indexes and triggers): a version
    /// set by hand, or tables of another program, are never built upon.
    private func checkTables(of connection: SQLiteConnection, at version: Int) throws {
        let held = try Self.objects(in: connection)
        guard held != (version == 0 ? [] : try objects(at: version)) else { return }
        throw StorageError.unknownSchema(path: connection.path, found: version)
    }

    /// The tables, indexes and triggers a fresh database holds at `version`, made in memory.
    func objects(at version: Int) throws -> Set<String> {
        let fresh = try SQLiteConnection.openInMemory()
        for step in steps where step.version <= version {
            try fresh.execute(step.sql)
        }
        return try Self.objects(in: fresh)
    }

    private static func objects(in connection: SQLiteConnection) throws -> Set<String> {
        Set(try connection.query("SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'") {
            $0.text(0) + " " + $0.text(1)
        })
    }
}
