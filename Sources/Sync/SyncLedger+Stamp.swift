import Foundation
import Storage

/// Stamping this installation's changes: the journal says which rows changed, each gets a clock.
extension SyncLedger {
    /// Gives every row changed here since the last sync a new clock and
    /// queues its change in `sync_out`: the rows the journal recorded
    /// (changes that are not syncs, not undone), those an undo or a redo
    /// touched (`sync_dirty`), and, the first time or when the journal has
    /// forgotten changes not yet stamped, every row. Returns how many it queued.
    func stamp(now: Date, in connection: SQLiteConnection) throws -> Int {
        let stamped = try Self.meta(Mark.stamped, in: connection).flatMap { Int($0) }
        // The journal's latest change but the one this sync is recording: a sync that changes nothing leaves no
        // change behind, and a mark past the journal's end made every later sync stamp again, in a write.
        let latest = try connection.scalarInt(
            "SELECT ifnull(max(id), 0) FROM journal_changes WHERE id IS NOT (SELECT change_id FROM journal_recording WHERE id = 1)") ?? 0
        var keys: [Int: [Key: Int]] = [:]   // table code → key → changes that touched it
        var madeAt: [[SQLValue]: Date] = [:]  // when the latest of them was made, by the caller's clock
        var touchOrder: [[SQLValue]: Int] = [:]  // the order rows were first met in (an import's: its rows' order)
        func touch(_ code: Int, _ key: Key, at: Date = now) {
            if keys[code]?[key] == nil { touchOrder[[.int(code)] + key] = touchOrder.count }
            keys[code, default: [:]][key, default: 0] += 1
            madeAt[[.int(code)] + key] = max(madeAt[[.int(code)] + key] ?? .distantPast, at)
        }
        /// The columns an undo or a redo changed, by row (nil: every column).
        var dirty: [[SQLValue]: Set<String>?] = [:]
        /// Each row as it stood before this device's first change of it since the last stamp (nil: the change made it),
        /// read from the journal: the columns that differ from it are the ones this device set.
        var before: [[SQLValue]: RowImage?] = [:]
        var whole: [SyncedTable] = []
        if let stamped, latest - stamped <= 1_000 {
            let changes = try query(connection, """
                SELECT id, first_seq, last_seq, at FROM journal_changes WHERE id > ? AND undone = 0 AND action <> 'sync' AND rows > 0
                """, [.int(stamped)]) { (id: $0.int(0), first: $0.int(1), last: $0.int(2), at: Date(timeIntervalSince1970: $0.double(3))) }
            for change in changes {
                for table in tables.values {
                    let columns = table.table.columns
                    let slots = table.table.key.map { columns.firstIndex(of: $0)! }
                    let picked = slots.map { "CASE WHEN has_after = 1 THEN a\($0) ELSE b\($0) END" }.joined(separator: ", ")
                    // The bare columns of an aggregate with min() come from the row that has the minimum: the first image.
                    _ = try query(connection, """
                        SELECT \(picked), min(seq), has_before, \(columns.indices.map { "b\($0)" }.joined(separator: ", "))
                        FROM journal_rows WHERE seq BETWEEN ? AND ? AND table_code = ?
                        GROUP BY \(picked) ORDER BY min(seq)
                        """, [.int(change.first), .int(change.last), .int(table.table.code)]) { row in
                        let key = slots.indices.map { row.value(Int32($0)) ?? .null }
                        touch(table.table.code, key, at: change.at)
                        let full = [.int(table.table.code)] + key
                        if before[full] == nil {
                            before[full] = row.int(Int32(slots.count + 1)) == 1 ? Self.image(columns, of: row, from: slots.count + 2) : .some(nil)
                        }
                    }
                    let appends = try query(connection, """
                        SELECT after_rowid, through_rowid FROM journal_appends WHERE change_id = ? AND table_code = ?
                        """, [.int(change.id), .int(table.table.code)]) { ($0.int(0), $0.int(1)) }
                    for (after, through) in appends {
                        _ = try query(connection, "SELECT \(table.table.key.joined(separator: ", ")) FROM \(table.table.name) WHERE rowid > ? AND rowid <= ?",
                                             [.int(after), .int(through)]) { row in
                            let key = slots.indices.map { row.value(Int32($0)) ?? .null }
                            touch(table.table.code, key, at: change.at)
                            if before[[.int(table.table.code)] + key] == nil { before[[.int(table.table.code)] + key] = .some(nil) }
                        }
                    }
                }
            }
            _ = try query(connection, "SELECT table_code, k0, k1, columns FROM sync_dirty") { row in
                let code = row.int(0)
                guard let table = tables[code] else { return }
                let key = table.table.key.count == 1 ? [row.value(1) ?? .null] : [row.value(1) ?? .null, row.value(2) ?? .null]
                touch(code, key)
                let mask = row.int(3)
                let columns = table.table.columns
                dirty[[.int(code)] + key] = mask < 0 ? .some(nil) : Set(columns.indices.filter { mask & (1 << $0) != 0 }.map { columns[$0] })
            }
        } else {
            for table in tables.values {
                // A table whose rows this device has never stamped, and which merges in bulk, is stamped whole below.
                if try stampsWhole(table, in: connection) {
                    whole.append(table)
                    continue
                }
                let slots = table.table.key.indices
                // In the order the rows came (rowid), where the table keeps one: an import's rows go out in its order.
                let arrival = table.table.rowidSlot == nil ? "" : " ORDER BY rowid"
                _ = try query(connection, "SELECT \(table.table.key.joined(separator: ", ")) FROM \(table.table.name)\(arrival)") { row in
                    touch(table.table.code, slots.map { row.value(Int32($0)) ?? .null })
                }
                _ = try query(connection, "SELECT k0, k1 FROM sync_rows WHERE table_code = ? AND deleted = 0", [.int(table.table.code)]) { row in
                    touch(table.table.code, table.table.key.count == 1 ? [row.value(0) ?? .null] : [row.value(0) ?? .null, row.value(1) ?? .null])
                }
                for key in keys[table.table.code, default: [:]].keys { dirty[[.int(table.table.code)] + key] = .some(nil) }
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
        try Self.setMeta(Mark.stamped, String(latest), in: connection)
        try connection.execute("DELETE FROM sync_dirty; DELETE FROM sync_additions")

        var clock = try lastClock(in: connection)
        var seq = Int(try Self.meta("sync.seq", in: connection) ?? "0") ?? 0
        var queued = 0
        let append = try connection.prepare("INSERT INTO sync_out(seq, line) VALUES(?, ?)")
        // In the order they were made, parents' tables first within one moment, then in the order the rows were
        // met: a large import goes out in its rows' order, and a device joining writes them in that order too.
        typealias Touched = (code: Int, key: Key, touches: Int, made: Date, met: Int)
        var touched: [Touched] = []
        for (code, rows) in keys {
            for (key, touches) in rows {
                let full: [SQLValue] = [.int(code)] + key
                touched.append((code, key, touches, madeAt[full] ?? now, touchOrder[full] ?? 0))
            }
        }
        touched.sort { ($0.made, $0.code, $0.met) < ($1.made, $1.code, $1.met) }
        let order = touched.map { (code: $0.code, key: $0.key, touches: $0.touches) }
        for (code, key, touches) in order {
            guard let table = tables[code] else { continue }
            guard table.travels(key) else { continue }
            let current = try image(table, key, in: connection)
            let known = try known(table, key, in: connection)
            // Nothing here and nothing known elsewhere: made and removed between two syncs.
            if current == nil, known == nil || known?.deleted == true, try adds(table, key, in: connection).isEmpty { continue }
            // The row as sync last left it (an undo that put it back, a first sync after the journal forgot): nothing to send.
            if let known, known.digest != nil, known.digest == digest(current, of: table) { continue }
            // A row here only in waiting, for a parent that has not come, is no delete of this device's.
            if current == nil, try parked(table, key, in: connection) != nil { continue }
            // The wall time is when the change was made (an edit made offline keeps its moment), never before a clock seen.
            let full = [.int(code)] + key
            let stampClock = SyncClock.next(after: clock, now: min(now, madeAt[full] ?? now), origin: installation)
            clock = (stampClock.ms, stampClock.counter)
            let additive = table.additive
            let keptAdds = additive == nil ? 0 : try adds(table, key, in: connection).reduce(0) { $0 + $1.amount }
            // The row as the last sync left it, each column at its clock: the first image the journal holds of it since
            // then, or (an undo's row, a row the journal forgot) the row as it is.
            let lastSynced: RowImage?? = before[full]
            let alive = known.map { !$0.deleted } ?? false
            var state: RowState
            if alive, case let .some(.some(image)) = lastSynced {
                state = RowState(known: known, current: image, additive: additive, added: keptAdds)
            } else if alive, lastSynced == nil {
                state = RowState(known: known, current: current, additive: additive, added: keptAdds)
            } else {
                state = RowState(known: known, current: nil, additive: additive, added: 0)
            }
            let change: SyncChange
            if let current {
                // The columns this device set: those that differ from the row as synced, and those an undo changed;
                // every one for a row new here, back from a delete, or whose history the journal no longer holds.
                var set = Set(table.table.columns)
                if alive, case let .some(.some(image)) = lastSynced {
                    set = Set(table.table.columns.filter { image[$0] != current[$0] })
                    if let columns = dirty[full] { set.formUnion(columns ?? Set(table.table.columns)) }
                } else if alive, lastSynced == nil, case let .some(.some(columns)) = dirty[full] {
                    set = columns
                }
                let addition = additions[full].flatMap { addition in
                    addition.changes == touches && dirty[full] == nil && additive != nil ? addition.amount : nil
                }
                // An addition carries the column's set value as it stood (nothing yet, for a row it makes), for the row's check.
                if addition != nil, let additive, state.values[additive] == nil {
                    state.values[additive] = .double(0)
                    state.clocks[additive] = .zero
                }
                for column in set where !(addition != nil && column == additive) {
                    state.values[column] = current[column] ?? .null
                    state.clocks[column] = stampClock
                }
                if let additive, addition == nil, set.contains(additive) {
                    try forgetAdds(table, key, through: stampClock, in: connection)
                }
                change = state.change(table: table.table.name, key: key, clock: stampClock, shown: true, adding: addition, additive: additive)
                if addition != nil { _ = try addAdd(table, change, in: connection) }
                // A row with no column set (an addition to a row as it was) keeps its clock; an addition's clock is its own.
                try setKnown(table, key, state.known(shown: true, columns: table.table.columns), in: connection)
            } else {
                state.tombstone = stampClock
                try forgetAdds(table, key, through: stampClock, in: connection)
                change = state.change(table: table.table.name, key: key, clock: stampClock, shown: false)
                try setKnown(table, key, state.known(shown: false, columns: table.table.columns), in: connection)
            }
            try recordDigest(table, key, current, in: connection)
            seq += 1
            queued += 1
            try append.reset([.int(seq), .text(change.line())])
            _ = try append.step()
        }
        for table in whole.sorted(by: { $0.table.code < $1.table.code }) {
            queued += try stampWhole(table, now: now, clock: &clock, seq: &seq, in: connection)
        }
        try saveClock(clock, in: connection)
        try Self.setMeta("sync.seq", String(seq), in: connection)
        return queued
    }

    /// Whether every row of `table` is stamped in one pass (`stampWhole`): this device knows no version of any of
    /// its rows (it has never synced them, nor received any), and the table merges in bulk (no `+N`, no unique
    /// name to rename, no parent or child among the synced tables), so each row is simply sent as it stands.
    func stampsWhole(_ table: SyncedTable, in connection: SQLiteConnection) throws -> Bool {
        try mergesInBulk(table, in: connection) && !knowsVersions(of: table, in: connection)
    }

    /// Stamps every row of `table` that travels, in the order the rows came (rowid), as the row-by-row stamp
    /// would with nothing known: a clock, its version and digest in `sync_rows`, its change queued in `sync_out`,
    /// many rows to a statement (turning sync on with 100,000 weigh-ins took 2.3 s one row at a time).
    func stampWhole(_ table: SyncedTable, now: Date, clock: inout (ms: Int, counter: Int), seq: inout Int,
                    in connection: SQLiteConnection) throws -> Int {
        let columns = table.table.columns, code = table.table.code
        let slots = table.table.key.map { columns.firstIndex(of: $0) ?? 0 }
        var versions = BatchedInsert("INSERT INTO sync_rows(table_code, k0, k1, ms, counter, origin, deleted, digest)", columns: 8, in: connection)
        var out = BatchedInsert("INSERT INTO sync_out(seq, line)", columns: 2, in: connection)
        var values: [SQLValue] = []
        var queued = 0
        let arrival = table.table.rowidSlot == nil ? "" : " ORDER BY rowid"
        let rows = try connection.prepare("SELECT \(columns.joined(separator: ", ")) FROM \(table.table.name)\(arrival)")
        while try rows.step() {
            values.removeAll(keepingCapacity: true)
            for index in columns.indices { values.append(rows.value(Int32(index)) ?? .null) }
            let key = slots.map { values[$0] }
            guard table.travels(key) else { continue }
            let stampClock = SyncClock.next(after: clock, now: now, origin: installation)
            clock = (stampClock.ms, stampClock.counter)
            let image = Self.image(columns, of: rows)
            seq += 1
            queued += 1
            try versions.add([.int(code), keyValue(key, 0), keyValue(key, 1), .int(stampClock.ms), .int(stampClock.counter),
                              .text(stampClock.origin), .int(0), .int(Self.digest(values))])
            try out.add([.int(seq), .text(SyncChange(table: table.table.name, key: key, clock: stampClock, operation: .set(image)).line())])
        }
        try versions.finish()
        try out.finish()
        return queued
    }
}
