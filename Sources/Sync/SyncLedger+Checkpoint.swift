import Foundation
import Storage

/// A checkpoint: every row this installation knows, for a device that joins late.
extension SyncLedger {
    /// How many lines `checkpointLines` gives, counted before they are made (a checkpoint's header says it first):
    /// one for each version with a clock, and one for each `+N` change kept for a table that adds up.
    func checkpointLineCount(in connection: SQLiteConnection) throws -> Int {
        var count = 0
        for table in tables.values {
            let code: [SQLValue] = [.int(table.table.code)]
            count += try connection.scalarInt("SELECT count(*) FROM sync_rows WHERE table_code = ? AND ms > 0", code) ?? 0
            if table.additive != nil { count += try connection.scalarInt("SELECT count(*) FROM sync_adds WHERE table_code = ?", code) ?? 0 }
        }
        return count
    }

    /// Every row's latest version this installation knows, with its clock, and the `+N` changes newer than it:
    /// applied anywhere, they give this installation's rows. Each line is handed to `line` as it is made
    /// (a million weigh-ins' lines held whole took 0.3 GB).
    func checkpointLines(in connection: SQLiteConnection, each line: (String) throws -> Void) throws {
        for code in tables.keys.sorted() {
            guard let table = tables[code] else { continue }
            if table.additive == nil {
                try wholeCheckpointLines(table, each: line, in: connection)
                continue
            }
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
                try line(SyncChange(table: table.table.name, key: state.key, clock: state.clock, operation: operation).line())
            }
            _ = try query(connection, "SELECT k0, k1, ms, counter, origin, amount, image FROM sync_adds WHERE table_code = ?", [.int(code)]) { row in
                let key = table.table.key.count == 1 ? [row.value(0) ?? .null] : [row.value(0) ?? .null, row.value(1) ?? .null]
                guard let image = Self.image(ofLine: row.text(6)) else { return }
                try line(SyncChange(table: table.table.name, key: key, clock: SyncClock(ms: row.int(2), counter: row.int(3), origin: row.text(4)),
                                    operation: .add(row.double(5), image)).line())
            }
        }
    }

    /// The lines of a table with no `+N` column, every version with its row read in one statement (a row
    /// at a time took a second for 100,000 weigh-ins): the same lines the row-by-row loop above gives it.
    private func wholeCheckpointLines(_ table: SyncedTable, each line: (String) throws -> Void, in connection: SQLiteConnection) throws {
        let key = table.table.key, columns = table.table.columns
        let on = key.enumerated().map { "t.\($0.element) = r.k\($0.offset)" }.joined(separator: " AND ") + (key.count == 1 ? " AND r.k1 = ''" : "")
        let rows = try connection.prepare("""
            SELECT r.k0, r.k1, r.ms, r.counter, r.origin, r.deleted, t.\(key[0]) IS NOT NULL, \(columns.map { "t.\($0)" }.joined(separator: ", "))
            FROM sync_rows r LEFT JOIN \(table.table.name) t ON \(on) WHERE r.table_code = ? ORDER BY r.k0, r.k1
            """, [.int(table.table.code)])
        while try rows.step() {
            let clock = SyncClock(ms: rows.int(2), counter: rows.int(3), origin: rows.text(4))
            guard clock.ms > 0 else { continue }
            let rowKey = key.count == 1 ? [rows.value(0) ?? .null] : [rows.value(0) ?? .null, rows.value(1) ?? .null]
            var operation = SyncChange.Operation.delete
            if rows.int(5) == 0 {
                if rows.int(6) != 0 {
                    operation = .set(Self.image(columns, of: rows, from: 7))
                } else if let image = try parked(table, rowKey, in: connection) {
                    operation = .set(image)
                }
            }
            try line(SyncChange(table: table.table.name, key: rowKey, clock: clock, operation: operation).line())
        }
    }
}
