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
            let states = try query(connection, "SELECT k0, k1, \(Known.selected) FROM sync_rows WHERE table_code = ?", [.int(code)]) {
                (key: table.table.key.count == 1 ? [$0.value(0) ?? .null] : [$0.value(0) ?? .null, $0.value(1) ?? .null], known: Known(row: $0, from: 2))
            }
            for (key, known) in states where known.clock.ms > 0 {
                let current = known.deleted ? nil : try image(table, key, in: connection) ?? parked(table, key, in: connection)
                let added = try table.additive.map { _ in try adds(table, key, in: connection).reduce(0) { $0 + $1.amount } } ?? 0
                let state = RowState(known: known, current: current, additive: table.additive, added: added)
                try line(state.change(table: table.table.name, key: key, clock: known.clock, shown: current != nil).line())
            }
            _ = try query(connection, "SELECT k0, k1, ms, counter, origin, amount, image FROM sync_adds WHERE table_code = ?", [.int(code)]) { row in
                let key = table.table.key.count == 1 ? [row.value(0) ?? .null] : [row.value(0) ?? .null, row.value(1) ?? .null]
                guard let kept = SyncChange.parse(Array(row.text(6).utf8)) else { return }
                try line(SyncChange(table: table.table.name, key: key, clock: SyncClock(ms: row.int(2), counter: row.int(3), origin: row.text(4)),
                                    operation: .add(row.double(5), kept.image), older: kept.older).line())
            }
        }
    }

    /// The lines that carry one row as this device knows it, as a checkpoint writes them: its versions, and the `+N`
    /// changes kept for it (with `addsOnlyFrom`, only those of that installation). None for a row with no version.
    func lines(of table: SyncedTable, _ key: Key, in connection: SQLiteConnection, addsOnlyFrom origin: String? = nil) throws -> [String] {
        guard let known = try known(table, key, in: connection), known.clock.ms > 0 else { return [] }
        let current = known.deleted ? nil : try image(table, key, in: connection) ?? parked(table, key, in: connection)
        let kept = table.additive == nil ? [] : try adds(table, key, in: connection)
        let state = RowState(known: known, current: current, additive: table.additive, added: kept.reduce(0) { $0 + $1.amount })
        var lines = [state.change(table: table.table.name, key: key, clock: known.clock, shown: current != nil).line()]
        for add in kept where origin.map({ add.clock.origin == $0 }) ?? true {
            guard let line = SyncChange.parse(Array(add.image.utf8)) else { continue }
            lines.append(SyncChange(table: table.table.name, key: key, clock: add.clock, operation: .add(add.amount, line.image),
                                    older: line.older).line())
        }
        return lines
    }

    /// The lines of a table with no `+N` column, every version with its row read in one statement (a row
    /// at a time took a second for 100,000 weigh-ins): the same lines the row-by-row loop above gives it.
    private func wholeCheckpointLines(_ table: SyncedTable, each line: (String) throws -> Void, in connection: SQLiteConnection) throws {
        let key = table.table.key, columns = table.table.columns
        let on = key.enumerated().map { "t.\($0.element) = r.k\($0.offset)" }.joined(separator: " AND ") + (key.count == 1 ? " AND r.k1 = ''" : "")
        let rows = try connection.prepare("""
            SELECT r.k0, r.k1, r.ms, r.counter, r.origin, r.deleted, r.digest, r.clocks, r.image, t.\(key[0]) IS NOT NULL,
                \(columns.map { "t.\($0)" }.joined(separator: ", "))
            FROM sync_rows r LEFT JOIN \(table.table.name) t ON \(on) WHERE r.table_code = ? ORDER BY r.k0, r.k1
            """, [.int(table.table.code)])
        while try rows.step() {
            let known = Known(row: rows, from: 2)
            guard known.clock.ms > 0 else { continue }
            let rowKey = key.count == 1 ? [rows.value(0) ?? .null] : [rows.value(0) ?? .null, rows.value(1) ?? .null]
            var current: RowImage?
            if !known.deleted {
                current = rows.int(9) != 0 ? Self.image(columns, of: rows, from: 10) : try parked(table, rowKey, in: connection)
            }
            // The common row, every column at the row's clock, is written as it stands; any other as its state says.
            if let current, known.columns.isEmpty {
                try line(SyncChange(table: table.table.name, key: rowKey, clock: known.clock, operation: .set(current)).line())
                continue
            }
            let state = RowState(known: known, current: current, additive: nil, added: 0)
            try line(state.change(table: table.table.name, key: rowKey, clock: known.clock, shown: current != nil).line())
        }
    }
}
