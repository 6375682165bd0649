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

    /// The merge rule for a batch of changes to one table that `mergesInBulk`, in one pass and a few
    /// statements instead of a dozen a row: the batch's latest change per row, merged with the row's versions
    /// here. Rows this device knows nothing of (all of them, for a device joining) go in as an import adds
    /// rows, many to a statement, with their columns' clocks as the change carries them; the others are merged one by one.
    /// The same outcome as `apply` on each change in turn (`SyncConvergenceTests` runs both).
    /// `ready` holds what reading made ready of each change, by place in `changes` (`apply` makes what reading did not).
    func applyBulk(_ changes: [SyncChange], ready: [Ready], table: SyncedTable, from device: String, in connection: SQLiteConnection,
                   applied: inout Applied) throws {
        precondition(ready.count == changes.count, "one Ready per change")
        let keyHash = { (index: Int) in ready[index].keyHash }
        // The latest change per row, by its place in the batch: the rows go in in the batch's order (a device
        // writes its changes in the order it made them), so a history imported in time order is written in
        // time order here too, its pages and index entries one after another. Rows are told apart by their
        // key's hash, or by the key itself where two keys of the batch share a hash.
        let width = table.table.key.count
        // Told apart by the key itself, two changes of one id are of one key: that `latest` is never nil.
        let isLatest = Self.latest(of: changes, width: width, by: keyHash) ?? Self.latest(of: changes, width: width) { changes[$0].key }!
        let columns = table.table.columns, code = table.table.code, name = table.table.name
        let defaultRow = try prepared.defaults[code] ?? columns.map { try defaultValue(name, $0, in: connection) }
        prepared.defaults[code] = defaultRow
        /// The row of a set, as reading made it or, where it did not, made here.
        func row(_ index: Int) -> Row? {
            if let row = ready[index].row { return row }  // Reading makes rows of sets only.
            guard case let .set(image) = changes[index].operation else { return nil }
            return Row(image, columns: columns, defaults: defaultRow)
        }
        // A device that knew no row of the table (one joining) has no version to compare with but those this
        // transaction's bulk merges wrote: only their keys are looked up (a hash shared by chance costs a look-up).
        if prepared.written[code] == nil { prepared.written[code] = try knowsVersions(of: table, in: connection) ? .some(nil) : .some([]) }
        let written = prepared.written[code] ?? nil
        var lookUp: [Key] = []
        for index in changes.indices where isLatest[index] && written.map({ $0.contains(keyHash(index)) }) != false {
            lookUp.append(changes[index].key)
        }
        let held = lookUp.isEmpty ? [:] : try knownVersions(table, of: lookUp, in: connection)
        var fresh: [Int] = [], known: [Int] = []
        for index in changes.indices where isLatest[index] {
            // A key SQLite holds equal but Swift does not (1 and 1.0) looks new: its insert fails, and the caller merges one by one.
            if held[changes[index].key] == nil, case .set = changes[index].operation { fresh.append(index) } else { known.append(index) }
        }
        // Rows known here (and tombstones): merged column by column, as one by one. A device's later change of a row
        // carries all its earlier one did (each is the row as the device held it, every column at its clock).
        for index in known {
            try apply(changes[index], from: device, in: connection, applied: &applied)
        }
        // Rows new here: their versions, then the rows themselves, as an import adds them (a large batch with
        // the table's per-row triggers paused). A row the table holds all the same fails the insert, and the
        // caller merges the batch one change at a time. The caller rolls the whole batch back to its savepoint
        // then, so a failing statement need not undo its own rows first: `OR FAIL` spares SQLite a statement
        // journal per statement (a 100k join wrote 8,000 pages to it, 60 MB; now 350 writes, and 0.53 -> 0.51 s).
        var versions = BatchedInsert("INSERT OR FAIL INTO sync_rows(table_code, k0, k1, ms, counter, origin, deleted, digest, clocks)",
                                     columns: 9, in: connection)
        var rows = BatchedInsert("INSERT OR FAIL INTO \(name)(\(columns.joined(separator: ", ")))", columns: columns.count, in: connection)
        var version: [SQLValue] = []
        version.reserveCapacity(9)
        let pause = fresh.count > 1_000 && table.table.rowidSlot != nil ? try InsertTriggerPause(on: name, in: connection) : nil
        for index in fresh {
            version.removeAll(keepingCapacity: true)
            version.append(.int(code))
            version.append(keyValue(changes[index].key, 0))
            version.append(keyValue(changes[index].key, 1))
            version.append(.int(changes[index].clock.ms))
            version.append(.int(changes[index].clock.counter))
            version.append(.text(changes[index].clock.origin))
            guard let row = row(index) else { continue }  // Only sets are fresh.
            version.append(.int(0))
            version.append(.int(row.digest))
            version.append(changes[index].older.isEmpty ? .null : .text(changes[index].older.text))
            try rows.add(row.values)
            try versions.add(version)
        }
        try versions.finish()
        let added = try rows.finish()
        if table.table.undoable { applied.rows += added }
        try pause?.resume()
        if written != nil { prepared.written[code]??.formUnion((fresh + known).lazy.map(keyHash)) }
        // A few rows new here may be ones this device has too, typed on both; a history joining is not looked through.
        if let arrived = table.arrived, fresh.count <= Self.arrivalsLookedAt {
            for index in fresh {
                guard case let .set(image) = changes[index].operation, let note = arrived(image, changes[index].clock.origin, timeZone, connection) else { continue }
                let name = described(table, changes[index].key, image, in: connection).replacingOccurrences(of: "the ", with: "", options: .anchored)
                applied.note("\(device)'s \(name) \(note)")
            }
        }
    }

    /// How many new rows of one batch are each looked at by their owner's `arrived` (a day's or a week's, not a history's).
    static let arrivalsLookedAt = 100

    /// Which of a batch's changes is the latest of its row there (the row's others are older), its row told
    /// apart by `id` (by place): nil when two changes with the same `id` differ in key (a hash shared by chance).
    /// Changes are read by place where they lie, not copied (a batch is ten thousand).
    static func latest<ID: Hashable>(of changes: [SyncChange], width: Int, by id: (Int) -> ID) -> [Bool]? {
        var latest: [ID: Int] = [:], isLatest = [Bool](repeating: false, count: changes.count)
        latest.reserveCapacity(changes.count)
        for index in changes.indices where changes[index].key.count == width {
            let id = id(index)
            guard let held = latest.updateValue(index, forKey: id) else {
                isLatest[index] = true
                continue
            }
            guard changes[held].key == changes[index].key else { return nil }
            if changes[held].clock >= changes[index].clock {
                latest[id] = held
                continue
            }
            isLatest[held] = false
            isLatest[index] = true
        }
        return isLatest
    }

    /// The versions this device knows of the rows with `keys`, looked up a few hundred keys to a statement
    /// (a batch arriving at a device with a history of its own is tens of thousands of rows).
    func knownVersions(_ table: SyncedTable, of keys: [Key], in connection: SQLiteConnection) throws -> [Key: Known] {
        var found: [Key: Known] = [:]
        let width = table.table.key.count
        let chunk = max(1, min(400, (connection.parameterLimit - 1) / max(1, width)))
        var start = 0
        while start < keys.count {
            let part = keys[start..<min(keys.count, start + chunk)]
            start += chunk
            let slots = Array(repeating: width == 1 ? "?" : "(?, ?)", count: part.count).joined(separator: ", ")
            let match = width == 1 ? "k1 = '' AND k0 IN (\(slots))" : "(k0, k1) IN (VALUES \(slots))"
            _ = try query(connection, "SELECT k0, k1, \(Known.selected) FROM sync_rows WHERE table_code = ? AND \(match)",
                          [.int(table.table.code)] + part.flatMap { $0 }) { row in
                let key = width == 1 ? [row.value(0) ?? .null] : [row.value(0) ?? .null, row.value(1) ?? .null]
                found[key] = Known(row: row, from: 2)
            }
        }
        return found
    }
}
