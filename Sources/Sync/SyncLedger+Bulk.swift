import Foundation
import Storage

/// Merging a batch of changes to one table at a time, where the table allows it.
extension SyncLedger {
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
        // The latest change per row, by its place in the batch: the rows go in in the batch's order (a device
        // writes its changes in the order it made them), so a history imported in time order is written in
        // time order here too, its pages and index entries one after another.
        var latest: [Key: Int] = [:]
        for (index, change) in changes.enumerated() where change.key.count == table.table.key.count {
            if let held = latest[change.key], changes[held].clock >= change.clock { continue }
            latest[change.key] = index
        }
        let columns = table.table.columns, code = table.table.code
        let batch = "temp.sync_batch_\(code)"
        let slots = columns.indices.map { "c\($0)" }
        try connection.execute("""
            CREATE TEMP TABLE IF NOT EXISTS sync_batch_\(code)(k0, k1, ms, counter, origin, op, digest, \(slots.joined(separator: ", ")));
            DELETE FROM \(batch);
            """)
        var defaults: [String: SQLValue] = [:]
        for column in columns { defaults[column] = try defaultValue(table.table.name, column, in: connection) }
        let insert = try connection.prepare("INSERT INTO \(batch) VALUES(\(Array(repeating: "?", count: 7 + columns.count).joined(separator: ", ")))")
        // One array of values and one of the row, filled again for each change (a hundred thousand of them).
        var values: [SQLValue] = [], row: [SQLValue] = []
        values.reserveCapacity(7 + columns.count)
        row.reserveCapacity(columns.count)
        let defaultRow = columns.map { defaults[$0] ?? .null }
        for (index, change) in changes.enumerated() where latest[change.key] == index {
            values.removeAll(keepingCapacity: true)
            values.append(keyValue(change.key, 0))
            values.append(keyValue(change.key, 1))
            values.append(.int(change.clock.ms))
            values.append(.int(change.clock.counter))
            values.append(.text(change.clock.origin))
            if case let .set(image) = change.operation {
                row.removeAll(keepingCapacity: true)
                for (place, column) in columns.enumerated() { row.append(image[column] ?? defaultRow[place]) }
                values.append(.text("set"))
                values.append(.int(Self.digest(row)))
                values.append(contentsOf: row)
            } else {
                values.append(.text("del"))
                values.append(.null)
                for _ in columns { values.append(.null) }
            }
            try insert.reset(values)
            while try insert.step() {}
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
            INSERT INTO sync_rows(table_code, k0, k1, ms, counter, origin, deleted, digest)
            SELECT \(code), k0, k1, ms, counter, origin, op = 'del', digest FROM \(batch) WHERE true
            ON CONFLICT DO UPDATE SET ms = excluded.ms, counter = excluded.counter, origin = excluded.origin, deleted = excluded.deleted,
                digest = excluded.digest
            """)
        let key = table.table.key
        let batchKeys = key.indices.map { "k\($0)" }.joined(separator: ", ")
        try run(connection, "DELETE FROM \(table.table.name) WHERE (\(key.joined(separator: ", "))) IN (SELECT \(batchKeys) FROM \(batch) WHERE op = 'del')")
        applied.rows += connection.changes
        // Rows new here go in first, as an import adds them: a large batch with the table's per-row triggers paused.
        let new = "SELECT \(slots.joined(separator: ", ")) FROM \(batch) WHERE op = 'set' AND (\(batchKeys)) NOT IN (SELECT \(key.joined(separator: ", ")) FROM \(table.table.name))"
        let pause = latest.count > 1_000 && table.table.rowidSlot != nil ? try InsertTriggerPause(on: table.table.name, in: connection) : nil
        try run(connection, "INSERT INTO \(table.table.name)(\(columns.joined(separator: ", "))) \(new)")
        let added = connection.changes
        applied.rows += added
        try pause?.resume()
        // Every change was a row new here (a device joining): nothing is left to update.
        let sets = try query(connection, "SELECT count(*) FROM \(batch) WHERE op = 'set'") { $0.int(0) }.first ?? 0
        guard sets > added else { return }
        let others = columns.filter { !key.contains($0) }
        let differs = others.map { "\(table.table.name).\($0) IS NOT excluded.\($0)" }.joined(separator: " OR ")
        try run(connection, """
            INSERT INTO \(table.table.name)(\(columns.joined(separator: ", "))) SELECT \(slots.joined(separator: ", ")) FROM \(batch) WHERE op = 'set'
            ON CONFLICT(\(key.joined(separator: ", "))) DO UPDATE SET \(others.map { "\($0) = excluded.\($0)" }.joined(separator: ", "))
            WHERE \(differs.isEmpty ? "false" : differs)
            """)
        applied.rows += connection.changes
    }
}
