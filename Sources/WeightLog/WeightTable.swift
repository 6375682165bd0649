import Foundation
import Storage
import Vocabulary

/// The `weight_entries` table, in one place: its columns, every statement
/// that touches it, the mapping of a row to a `WeightEntry`, and its form in
/// a recovery snapshot (the `weights` member). `LocalWeightRepository`,
/// imports and Backup (through `SnapshotSchema`) all go through it.
///
/// Its columns and every stored form of a row come from `WeightField`.
public struct WeightTable: SnapshotSection {
    public init() {}

    /// Every column, from the weigh-in's one description (`WeightField`).
    static let columns = WeightField.columnList
    static let selectAll = "SELECT \(columns) FROM weight_entries ORDER BY instant, id"
    static let insertRow = "INSERT INTO weight_entries(\(columns)) VALUES(\(WeightField.all.map { _ in "?" }.joined(separator: ", ")))"
    /// Every column but the id set, the id last: bound by `updateValues`.
    static let updateRow = "UPDATE weight_entries SET "
        + WeightField.all.filter { $0.kind != .id }.map { "\($0.column) = ?" }.joined(separator: ", ") + " WHERE id = ?"
    static let deleteRow = "DELETE FROM weight_entries WHERE id = ?"
    /// The lean read: the covering index `weight_entries_by_instant_id` answers it in order.
    static let selectSamples = "SELECT instant, kilograms FROM weight_entries ORDER BY instant, id"
    static let selectLatest = "SELECT \(columns) FROM weight_entries ORDER BY instant DESC, id DESC LIMIT ?"
    static let selectBetween = "SELECT \(columns) FROM weight_entries WHERE instant BETWEEN ? AND ? ORDER BY instant, id"

    static func entry(_ row: SQLiteStatement) -> WeightEntry { WeightEntry.read(row) }

    static func values(_ entry: WeightEntry) -> [SQLValue] { entry.sqlValues }

    /// The values `updateRow` binds: every column but the id, then the id.
    static func updateValues(_ entry: WeightEntry) -> [SQLValue] {
        let fields = WeightField.all.filter { $0.kind != .id } + WeightField.all.filter { $0.kind == .id }
        return fields.map { $0.sqlValue(entry) }
    }

    // MARK: Statements, inside a transaction the caller holds

    /// Every entry, oldest first (by instant, then id).
    public static func all(in connection: SQLiteConnection) throws -> [WeightEntry] {
        try connection.query(selectAll, row: entry)
    }

    /// Every instant and weight, oldest first, and nothing else: no id, no note, no object per row.
    /// - Complexity: one pass over the index.
    public static func samples(in connection: SQLiteConnection) throws -> WeightSamples {
        var samples = WeightSamples()
        // Room for every row up front (the last rowid bounds the count; read from the tree's end, not
        // counted), so a long history is not copied as the arrays grow. Capped: a hostile rowid buys nothing.
        let capacity = min(try connection.scalarInt("SELECT max(rowid) FROM weight_entries") ?? 0, 4_000_000)
        samples.seconds.reserveCapacity(capacity)
        samples.kilograms.reserveCapacity(capacity)
        let statement = try connection.prepare(selectSamples)
        while try statement.step() {
            samples.seconds.append(statement.double(0))
            samples.kilograms.append(statement.double(1))
        }
        return samples
    }

    /// Every weigh-in with body fat from `start` up to `end`, oldest first: instant, weight and percent, and nothing else.
    public static func bodyFatSamples(from start: Double, before end: Double, in connection: SQLiteConnection) throws -> BodyFatSamples {
        var samples = BodyFatSamples()
        let statement = try connection.prepare(
            "SELECT instant, kilograms, body_fat FROM weight_entries WHERE body_fat IS NOT NULL AND instant >= ? AND instant < ? ORDER BY instant, id",
            [.double(start), .double(end)])
        while try statement.step() {
            samples.seconds.append(statement.double(0))
            samples.kilograms.append(statement.double(1))
            samples.percent.append(statement.double(2))
        }
        return samples
    }

    /// The samples as last cached (`weight_samples_cache`, schema 14), or nil
    /// when there is no cache (a weigh-in changed since), or it does not hold
    /// `count` doubles in each array, instants in order and weights the table
    /// accepts. One row, two copies and a pass: no step per weigh-in.
    public static func cachedSamples(in connection: SQLiteConnection) throws -> WeightSamples? {
        let statement = try connection.prepare("SELECT count, seconds, kilograms FROM weight_samples_cache WHERE id = 1")
        guard try statement.step(), let seconds = statement.doubles(1), let kilograms = statement.doubles(2),
              seconds.count == statement.int(0), kilograms.count == seconds.count else { return nil }
        // What the table's rules promise, checked once over the arrays: a damaged row is read past, not trusted.
        var previous = -Double.infinity
        for index in seconds.indices {
            guard seconds[index] >= previous, seconds[index].isFinite, WeightUnit.acceptedKilograms.contains(kilograms[index]) else { return nil }
            previous = seconds[index]
        }
        var samples = WeightSamples()
        samples.seconds = seconds
        samples.kilograms = kilograms
        return samples
    }

    /// Caches `samples`, read from the table at this transaction's moment.
    public static func cacheSamples(_ samples: WeightSamples, in connection: SQLiteConnection) throws {
        try connection.run("""
            INSERT INTO weight_samples_cache(id, count, seconds, kilograms) VALUES (1, ?, ?, ?)
            ON CONFLICT(id) DO UPDATE SET count = excluded.count, seconds = excluded.seconds, kilograms = excluded.kilograms
            """, [.int(samples.count), .doubles(samples.seconds), .doubles(samples.kilograms)])
    }

    /// How many weigh-ins make the cache worth its write in a process that has
    /// written already (after `weigh`, an import): below it the index is read as fast.
    public static let samplesWorthCaching = 2_000
    /// How many make it worth a write that switches journal modes (a read-only
    /// command; a few synced writes, about 5 ms): the index read alone costs more.
    public static let samplesWorthASwitch = 50_000

    /// Calls `body` with every entry from `start` up to `end` (all by
    /// default), oldest first, one row at a time: an export streams a million
    /// rows without holding them.
    public static func forEachEntry(in connection: SQLiteConnection, from start: Double = -.infinity, before end: Double = .infinity,
                                    _ body: (WeightEntry) throws -> Void) throws -> Int {
        let statement = start == -.infinity && end == .infinity ? try connection.prepare(selectAll)
            : try connection.prepare("SELECT \(columns) FROM weight_entries WHERE instant >= ? AND instant < ? ORDER BY instant, id",
                                     [.double(start), .double(end)])
        var count = 0
        while try statement.step() {
            try body(entry(statement))
            count += 1
        }
        return count
    }

    /// Every row, in `selectAll`'s order, copied out `size` rows at a time (`CopiedRows`, its columns read as
    /// `WeightField.cells` says) and handed to `body`, to be read on another thread.
    ///
    /// The order comes from the index alone (its rowids), and the rows from a scan of the table in rowid order
    /// wherever the two agree: rows written in time order (an import, a year of mornings) are read where they
    /// lie, not looked up one by one through the index, the cost `selectAll` pays for every row. A row out of
    /// that order is looked up by its rowid, and the scan passes it over when it gets there; past
    /// `outOfOrderLimit` such rows the scan is left and every row is looked up.
    static func forEachCopiedBatch(of size: Int, in connection: SQLiteConnection, outOfOrderLimit: Int = maximumOutOfOrder,
                                   _ body: (CopiedRows) throws -> Void) throws {
        let order = try connection.prepare("SELECT rowid FROM weight_entries ORDER BY instant, id")
        let scan = try connection.prepare("SELECT \(columns), rowid FROM weight_entries ORDER BY rowid")
        let lookup = try connection.prepare("SELECT \(columns) FROM weight_entries WHERE rowid = ?")
        let rowidColumn = Int32(WeightField.all.count)
        var scanning = try scan.step()
        var takenEarly = Set<Int>()
        var rows = CopiedRows(columns: WeightField.cells, reservingRows: size)
        while try order.step() {
            let wanted = order.int(0)
            while scanning, takenEarly.remove(scan.int(rowidColumn)) != nil { scanning = try scan.step() }
            if scanning, scan.int(rowidColumn) == wanted {
                rows.append(scan)
                scanning = try scan.step()
            } else {
                try lookup.reset([.int(wanted)])
                guard try lookup.step() else { throw StorageError.sqlite(code: 11, message: "database disk image is malformed (weigh-in row \(wanted) is in the index, not in the table)") }
                rows.append(lookup)
                if scanning {
                    takenEarly.insert(wanted)
                    if takenEarly.count > outOfOrderLimit { (scanning, takenEarly) = (false, []) }
                }
            }
            guard rows.count == size else { continue }
            try body(rows)
            rows = CopiedRows(columns: WeightField.cells, reservingRows: size)
        }
        if rows.count > 0 { try body(rows) }
    }

    /// How many rows out of rowid order `forEachCopiedBatch` remembers before it looks up every row.
    static let maximumOutOfOrder = 65_536

    /// Up to `limit` entries past `cursor` (an entry's instant and id; nil
    /// starts at the end), newest first or oldest first, from `start` up to
    /// (not including) `end`: one page of a listing that is never held whole.
    public static func page(after cursor: (instant: Double, id: String)?, newestFirst: Bool, from start: Double, before end: Double,
                            limit: Int, in connection: SQLiteConnection) throws -> [WeightEntry] {
        let order = newestFirst ? "ORDER BY instant DESC, id DESC" : "ORDER BY instant, id"
        guard let cursor else {
            return try connection.query("SELECT \(columns) FROM weight_entries WHERE instant >= ? AND instant < ? \(order) LIMIT ?",
                                        [.double(start), .double(end), .int(limit)], row: entry)
        }
        // Past the cursor is within the range on the cursor's side; the row value lets SQLite seek straight to it.
        let bound = newestFirst ? "instant >= ? AND (instant, id) < (?, ?)" : "(instant, id) > (?, ?) AND instant < ?"
        let values: [SQLValue] = newestFirst ? [.double(start), .double(cursor.instant), .text(cursor.id)]
                                             : [.double(cursor.instant), .text(cursor.id), .double(end)]
        return try connection.query("SELECT \(columns) FROM weight_entries WHERE \(bound) \(order) LIMIT ?", values + [.int(limit)], row: entry)
    }

    /// The entries whose note holds `text`, newest first, at most `limit`.
    /// SQLite's LIKE: ASCII letters match in any case; `%` and `_` in the text are literal.
    public static func entries(noteContaining text: String, limit: Int, in connection: SQLiteConnection) throws -> [WeightEntry] {
        let escaped = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
        return try connection.query(
            "SELECT \(columns) FROM weight_entries WHERE note LIKE ? ESCAPE '\\' ORDER BY instant DESC, id DESC LIMIT ?",
            [.text("%" + escaped + "%"), .int(limit)], row: entry)
    }

    /// The latest `limit` entries, oldest first.
    public static func latest(_ limit: Int, in connection: SQLiteConnection) throws -> [WeightEntry] {
        try connection.query(selectLatest, [.int(limit)], row: entry).reversed()
    }

    /// The entries from `start` to `end` (seconds since 1970, inclusive), oldest first.
    public static func entries(from start: Double, to end: Double, in connection: SQLiteConnection) throws -> [WeightEntry] {
        try connection.query(selectBetween, [.double(start), .double(end)], row: entry)
    }

    public static func insert(_ entry: WeightEntry, in connection: SQLiteConnection) throws {
        try connection.run(insertRow, values(entry))
    }

    /// Replaces the stored entry with the same id; false when there is none.
    public static func update(_ entry: WeightEntry, in connection: SQLiteConnection) throws -> Bool {
        try connection.run(updateRow, updateValues(entry)) > 0
    }

    public static func delete(id: String, in connection: SQLiteConnection) throws -> Bool {
        try connection.run(deleteRow, [.text(id)]) > 0
    }

    /// Adds the entries the table lacks: one with an id already stored, or the
    /// same moment (`WeightEntry.Moment`) as a stored one or an earlier one of
    /// the batch, is a duplicate. Checked inside the writing transaction, so
    /// two imports at once cannot both add the same weigh-in.
    public static func merge(_ entries: [WeightEntry], in connection: SQLiteConnection) throws -> SnapshotMergeCount {
        var merger = try Merger(expecting: entries.count, in: connection)
        for entry in entries {
            try merger.add(entry)
        }
        return try merger.finish()
    }

    /// The ids and moments stored now, the keys a merge or an import preview
    /// checks new rows against, read lean and sized once from the count.
    public static func storedKeys(in connection: SQLiteConnection) throws -> StoredWeightKeys {
        var keys = StoredWeightKeys()
        // Room for every stored key up front: a million are not rehashed (twice the memory, for a moment) as the sets grow.
        let stored = try connection.scalarInt("SELECT count(*) FROM weight_entries") ?? 0
        keys.reserveCapacity(stored)
        let existing = try connection.prepare("SELECT id, instant, kilograms, body_fat FROM weight_entries")
        while try existing.step() {
            _ = keys.ids.insert(existing.text(0))
            keys.remember(WeightEntry.Moment(date: Date(timeIntervalSince1970: existing.double(1)), kilograms: existing.double(2),
                                             bodyFatPercent: existing.optionalDouble(3)))
        }
        return keys
    }

    /// Past this many rows, an insert is written as a bulk one: a larger page
    /// cache, its triggers' work done once (`InsertTriggerPause`), and the
    /// rollback journal where it can be had (`LocalDataStore.write(bulk:)`).
    static let bulkRows = 10_000

    /// A merge fed a batch at a time (a streamed snapshot's weigh-ins): the
    /// stored ids and moments are read once, when it starts. Without
    /// `checkingStored` it only inserts: an import sorts its rows against the
    /// stored keys itself (`StreamedImport`), inside the same transaction.
    struct Merger {
        /// Nil when the rows were checked against what is stored already.
        private var keys: StoredWeightKeys?
        private var insert: BatchedInsert
        private let connection: SQLiteConnection
        private var offered = 0
        /// A large batch's journal images and cache invalidation, done once at the end.
        private let pause: InsertTriggerPause?

        init(expecting count: Int, checkingStored: Bool = true, in connection: SQLiteConnection) throws {
            self.connection = connection
            // A large batch touches many pages of the id index; room for them in
            // memory saves spilling half-built pages to the journal again and again.
            if count > WeightTable.bulkRows { try connection.execute("PRAGMA cache_size = -32768") }
            keys = checkingStored ? try WeightTable.storedKeys(in: connection) : nil
            pause = count > WeightTable.bulkRows ? try InsertTriggerPause(on: "weight_entries", in: connection) : nil
            // OR IGNORE: a batch that repeats an id keeps its first row, as a re-import would.
            insert = BatchedInsert("INSERT OR IGNORE INTO weight_entries(\(WeightTable.columns))", columns: WeightField.all.count, in: connection)
        }

        mutating func add(_ entry: WeightEntry) throws {
            offered += 1
            // Ids within a batch are already distinct (a preview, a validated snapshot): only stored ones are checked.
            if keys != nil {
                guard keys?.ids.contains(entry.id) == false, keys?.remember(entry.moment) == true else { return }
            }
            try insert.add(WeightTable.values(entry))
        }

        mutating func finish() throws -> SnapshotMergeCount {
            let added = try insert.finish()
            try pause?.resume()
            try? connection.execute("PRAGMA cache_size = -2000")  // Only returns memory: a failure changes no data.
            return SnapshotMergeCount(added: added, duplicates: offered - added)
        }
    }
}
