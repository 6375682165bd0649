import Foundation
import Storage

/// A checkpoint: every row this installation knows, for a device that joins late.
extension SyncLedger {
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
}
