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

/// The owner of the log that carries rows to a person's other installations (Sync's `SyncTables`), as Storage's
/// journal and snapshots need it: the journal tells it which rows an undo or a redo wrote and what a journaled `+N`
/// change added, and a restore asks it which rows the other devices have. Storage names none of its tables; a schema
/// without one (no sync) skips all three.
public protocol SyncLogOwner: SchemaOwner {
    /// Notes that the rows the journal rows `seqs` wrote (an undo or a redo) hold something new here, so the next
    /// sync sends them; `synced` are the tables whose rows travel, by journal code.
    func rowsReplayed(_ seqs: ClosedRange<Int>, synced: [Int: SyncedTable], in connection: SQLiteConnection) throws
    /// Notes, inside a journaled change, that it adds `amount` to the additive column of the row with `key`.
    func additionNoted(table code: Int, key: [SQLValue], amount: Double, in connection: SQLiteConnection) throws
    /// The rows of each synced table that the other devices have, in their table's column order, parents' tables
    /// (lower codes) first.
    func rowsOtherDevicesHave(synced: [Int: SyncedTable], in connection: SQLiteConnection) throws
        -> [(table: JournaledTable, rows: [[SQLValue]])]
}

extension SQLiteConnection {
    /// Notes, inside a journaled change, that it adds `amount` to the additive
    /// column of the row with `key` (`habit done Water +3`), so the change
    /// travels as an addition that adds up with another device's. Nothing where the schema does not sync.
    public func noteSyncAddition(table code: Int, key: [SQLValue], amount: Double) throws {
        guard key.count == 1 || key.count == 2 else { return }
        try schema.syncLog?.additionNoted(table: code, key: key, amount: amount, in: self)
    }
}

extension ChangeJournal {
    /// Tells the sync log which rows an undo or a redo of the journal rows `seqs` wrote (nothing without one).
    static func markSyncDirty(_ seqs: ClosedRange<Int>, in connection: SQLiteConnection) throws {
        try connection.schema.syncLog?.rowsReplayed(seqs, synced: connection.schema.synced, in: connection)
    }
}

extension DatabaseSchema {
    /// The rows of each synced table that the other devices have; empty where the schema does not sync.
    func rowsOtherDevicesHave(in connection: SQLiteConnection) throws -> [(table: JournaledTable, rows: [[SQLValue]])] {
        try syncLog?.rowsOtherDevicesHave(synced: synced, in: connection) ?? []
    }
}
