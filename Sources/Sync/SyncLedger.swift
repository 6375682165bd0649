import Foundation
import Storage

/// The sync log's work inside one transaction (DESIGN §8): stamping this
/// installation's new changes with clocks (read from the journal), and
/// merging another installation's: per row the highest clock wins, a
/// tombstone wins over older versions only, `+N` changes add up. Applying
/// the same changes in any order, any number of times, gives the same rows.
struct SyncLedger {
    let installation: String
    let tables: [Int: SyncedTable]
    let byName: [String: SyncedTable]

    init(installation: String, tables: [Int: SyncedTable]) {
        self.installation = installation
        self.tables = tables
        byName = Dictionary(tables.values.map { ($0.table.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    typealias Key = [SQLValue]

    /// Statements prepared once for the ledger's transaction (a long history joining is a hundred thousand rows).
    private final class Prepared {
        var statements: [String: SQLiteStatement] = [:]
        /// Each table's foreign keys (column, parent table, parent column) and unique indexes' columns, read once.
        var foreignKeys: [String: [(String, String, String)]] = [:]
        var uniques: [String: [[String]]] = [:]
        /// Whether each table merges in bulk, by code.
        var bulk: [Int: Bool] = [:]
    }
    private let prepared = Prepared()

    private func statement(_ connection: SQLiteConnection, _ sql: String, _ parameters: [SQLValue]) throws -> SQLiteStatement {
        if let cached = prepared.statements[sql] {
            try cached.reset(parameters)
            return cached
        }
        let made = try connection.prepare(sql, parameters)
        prepared.statements[sql] = made
        return made
    }

    private func query<T>(_ connection: SQLiteConnection, _ sql: String, _ parameters: [SQLValue] = [],
                          row: (SQLiteStatement) throws -> T) throws -> [T] {
        let prepared = try statement(connection, sql, parameters)
        var rows: [T] = []
        while try prepared.step() { rows.append(try row(prepared)) }
        return rows
    }

    @discardableResult
    private func run(_ connection: SQLiteConnection, _ sql: String, _ parameters: [SQLValue] = []) throws -> Int {
        let prepared = try statement(connection, sql, parameters)
        while try prepared.step() {}
        return connection.changes
    }

    // MARK: Meta

    static func meta(_ key: String, in connection: SQLiteConnection) throws -> String? {
        try connection.scalarText("SELECT value FROM meta WHERE key = ?", [.text(key)])
    }

    static func setMeta(_ key: String, _ value: String, in connection: SQLiteConnection) throws {
        try connection.run("INSERT INTO meta(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                           [.text(key), .text(value)])
    }

    private func lastClock(in connection: SQLiteConnection) throws -> (ms: Int, counter: Int) {
        let parts = (try Self.meta("sync.clock", in: connection) ?? "0.0").split(separator: ".").compactMap { Int($0) }
        return parts.count == 2 ? (parts[0], parts[1]) : (0, 0)
    }

    private func saveClock(_ clock: (ms: Int, counter: Int), in connection: SQLiteConnection) throws {
        try Self.setMeta("sync.clock", "\(clock.ms).\(clock.counter)", in: connection)
    }

    /// Moves this installation's clock past one it received, so its later changes order after it.
    func receive(_ clock: SyncClock, in connection: SQLiteConnection) throws {
        let last = try lastClock(in: connection)
        if (clock.ms, clock.counter) > last { try saveClock((clock.ms, clock.counter), in: connection) }
    }

    // MARK: Rows

    private func keyValues(_ key: Key) -> [SQLValue] { key.count == 1 ? [key[0], .text("")] : key }

    private func matchKey(_ table: SyncedTable) -> String {
        table.table.key.map { "\($0) = ?" }.joined(separator: " AND ")
    }

    /// The row's image now, by column; nil when there is no such row.
    func image(_ table: SyncedTable, _ key: Key, in connection: SQLiteConnection) throws -> [String: SQLValue]? {
        let columns = table.table.columns
        return try query(connection, "SELECT \(columns.joined(separator: ", ")) FROM \(table.table.name) WHERE \(matchKey(table))", key) { row in
            var image: [String: SQLValue] = [:]
            for (index, column) in columns.enumerated() { image[column] = row.value(Int32(index)) ?? .null }
            return image
        }.first
    }

    struct Known {
        let clock: SyncClock
        let deleted: Bool
    }

    func known(_ table: SyncedTable, _ key: Key, in connection: SQLiteConnection) throws -> Known? {
        try query(connection, "SELECT ms, counter, origin, deleted FROM sync_rows WHERE table_code = ? AND k0 = ? AND k1 = ?",
                             [.int(table.table.code)] + keyValues(key)) {
            Known(clock: SyncClock(ms: $0.int(0), counter: $0.int(1), origin: $0.text(2)), deleted: $0.int(3) != 0)
        }.first
    }

    private func setKnown(_ table: SyncedTable, _ key: Key, _ clock: SyncClock, deleted: Bool, in connection: SQLiteConnection) throws {
        try run(connection, """
            INSERT INTO sync_rows(table_code, k0, k1, ms, counter, origin, deleted) VALUES(?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT DO UPDATE SET ms = excluded.ms, counter = excluded.counter, origin = excluded.origin, deleted = excluded.deleted
            """, [.int(table.table.code)] + keyValues(key) + [.int(clock.ms), .int(clock.counter), .text(clock.origin), .int(deleted ? 1 : 0)])
    }

    /// The `+N` changes newer than the row's latest version, oldest first.
    private func adds(_ table: SyncedTable, _ key: Key, in connection: SQLiteConnection) throws -> [(clock: SyncClock, amount: Double, image: String)] {
        try query(connection, """
            SELECT ms, counter, origin, amount, image FROM sync_adds WHERE table_code = ? AND k0 = ? AND k1 = ? ORDER BY ms, counter, origin
            """, [.int(table.table.code)] + keyValues(key)) {
            (SyncClock(ms: $0.int(0), counter: $0.int(1), origin: $0.text(2)), $0.double(3), $0.text(4))
        }
    }

    private func forgetAdds(_ table: SyncedTable, _ key: Key, before clock: SyncClock, in connection: SQLiteConnection) throws {
        try run(connection, """
            DELETE FROM sync_adds WHERE table_code = ? AND k0 = ? AND k1 = ? AND (ms, counter, origin) < (?, ?, ?)
            """, [.int(table.table.code)] + keyValues(key) + [.int(clock.ms), .int(clock.counter), .text(clock.origin)])
    }

    private func addAdd(_ table: SyncedTable, _ key: Key, _ clock: SyncClock, _ amount: Double, _ image: [String: SQLValue],
                        in connection: SQLiteConnection) throws -> Bool {
        try run(connection, """
            INSERT OR IGNORE INTO sync_adds(table_code, k0, k1, ms, counter, origin, amount, image) VALUES(?, ?, ?, ?, ?, ?, ?, ?)
            """, [.int(table.table.code)] + keyValues(key) + [.int(clock.ms), .int(clock.counter), .text(clock.origin), .double(amount),
                                                              .text(SyncChange(table: "", key: [.text("")], clock: clock, operation: .set(image)).line())])
        return connection.changes > 0
    }

    // MARK: Stamping this installation's changes

    /// Gives every row changed here since the last sync a new clock and
    /// queues its change in `sync_out`: the rows the journal recorded
    /// (changes that are not syncs, not undone), those an undo or a redo
    /// touched (`sync_dirty`), and, the first time or when the journal has
    /// forgotten changes not yet stamped, every row. Returns how many it queued.
    func stamp(now: Date, in connection: SQLiteConnection) throws -> Int {
        let stamped = try Self.meta("sync.stamped", in: connection).flatMap { Int($0) }
        let latest = try connection.scalarInt("SELECT ifnull(max(id), 0) FROM journal_changes") ?? 0
        var keys: [Int: [Key: Int]] = [:]   // table code → key → changes that touched it
        var madeAt: [[SQLValue]: Date] = [:]  // when the latest of them was made, by the caller's clock
        func touch(_ code: Int, _ key: Key, at: Date = now) {
            keys[code, default: [:]][key, default: 0] += 1
            madeAt[[.int(code)] + key] = max(madeAt[[.int(code)] + key] ?? .distantPast, at)
        }
        var dirty: Set<[SQLValue]> = []
        if let stamped, latest - stamped <= 1_000 {
            let changes = try query(connection, """
                SELECT id, first_seq, last_seq, at FROM journal_changes WHERE id > ? AND undone = 0 AND action <> 'sync' AND rows > 0
                """, [.int(stamped)]) { (id: $0.int(0), first: $0.int(1), last: $0.int(2), at: Date(timeIntervalSince1970: $0.double(3))) }
            for change in changes {
                for table in tables.values {
                    let slots = table.table.key.map { table.table.columns.firstIndex(of: $0)! }
                    let picked = slots.map { "CASE WHEN has_after = 1 THEN a\($0) ELSE b\($0) END" }.joined(separator: ", ")
                    _ = try query(connection, """
                        SELECT DISTINCT \(picked) FROM journal_rows WHERE seq BETWEEN ? AND ? AND table_code = ?
                        """, [.int(change.first), .int(change.last), .int(table.table.code)]) { row in
                        touch(table.table.code, slots.indices.map { row.value(Int32($0)) ?? .null }, at: change.at)
                    }
                    let appends = try query(connection, """
                        SELECT after_rowid, through_rowid FROM journal_appends WHERE change_id = ? AND table_code = ?
                        """, [.int(change.id), .int(table.table.code)]) { ($0.int(0), $0.int(1)) }
                    for (after, through) in appends {
                        _ = try query(connection, "SELECT \(table.table.key.joined(separator: ", ")) FROM \(table.table.name) WHERE rowid > ? AND rowid <= ?",
                                             [.int(after), .int(through)]) { row in
                            touch(table.table.code, slots.indices.map { row.value(Int32($0)) ?? .null }, at: change.at)
                        }
                    }
                }
            }
            _ = try query(connection, "SELECT table_code, k0, k1 FROM sync_dirty") { row in
                let code = row.int(0)
                guard let table = tables[code] else { return }
                let key = table.table.key.count == 1 ? [row.value(1) ?? .null] : [row.value(1) ?? .null, row.value(2) ?? .null]
                touch(code, key)
                dirty.insert([.int(code)] + key)
            }
        } else {
            for table in tables.values {
                let slots = table.table.key.indices
                _ = try query(connection, "SELECT \(table.table.key.joined(separator: ", ")) FROM \(table.table.name)") { row in
                    touch(table.table.code, slots.map { row.value(Int32($0)) ?? .null })
                }
                _ = try query(connection, "SELECT k0, k1 FROM sync_rows WHERE table_code = ? AND deleted = 0", [.int(table.table.code)]) { row in
                    touch(table.table.code, table.table.key.count == 1 ? [row.value(0) ?? .null] : [row.value(0) ?? .null, row.value(1) ?? .null])
                }
                dirty.formUnion(keys[table.table.code, default: [:]].keys.map { [.int(table.table.code)] + $0 })
            }
        }
        // The `+N` notes of the changes stamped now: a row every one of whose changes added is sent as an addition.
        var additions: [[SQLValue]: (amount: Double, changes: Int)] = [:]
        _ = try query(connection, """
            SELECT table_code, k0, k1, sum(amount), count(*) FROM sync_additions WHERE change_id > ?
            AND change_id IN (SELECT id FROM journal_changes WHERE undone = 0) GROUP BY table_code, k0, k1
            """, [.int(stamped ?? .max)]) { row in
            let code = row.int(0)
            guard let table = tables[code] else { return }
            let key = table.table.key.count == 1 ? [row.value(1) ?? .null] : [row.value(1) ?? .null, row.value(2) ?? .null]
            additions[[.int(code)] + key] = (row.double(3), row.int(4))
        }
        try Self.setMeta("sync.stamped", String(latest), in: connection)
        try connection.execute("DELETE FROM sync_dirty; DELETE FROM sync_additions")

        var clock = try lastClock(in: connection)
        var seq = Int(try Self.meta("sync.seq", in: connection) ?? "0") ?? 0
        var queued = 0
        let append = try connection.prepare("INSERT INTO sync_out(seq, line) VALUES(?, ?)")
        // In the order they were made, parents' tables first within one moment.
        let order = keys.flatMap { code, touched in touched.map { (code: code, key: $0.key, touches: $0.value) } }
            .sorted { (madeAt[[.int($0.code)] + $0.key] ?? now, $0.code) < (madeAt[[.int($1.code)] + $1.key] ?? now, $1.code) }
        for (code, key, touches) in order {
            guard let table = tables[code] else { continue }
            guard table.travels(key) else { continue }
            let current = try image(table, key, in: connection)
            let known = try known(table, key, in: connection)
            // Nothing here and nothing known elsewhere: made and removed between two syncs.
            if current == nil, known == nil || known?.deleted == true, try adds(table, key, in: connection).isEmpty { continue }
            // The wall time is when the change was made (an edit made offline keeps its moment), never before a clock seen.
            let stampClock = SyncClock.next(after: clock, now: min(now, madeAt[[.int(code)] + key] ?? now), origin: installation)
            clock = (stampClock.ms, stampClock.counter)
            let operation: SyncChange.Operation
            if let current, let addition = additions[[.int(code)] + key], addition.changes == touches,
               !dirty.contains([.int(code)] + key), table.additive != nil {
                operation = .add(addition.amount, current)
                _ = try addAdd(table, key, stampClock, addition.amount, current, in: connection)
            } else {
                operation = current.map { .set($0) } ?? .delete
                try forgetAdds(table, key, before: SyncClock(ms: .max, counter: 0, origin: ""), in: connection)
                try setKnown(table, key, stampClock, deleted: current == nil, in: connection)
            }
            if known == nil, case .add = operation {
                // A row first made by an addition is known from its first `+N`: an older version elsewhere is older still.
                try setKnown(table, key, SyncClock(ms: 0, counter: 0, origin: ""), deleted: true, in: connection)
            }
            seq += 1
            queued += 1
            try append.reset([.int(seq), .text(SyncChange(table: table.table.name, key: key, clock: stampClock, operation: operation).line())])
            _ = try append.step()
        }
        try saveClock(clock, in: connection)
        try Self.setMeta("sync.seq", String(seq), in: connection)
        return queued
    }

    // MARK: Checkpoints

    /// Every row's latest version this installation knows, with its clock, and the `+N`
    /// changes newer than it: applied anywhere, they give this installation's rows.
    func checkpointLines(in connection: SQLiteConnection) throws -> [String] {
        var lines: [String] = []
        for code in tables.keys.sorted() {
            guard let table = tables[code] else { continue }
            let states = try query(connection, "SELECT k0, k1, ms, counter, origin, deleted FROM sync_rows WHERE table_code = ?", [.int(code)]) {
                (key: table.table.key.count == 1 ? [$0.value(0) ?? .null] : [$0.value(0) ?? .null, $0.value(1) ?? .null],
                 clock: SyncClock(ms: $0.int(2), counter: $0.int(3), origin: $0.text(4)), deleted: $0.int(5) != 0)
            }
            for state in states where state.clock.ms > 0 {
                var operation = SyncChange.Operation.delete
                if !state.deleted, var image = try image(table, state.key, in: connection) ?? parked(table, state.key, in: connection) {
                    if let column = table.additive {
                        let added = try adds(table, state.key, in: connection).reduce(0) { $0 + $1.amount }
                        if added != 0 { image[column] = .double(number(image[column]) - added) }
                    }
                    operation = .set(image)
                }
                lines.append(SyncChange(table: table.table.name, key: state.key, clock: state.clock, operation: operation).line())
            }
            _ = try query(connection, "SELECT k0, k1, ms, counter, origin, amount, image FROM sync_adds WHERE table_code = ?", [.int(code)]) { row in
                let key = table.table.key.count == 1 ? [row.value(0) ?? .null] : [row.value(0) ?? .null, row.value(1) ?? .null]
                guard let image = Self.image(ofLine: row.text(6)) else { return }
                lines.append(SyncChange(table: table.table.name, key: key, clock: SyncClock(ms: row.int(2), counter: row.int(3), origin: row.text(4)),
                                        operation: .add(row.double(5), image)).line())
            }
        }
        return lines
    }

    // MARK: Merging another installation's changes

    /// What applying changes did, for the journal entry and for `sync`.
    struct Applied {
        var rows = 0
        var notes: [String] = []
    }

    /// Why a change cannot be kept here, as a restore checks a row; nil when it can.
    func problem(with change: SyncChange) -> String? {
        guard let table = byName[change.table] else { return nil }
        guard change.key.count == table.table.key.count else { return "a change to \(table.table.noun) has a key of the wrong shape" }
        guard table.travels(change.key) else { return "a change to a \(table.table.noun) that stays on each device" }
        let image: [String: SQLValue]
        switch change.operation {
        case .delete: return nil
        case let .set(row), let .add(_, row): image = row
        }
        for (index, column) in table.table.key.enumerated() where image[column] != change.key[index] {
            return "a change to \(table.table.noun) whose key and row disagree"
        }
        return table.problem(image)
    }

    /// Whether a table's changes can be merged a batch at a time (`applyBulk`): no
    /// additive column, no unique name to rename, no parent and no child among the synced tables.
    func mergesInBulk(_ table: SyncedTable, in connection: SQLiteConnection) throws -> Bool {
        if let known = prepared.bulk[table.table.code] { return known }
        let parents = try query(connection, "SELECT count(*) FROM pragma_foreign_key_list(?)", [.text(table.table.name)]) { $0.int(0) }.first ?? 1
        var bulk = table.additive == nil && table.renamed == nil && parents == 0
        for other in tables.values where other.table.code != table.table.code {
            let references = try query(connection, "SELECT count(*) FROM pragma_foreign_key_list(?) WHERE \"table\" = ?",
                                       [.text(other.table.name), .text(table.table.name)]) { $0.int(0) }.first ?? 1
            if references > 0 { bulk = false }
        }
        prepared.bulk[table.table.code] = bulk
        return bulk
    }

    /// The merge rule for a batch of changes to one table that `mergesInBulk`, in a few statements
    /// instead of a dozen a row: the batch's latest change per row, kept where it is newer than
    /// the row's version here, then written (a row that already holds it is not written again).
    /// The same outcome as `apply` on each change in turn (`SyncConvergenceTests` runs both).
    func applyBulk(_ changes: [SyncChange], table: SyncedTable, from device: String, in connection: SQLiteConnection,
                   applied: inout Applied) throws {
        var latest: [Key: SyncChange] = [:]
        for change in changes where change.key.count == table.table.key.count {
            if let held = latest[change.key], held.clock >= change.clock { continue }
            latest[change.key] = change
        }
        let columns = table.table.columns, code = table.table.code
        let batch = "temp.sync_batch_\(code)"
        let slots = columns.indices.map { "c\($0)" }
        try connection.execute("""
            CREATE TEMP TABLE IF NOT EXISTS sync_batch_\(code)(k0, k1, ms, counter, origin, op, \(slots.joined(separator: ", ")));
            DELETE FROM \(batch);
            """)
        var defaults: [String: SQLValue] = [:]
        for column in columns { defaults[column] = try defaultValue(table.table.name, column, in: connection) }
        let insert = "INSERT INTO \(batch) VALUES(\(Array(repeating: "?", count: 6 + columns.count).joined(separator: ", ")))"
        for change in latest.values {
            var values = keyValues(change.key) + [.int(change.clock.ms), .int(change.clock.counter), .text(change.clock.origin)]
            if case let .set(image) = change.operation {
                values.append(.text("set"))
                values += columns.map { image[$0] ?? defaults[$0] ?? .null }
            } else {
                values.append(.text("del"))
                values += columns.map { _ in SQLValue.null }
            }
            try run(connection, insert, values)
        }
        // An older change than the row's version here is passed over; an edit of a row deleted later says so.
        let known = "SELECT 1 FROM sync_rows r WHERE r.table_code = \(code) AND r.k0 = b.k0 AND r.k1 = b.k1"
        let stale = try query(connection, """
            SELECT b.k0 FROM \(batch) b WHERE b.op = 'set' AND EXISTS (\(known) AND r.deleted = 1 AND r.ms > 0
                AND (r.ms, r.counter, r.origin) >= (b.ms, b.counter, b.origin))
            """) { $0.value(0) ?? .null }
        for key in stale.prefix(20) {
            applied.notes.append("\(device) changed the \(table.table.noun) \(keyShown(table, [key])), which was deleted later; it stays deleted")
        }
        try run(connection, "DELETE FROM \(batch) AS b WHERE EXISTS (\(known) AND (r.ms, r.counter, r.origin) >= (b.ms, b.counter, b.origin))")
        try run(connection, """
            INSERT INTO sync_rows(table_code, k0, k1, ms, counter, origin, deleted)
            SELECT \(code), k0, k1, ms, counter, origin, op = 'del' FROM \(batch) WHERE true
            ON CONFLICT DO UPDATE SET ms = excluded.ms, counter = excluded.counter, origin = excluded.origin, deleted = excluded.deleted
            """)
        let key = table.table.key
        let batchKeys = key.indices.map { "k\($0)" }.joined(separator: ", ")
        try run(connection, "DELETE FROM \(table.table.name) WHERE (\(key.joined(separator: ", "))) IN (SELECT \(batchKeys) FROM \(batch) WHERE op = 'del')")
        applied.rows += connection.changes
        // Rows new here go in first, as an import adds them: a large batch with the table's per-row triggers paused.
        let new = "SELECT \(slots.joined(separator: ", ")) FROM \(batch) WHERE op = 'set' AND (\(batchKeys)) NOT IN (SELECT \(key.joined(separator: ", ")) FROM \(table.table.name))"
        let pause = latest.count > 1_000 && table.table.rowidSlot != nil ? try InsertTriggerPause(on: table.table.name, in: connection) : nil
        try run(connection, "INSERT INTO \(table.table.name)(\(columns.joined(separator: ", "))) \(new)")
        applied.rows += connection.changes
        try pause?.resume()
        let others = columns.filter { !key.contains($0) }
        let differs = others.map { "\(table.table.name).\($0) IS NOT excluded.\($0)" }.joined(separator: " OR ")
        try run(connection, """
            INSERT INTO \(table.table.name)(\(columns.joined(separator: ", "))) SELECT \(slots.joined(separator: ", ")) FROM \(batch) WHERE op = 'set'
            ON CONFLICT(\(key.joined(separator: ", "))) DO UPDATE SET \(others.map { "\($0) = excluded.\($0)" }.joined(separator: ", "))
            WHERE \(differs.isEmpty ? "false" : differs)
            """)
        applied.rows += connection.changes
    }

    /// Applies one change from another installation, by the merge rule.
    func apply(_ change: SyncChange, from device: String, in connection: SQLiteConnection, applied: inout Applied) throws {
        guard let table = byName[change.table] else { return }
        let key = change.key
        let known = try known(table, key, in: connection)
        let noun = table.table.noun
        let shown = keyShown(table, key)
        switch change.operation {
        case .set, .delete:
            if let known, known.clock >= change.clock {
                if case .set = change.operation, known.deleted, known.clock.ms > 0 {
                    applied.notes.append("\(device) changed the \(noun) \(shown), which was deleted later; it stays deleted")
                }
                return
            }
            try setKnown(table, key, change.clock, deleted: change.operation == .delete, in: connection)
            try forgetAdds(table, key, before: change.clock, in: connection)
            let remaining = try adds(table, key, in: connection)
            var target: [String: SQLValue]?
            if case let .set(image) = change.operation {
                target = image
                if let column = table.additive, !remaining.isEmpty {
                    target?[column] = .double(number(image[column]) + remaining.reduce(0) { $0 + $1.amount })
                }
                if known?.deleted == true, known?.clock.ms ?? 0 > 0, try self.image(table, key, in: connection) == nil {
                    applied.notes.append("\(device) changed the \(noun) \(shown) after it was deleted here; it is back")
                }
            } else if let column = table.additive, let first = remaining.first, var image = Self.image(ofLine: first.image) {
                image[column] = .double(remaining.reduce(0) { $0 + $1.amount })
                target = image
            }
            try write(target, table, key, clock: change.clock, in: connection, applied: &applied)
        case let .add(amount, image):
            if let known, known.clock >= change.clock { return }
            guard let column = table.additive, try addAdd(table, key, change.clock, amount, image, in: connection) else { return }
            var target: [String: SQLValue]
            // A row waiting for its parent (parked) is added to as if it were here.
            if let current = try self.image(table, key, in: connection) ?? parked(table, key, in: connection) {
                target = current
                target[column] = .double(number(current[column]) + amount)
            } else {
                let remaining = try adds(table, key, in: connection)
                target = remaining.first.flatMap { Self.image(ofLine: $0.image) } ?? image
                target[column] = .double(remaining.reduce(0) { $0 + $1.amount })
            }
            if known == nil { try setKnown(table, key, SyncClock(ms: 0, counter: 0, origin: ""), deleted: true, in: connection) }
            try write(target, table, key, clock: change.clock, in: connection, applied: &applied)
        }
    }

    private func number(_ value: SQLValue?) -> Double {
        switch value {
        case let .int(number)?: Double(number)
        case let .double(number)?: number
        default: 0
        }
    }

    private func keyShown(_ table: SyncedTable, _ key: Key) -> String {
        let text = key.map { value -> String in
            switch value {
            case let .text(text): String(text.prefix(table.table.keyShownAs ?? 40))
            case let .int(number): String(number)
            default: "?"
            }
        }.joined(separator: " ")
        return "'\(text)'"
    }

    static func image(ofLine line: String) -> [String: SQLValue]? {
        guard let change = SyncChange.parse(Array(line.utf8)), case let .set(image) = change.operation else { return nil }
        return image
    }

    /// Puts the row as the merge decided (nil: no row): parked when its parent row is not here yet,
    /// renamed when another row holds its unique name (the later of the two takes the new name, on every device).
    private func write(_ target: [String: SQLValue]?, _ table: SyncedTable, _ key: Key, clock: SyncClock,
                       in connection: SQLiteConnection, applied: inout Applied) throws {
        let name = table.table.name
        try run(connection, "DELETE FROM sync_parked WHERE table_code = ? AND k0 = ? AND k1 = ?", [.int(table.table.code)] + keyValues(key))
        guard var target else {
            try parkChildren(of: table, key, in: connection)
            try run(connection, "DELETE FROM \(name) WHERE \(matchKey(table))", key)
            applied.rows += connection.changes
            return
        }
        let columns = table.table.columns
        target = target.filter { columns.contains($0.key) }
        for column in columns where target[column] == nil { target[column] = try defaultValue(name, column, in: connection) }
        guard try parentsExist(target, table, in: connection) else {
            try run(connection, "INSERT OR REPLACE INTO sync_parked(table_code, k0, k1, image) VALUES(?, ?, ?, ?)",
                               [.int(table.table.code)] + keyValues(key)
                                   + [.text(SyncChange(table: name, key: key, clock: clock, operation: .set(target)).line())])
            return
        }
        target = try resolvingUnique(target, table, key, clock: clock, in: connection)
        if try image(table, key, in: connection) == target { return }
        let updates = columns.filter { !table.table.key.contains($0) }.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        try run(connection, """
            INSERT INTO \(name)(\(columns.joined(separator: ", "))) VALUES(\(columns.map { _ in "?" }.joined(separator: ", ")))
            ON CONFLICT(\(table.table.key.joined(separator: ", "))) DO UPDATE SET \(updates)
            """, columns.map { target[$0] ?? .null })
        applied.rows += 1
    }

    /// Before a row from another device's delete goes, the rows that hang
    /// from it (a habit's days), which the database deletes with it, are
    /// parked: a later version of the parent from a third device brings them back as on every other device.
    private func parkChildren(of parent: SyncedTable, _ key: Key, in connection: SQLiteConnection) throws {
        guard let image = try image(parent, key, in: connection) else { return }
        for child in tables.values where child.table.code != parent.table.code {
            let references = try query(connection, "SELECT \"from\", \"to\" FROM pragma_foreign_key_list(?) WHERE \"table\" = ?",
                                                  [.text(child.table.name), .text(parent.table.name)]) { ($0.text(0), $0.text(1)) }
            for (from, to) in references {
                let columns = child.table.columns
                let rows = try query(connection, "SELECT \(columns.joined(separator: ", ")) FROM \(child.table.name) WHERE \(from) = ?",
                                                [image[to] ?? .null]) { row in
                    Dictionary(uniqueKeysWithValues: columns.enumerated().map { ($0.element, row.value(Int32($0.offset)) ?? .null) })
                }
                for row in rows {
                    let childKey = child.table.key.map { row[$0] ?? .null }
                    let clock = try known(child, childKey, in: connection)?.clock ?? SyncClock(ms: 0, counter: 0, origin: "")
                    try run(connection, "INSERT OR REPLACE INTO sync_parked(table_code, k0, k1, image) VALUES(?, ?, ?, ?)",
                                       [.int(child.table.code)] + keyValues(childKey)
                                           + [.text(SyncChange(table: child.table.name, key: childKey, clock: clock, operation: .set(row)).line())])
                }
            }
        }
    }

    private func parked(_ table: SyncedTable, _ key: Key, in connection: SQLiteConnection) throws -> [String: SQLValue]? {
        try query(connection, "SELECT image FROM sync_parked WHERE table_code = ? AND k0 = ? AND k1 = ?", [.int(table.table.code)] + keyValues(key)) {
            Self.image(ofLine: $0.text(0))
        }.first ?? nil
    }

    /// Rows parked for a parent that has come since, now written.
    func unpark(in connection: SQLiteConnection, applied: inout Applied) throws {
        let parked = try query(connection, "SELECT table_code, image FROM sync_parked") { ($0.int(0), $0.text(1)) }
        for (code, line) in parked {
            guard let table = tables[code], let change = SyncChange.parse(Array(line.utf8)), case let .set(image) = change.operation,
                  try parentsExist(image, table, in: connection) else { continue }
            try write(image, table, change.key, clock: change.clock, in: connection, applied: &applied)
        }
    }

    private func defaultValue(_ table: String, _ column: String, in connection: SQLiteConnection) throws -> SQLValue {
        let info = try query(connection, "SELECT name, dflt_value FROM pragma_table_info(?)", [.text(table)]) { ($0.text(0), $0.optionalText(1)) }
        guard let found = info.first(where: { $0.0 == column })?.1 else { return .null }
        if let number = Int(found) { return .int(number) }
        if let number = Double(found) { return .double(number) }
        if found.hasPrefix("'"), found.hasSuffix("'"), found.count >= 2 { return .text(String(found.dropFirst().dropLast())) }
        return .null
    }

    private func parentsExist(_ image: [String: SQLValue], _ table: SyncedTable, in connection: SQLiteConnection) throws -> Bool {
        let keys = try prepared.foreignKeys[table.table.name]
            ?? query(connection, "SELECT \"table\", \"from\", \"to\" FROM pragma_foreign_key_list(?)", [.text(table.table.name)]) {
                ($0.text(0), $0.text(1), $0.text(2))
            }
        prepared.foreignKeys[table.table.name] = keys
        for (parent, from, to) in keys {
            guard let value = image[from], value != .null else { continue }
            if try connection.scalarInt("SELECT count(*) FROM \(parent) WHERE \(to) = ?", [value]) == 0 { return false }
        }
        return true
    }

    /// The row, renamed if another row holds its unique columns: of the two, the one with the later clock is renamed.
    private func resolvingUnique(_ image: [String: SQLValue], _ table: SyncedTable, _ key: Key, clock: SyncClock,
                                 in connection: SQLiteConnection) throws -> [String: SQLValue] {
        guard let renamed = table.renamed else { return image }
        let name = table.table.name
        if prepared.uniques[name] == nil {
            let indexes = try query(connection, "SELECT name FROM pragma_index_list(?) WHERE \"unique\" = 1 AND origin = 'u'", [.text(name)]) { $0.text(0) }
            prepared.uniques[name] = try indexes.map { index in try query(connection, "SELECT name FROM pragma_index_info(?)", [.text(index)]) { $0.text(0) } }
        }
        var image = image
        for columns in prepared.uniques[name] ?? [] {
            func holder(of row: [String: SQLValue]) throws -> Key? {
                let match = columns.map { "\($0) IS ?" }.joined(separator: " AND ")
                let other = table.table.key.map { "\($0) IS ?" }.joined(separator: " AND ")
                return try query(connection, """
                    SELECT \(table.table.key.joined(separator: ", ")) FROM \(name) WHERE \(match) AND NOT (\(other)) LIMIT 1
                    """, columns.map { row[$0] ?? .null } + key) { row in table.table.key.indices.map { row.value(Int32($0)) ?? .null } }.first
            }
            guard let other = try holder(of: image) else { continue }
            let otherClock = try known(table, other, in: connection)?.clock ?? SyncClock(ms: 0, counter: 0, origin: "")
            if clock > otherClock {
                for n in 2...99 {
                    let candidate = renamed(image, n)
                    if try holder(of: candidate) == nil { image = candidate; break }
                }
                try markDirty(table, key, in: connection)
            } else if var held = try self.image(table, other, in: connection) {
                for n in 2...99 {
                    let candidate = renamed(held, n)
                    if try holder(of: candidate) == nil { held = candidate; break }
                }
                let changed = table.table.columns.filter { !table.table.key.contains($0) }
                try run(connection, "UPDATE \(name) SET \(changed.map { "\($0) = ?" }.joined(separator: ", ")) WHERE \(matchKey(table))",
                                   changed.map { held[$0] ?? .null } + other)
                try markDirty(table, other, in: connection)
            }
        }
        return image
    }

    private func markDirty(_ table: SyncedTable, _ key: Key, in connection: SQLiteConnection) throws {
        try run(connection, "INSERT OR IGNORE INTO sync_dirty(table_code, k0, k1) VALUES(?, ?, ?)", [.int(table.table.code)] + keyValues(key))
    }
}
