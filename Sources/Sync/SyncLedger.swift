import Foundation
import Storage
import TextFormats

/// The sync log's work inside one transaction (DESIGN §8): stamping this
/// installation's new changes with clocks (read from the journal), and
/// merging another installation's: per row the highest clock wins, a
/// tombstone wins over older versions only, `+N` changes add up. Applying
/// the same changes in any order, any number of times, gives the same rows.
struct SyncLedger {
    let installation: String
    let tables: [Int: SyncedTable]
    let byName: [String: SyncedTable]
    /// The person's time zone, in which notes name the rows they are about.
    let timeZone: TimeZone

    init(installation: String, tables: [Int: SyncedTable], timeZone: TimeZone = TimeZone(secondsFromGMT: 0) ?? .current) {
        self.installation = installation
        self.tables = tables
        self.timeZone = timeZone
        byName = Dictionary(tables.values.map { ($0.table.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    typealias Key = [SQLValue]

    /// Statements prepared once for the ledger's transaction (a long history joining is a hundred thousand rows).
    final class Prepared {
        var statements: [String: SQLiteStatement] = [:]
        /// Each table's foreign keys (column, parent table, parent column) and unique indexes' columns, read once.
        var foreignKeys: [String: [(String, String, String)]] = [:]
        var uniques: [String: [[String]]] = [:]
        /// Whether each table merges in bulk, by code.
        var bulk: [Int: Bool] = [:]
        /// Each table's columns' defaults, in column order, by code.
        var defaults: [Int: [SQLValue]] = [:]
        /// For a table this device knew no version of when the transaction first merged into it (a device joining):
        /// the hashes of the keys whose versions the bulk merge has written since, the only versions it can hold.
        /// Nil for a table that had versions, whose every key is looked up. By code.
        var written: [Int: Set<Int>?] = [:]
        /// Rows found to be one thing made on two devices (`SyncedTable.same`), to become one when the merge is done.
        var united: [Uniting] = []
    }
    let prepared = Prepared()

    func statement(_ connection: SQLiteConnection, _ sql: String, _ parameters: [SQLValue]) throws -> SQLiteStatement {
        if let cached = prepared.statements[sql] {
            try cached.reset(parameters)
            return cached
        }
        let made = try connection.prepare(sql, parameters)
        prepared.statements[sql] = made
        return made
    }

    func query<T>(_ connection: SQLiteConnection, _ sql: String, _ parameters: [SQLValue] = [],
                          row: (SQLiteStatement) throws -> T) throws -> [T] {
        let prepared = try statement(connection, sql, parameters)
        var rows: [T] = []
        while try prepared.step() { rows.append(try row(prepared)) }
        return rows
    }

    @discardableResult
    func run(_ connection: SQLiteConnection, _ sql: String, _ parameters: [SQLValue] = []) throws -> Int {
        let prepared = try statement(connection, sql, parameters)
        while try prepared.step() {}
        return connection.changes
    }

    // MARK: Meta

    /// The marks a sync keeps in `meta`: the journal's last change stamped, this device's last change written
    /// out in a segment, and the last its checkpoint covers.
    enum Mark {
        static let stamped = "sync.stamped", written = "sync.written", checkpoint = "sync.checkpoint"
    }

    static func meta(_ key: String, in connection: SQLiteConnection) throws -> String? {
        try connection.metaValue(key)
    }

    static func setMeta(_ key: String, _ value: String, in connection: SQLiteConnection) throws {
        try connection.setMetaValue(value, for: key)
    }

    func lastClock(in connection: SQLiteConnection) throws -> (ms: Int, counter: Int) {
        let parts = (try Self.meta("sync.clock", in: connection) ?? "0.0").split(separator: ".").compactMap { Int($0) }
        return parts.count == 2 ? (parts[0], parts[1]) : (0, 0)
    }

    func saveClock(_ clock: (ms: Int, counter: Int), in connection: SQLiteConnection) throws {
        try Self.setMeta("sync.clock", "\(clock.ms).\(clock.counter)", in: connection)
    }

    /// Moves this installation's clock past one it received, so its later changes order after it.
    func receive(_ clock: SyncClock, in connection: SQLiteConnection) throws {
        let last = try lastClock(in: connection)
        if (clock.ms, clock.counter) > last { try saveClock((clock.ms, clock.counter), in: connection) }
    }

    // MARK: Rows

    func keyValues(_ key: Key) -> [SQLValue] { [keyValue(key, 0), keyValue(key, 1)] }

    /// A key's value in `sync_rows`' column k0 or k1: a one-column key has `''` for k1.
    func keyValue(_ key: Key, _ slot: Int) -> SQLValue { slot < key.count ? key[slot] : .text("") }

    func matchKey(_ table: SyncedTable) -> String {
        table.table.key.map { "\($0) = ?" }.joined(separator: " AND ")
    }

    /// The row's image now, by column; nil when there is no such row.
    func image(_ table: SyncedTable, _ key: Key, in connection: SQLiteConnection) throws -> RowImage? {
        let columns = table.table.columns
        return try query(connection, "SELECT \(columns.joined(separator: ", ")) FROM \(table.table.name) WHERE \(matchKey(table))", key) { row in
            Self.image(columns, of: row)
        }.first
    }

    /// A row's image by column, from `columns` selected in that order from `first` on.
    static func image(_ columns: [String], of row: SQLiteStatement, from first: Int = 0) -> RowImage {
        RowImage(columns: columns, values: columns.indices.map { row.value(Int32(first + $0)) ?? .null })
    }

    /// Whether this device knows a version of any row of `table` (it has synced it, or received one).
    func knowsVersions(of table: SyncedTable, in connection: SQLiteConnection) throws -> Bool {
        try connection.scalarInt("SELECT EXISTS (SELECT 1 FROM sync_rows WHERE table_code = ?)", [.int(table.table.code)]) == 1
    }

    /// What this device knows of a row's versions (`sync_rows`).
    struct Known: Equatable {
        /// The row's clock: its newest column's, or its tombstone's while it is deleted.
        let clock: SyncClock
        let deleted: Bool
        /// The row as sync last left it here (`digest(_:of:)`), nil for none.
        let digest: Int?
        /// Its columns' clocks where they differ from `clock` (a deleted row's: every column of `image`), and an
        /// older tombstone under `ColumnClocks.tombstone`.
        var columns = ColumnClocks()
        /// A deleted row's image as it last stood, its columns' versions: a later edit from a device that did not
        /// see the delete brings them back as on every other device.
        var image: RowImage?

        init(clock: SyncClock, deleted: Bool, digest: Int?, columns: ColumnClocks = ColumnClocks(), image: RowImage? = nil) {
            (self.clock, self.deleted, self.digest, self.columns, self.image) = (clock, deleted, digest, columns, image)
        }

        /// Read from `sync_rows`' ms, counter, origin, deleted, digest, clocks and image, from `first` on.
        init(row: SQLiteStatement, from first: Int32) {
            clock = SyncClock(ms: row.int(first), counter: row.int(first + 1), origin: row.text(first + 2))
            deleted = row.int(first + 3) != 0
            digest = row.optionalInt(first + 4)
            columns = row.optionalText(first + 5).flatMap(ColumnClocks.init(text:)) ?? ColumnClocks()
            image = row.optionalText(first + 6).flatMap { SyncLedger.image(ofLine: $0) }
        }

        /// The columns `init(row:from:)` reads.
        static let selected = "ms, counter, origin, deleted, digest, clocks, image"
    }

    /// A row's values in its table's column order, with their digest: made on the threads that read a
    /// segment's lines, so the bulk merge, on one thread, takes them as they are.
    struct Row: Sendable, Equatable {
        let values: [SQLValue]
        let digest: Int

        /// The row of `image` in `columns`' order, a column it lacks at its default (by place in `defaults`).
        init(_ image: RowImage, columns: [String], defaults: [SQLValue]) {
            values = image.values(in: columns) { defaults[$0] }
            digest = SyncLedger.digest(values)
        }

        /// The row of an image that holds every column, nil for one that lacks any (its default is the database's to say).
        init?(_ image: RowImage, columns: [String]) {
            struct Lacking: Error {}
            guard let values = try? image.values(in: columns, missing: { _ in throw Lacking() }) else { return nil }
            self.values = values
            digest = SyncLedger.digest(values)
        }
    }

    /// A digest of a row's values (FNV-1a, 64 bits, over its columns in order, numbers as doubles):
    /// equal digests mean the row has not changed since sync last wrote or sent it.
    func digest(_ image: RowImage?, of table: SyncedTable) -> Int? {
        guard let image else { return nil }
        return Self.digest(table.table.columns.map { image[$0] ?? .null })
    }

    /// The digest of a row's values given in its table's column order (see `digest(_:of:)`).
    static func digest(_ values: [SQLValue]) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ byte: UInt8) { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        func mix(_ text: String) {
            var text = text
            text.withUTF8 { for byte in $0 { mix(byte) } }
        }
        // A number's text is `String(number)`, written as CanonicalJSON writes it (the same text, without
        // making a String: a long history joining digests a hundred thousand rows).
        var number = CanonicalJSON(reservingCapacity: 32)
        func mixNumber(_ value: Double) {
            number.removeAll()
            number.number(value)
            for byte in number.bytes { mix(byte) }
        }
        for value in values {
            switch value {
            case .null, .doubles: mix(0)
            case let .int(integer): mix(1); mixNumber(Double(integer))
            case let .double(double): mix(1); mixNumber(double)
            case let .text(text): mix(2); mix(text)
            }
            mix(0xFF)
        }
        return Int(bitPattern: UInt(hash))
    }

    /// Records what the row holds now, as sync leaves it.
    func recordDigest(_ table: SyncedTable, _ key: Key, _ image: RowImage?, in connection: SQLiteConnection) throws {
        try run(connection, "UPDATE sync_rows SET digest = ? WHERE table_code = ? AND k0 = ? AND k1 = ?",
                [digest(image, of: table).map(SQLValue.int) ?? .null, .int(table.table.code)] + keyValues(key))
    }

    func known(_ table: SyncedTable, _ key: Key, in connection: SQLiteConnection) throws -> Known? {
        try query(connection, "SELECT \(Known.selected) FROM sync_rows WHERE table_code = ? AND k0 = ? AND k1 = ?",
                             [.int(table.table.code)] + keyValues(key)) { Known(row: $0, from: 0) }.first
    }

    /// Records a row's versions (its digest is `recordDigest`'s to set).
    func setKnown(_ table: SyncedTable, _ key: Key, _ known: Known, in connection: SQLiteConnection) throws {
        let image = known.image.map { SyncChange(table: "", key: [.text("")], clock: known.clock, operation: .set($0)).line() }
        try run(connection, """
            INSERT INTO sync_rows(table_code, k0, k1, ms, counter, origin, deleted, clocks, image) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT DO UPDATE SET ms = excluded.ms, counter = excluded.counter, origin = excluded.origin, deleted = excluded.deleted,
                clocks = excluded.clocks, image = excluded.image
            """, [.int(table.table.code)] + keyValues(key)
                + [.int(known.clock.ms), .int(known.clock.counter), .text(known.clock.origin), .int(known.deleted ? 1 : 0),
                   known.columns.isEmpty ? .null : .text(known.columns.text), image.map(SQLValue.text) ?? .null])
    }

    /// The `+N` changes newer than the row's latest version, oldest first.
    func adds(_ table: SyncedTable, _ key: Key, in connection: SQLiteConnection) throws -> [(clock: SyncClock, amount: Double, image: String)] {
        try query(connection, """
            SELECT ms, counter, origin, amount, image FROM sync_adds WHERE table_code = ? AND k0 = ? AND k1 = ? ORDER BY ms, counter, origin
            """, [.int(table.table.code)] + keyValues(key)) {
            (SyncClock(ms: $0.int(0), counter: $0.int(1), origin: $0.text(2)), $0.double(3), $0.text(4))
        }
    }

    /// Forgets the `+N` changes at or before `clock`: a newer set of the column, or a tombstone, has passed them.
    func forgetAdds(_ table: SyncedTable, _ key: Key, through clock: SyncClock, in connection: SQLiteConnection) throws {
        try run(connection, """
            DELETE FROM sync_adds WHERE table_code = ? AND k0 = ? AND k1 = ? AND (ms, counter, origin) <= (?, ?, ?)
            """, [.int(table.table.code)] + keyValues(key) + [.int(clock.ms), .int(clock.counter), .text(clock.origin)])
    }

    /// Keeps an addition (`change`, an `.add`) until a newer set or tombstone passes it; false when it was kept already.
    func addAdd(_ table: SyncedTable, _ change: SyncChange, in connection: SQLiteConnection) throws -> Bool {
        guard case let .add(amount, image) = change.operation else { return false }
        let clock = change.clock
        let line = SyncChange(table: "", key: [.text("")], clock: clock, operation: .set(image), older: change.older).line()
        try run(connection, """
            INSERT OR IGNORE INTO sync_adds(table_code, k0, k1, ms, counter, origin, amount, image) VALUES(?, ?, ?, ?, ?, ?, ?, ?)
            """, [.int(table.table.code)] + keyValues(change.key) + [.int(clock.ms), .int(clock.counter), .text(clock.origin), .double(amount),
                                                                     .text(line)])
        return connection.changes > 0
    }
}
