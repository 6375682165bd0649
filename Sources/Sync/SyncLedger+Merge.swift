import Foundation
import Storage

/// Merging another installation's changes, one at a time, by the merge rule.
extension SyncLedger {
    /// What applying changes did, for the journal entry and for `sync`.
    struct Applied {
        var rows = 0
        /// The first notes, in the order the merge made them, then one that counts the rest.
        private(set) var notes: [String] = []
        private var more = 0
        /// How many notes one sync says; a device's first join says no more than a screenful.
        static let notesShown = 20

        mutating func note(_ text: String) {
            if notes.count < Self.notesShown {
                notes.append(text)
                return
            }
            more += 1
            notes[Self.notesShown...] = ["and \(more) more \(more == 1 ? "note" : "notes") like these"]
        }
    }

    /// What the threads reading a segment's lines make of a change: why it cannot be kept here, as a restore
    /// checks a row (nil when it can), and what the merge takes as it is.
    struct Checked: Sendable {
        var problem: String?
        var ready: Ready
    }

    /// What the threads reading a segment's lines make ready for the merge, which runs on one thread: the hash
    /// of the change's key, and the row a set makes, in its table's column order.
    struct Ready: Sendable, Equatable {
        let keyHash: Int
        var row: Row?

        /// Ready with the change's key hash alone; the row is the check's to make.
        init(of change: SyncChange) {
            keyHash = change.key.hashValue
        }
    }

    /// Checks a change as `Checked` says: a value that can be handed to the threads that read a segment's lines.
    var check: @Sendable (SyncChange) -> Checked {
        let byName = byName
        return { change in
            let table = byName[change.table]
            let problem = Self.problem(with: change, table)
            var ready = Ready(of: change)
            if problem == nil, let table, case let .set(image) = change.operation { ready.row = Row(image, columns: table.table.columns) }
            return Checked(problem: problem, ready: ready)
        }
    }

    private static func problem(with change: SyncChange, _ table: SyncedTable?) -> String? {
        guard let table else { return nil }
        guard change.key.count == table.table.key.count else { return "a change to \(table.table.noun) has a key of the wrong shape" }
        guard table.travels(change.key) else { return "a change to a \(table.table.noun) that stays on each device" }
        let image = change.image
        if change.isDelete, image.isEmpty { return nil }
        if case let .add(amount, _) = change.operation, !table.acceptedAddition.contains(amount) {
            return "a change to \(table.table.noun) adds \(amount), outside \(Int(table.acceptedAddition.lowerBound))–\(Int(table.acceptedAddition.upperBound))"
        }
        for (index, column) in table.table.key.enumerated() where image[column] != change.key[index] {
            return "a change to \(table.table.noun) whose key and row disagree"
        }
        // A set's clock is the clock of a column it set (an addition's is its own).
        if case .set = change.operation, !image.columns.contains(where: { change.older[$0] == nil }) {
            return "a change to \(table.table.noun) that sets none of its columns"
        }
        return table.problem(image)
    }

    /// Applies one change from another installation, by the merge rule: each column it carries where its clock is
    /// newer, its tombstone where newer, its addition where newer than the column's set and the tombstone.
    func apply(_ change: SyncChange, from device: String, in connection: SQLiteConnection, applied: inout Applied) throws {
        guard let table = byName[change.table] else { return }
        let key = change.key
        let known = try known(table, key, in: connection)
        let held = try image(table, key, in: connection)
        let additive = table.additive
        let kept = additive == nil ? [] : try adds(table, key, in: connection)
        var state = RowState(known: known, current: try held ?? parked(table, key, in: connection), additive: additive,
                             added: kept.reduce(0) { $0 + $1.amount })
        var changed = state.join(change, additive: additive)
        if case .add = change.operation, let additive, change.clock > state.additionFloor(additive), try addAdd(table, change, in: connection) {
            changed = true
        }
        guard changed else { return }
        var added = 0.0, adding = false
        if let additive {
            try forgetAdds(table, key, through: state.additionFloor(additive), in: connection)
            let remaining = try adds(table, key, in: connection)
            (added, adding) = (remaining.reduce(0) { $0 + $1.amount }, !remaining.isEmpty)
        }
        let shown = state.showsByColumns || adding
        try setKnown(table, key, state.known(shown: shown, columns: table.table.columns), in: connection)
        let wasDeleted = known?.deleted == true && known?.clock.ms ?? 0 > 0
        if !shown, !change.isDelete, wasDeleted {
            applied.note("\(device) changed \(described(table, key, state.values, in: connection)), which was deleted later; it stays deleted")
        }
        if shown, wasDeleted, held == nil {
            applied.note("\(device) changed \(described(table, key, state.values, in: connection)) after it was deleted here; it is back")
        }
        var target: RowImage?
        if shown {
            target = state.values
            if let additive { target?[additive] = .double((state.counts(additive) ? Self.number(state.values[additive]) : 0) + added) }
        }
        try write(target, table, key, clock: state.newest ?? change.clock, in: connection, applied: &applied)
        // A row new here may be one this device has too, typed on both (its owner says).
        if held == nil, let target, let arrived = table.arrived, let note = arrived(target, change.clock.origin, timeZone, connection) {
            let name = described(table, key, target, in: connection).replacingOccurrences(of: "the ", with: "", options: .anchored)
            applied.note("\(device)'s \(name) \(note)")
        }
    }

    func number(_ value: SQLValue?) -> Double {
        Self.number(value)
    }

    /// A row as a person names it (its owner's `describe`), or its noun and key.
    func described(_ table: SyncedTable, _ key: Key, _ image: RowImage, in connection: SQLiteConnection) -> String {
        table.describe?(image, timeZone, connection) ?? "the \(table.table.noun) \(keyShown(table, key))"
    }

    func keyShown(_ table: SyncedTable, _ key: Key) -> String {
        let text = key.map { value -> String in
            switch value {
            case let .text(text): String(text.prefix(table.table.keyShownAs ?? 40))
            case let .int(number): String(number)
            default: "?"
            }
        }.joined(separator: " ")
        return "'\(text)'"
    }

    static func image(ofLine line: String) -> RowImage? {
        guard let change = SyncChange.parse(Array(line.utf8)), case let .set(image) = change.operation else { return nil }
        return image
    }

    /// Puts the row as the merge decided (nil: no row): parked when its parent row is not here yet,
    /// renamed when another row holds its unique name (the later of the two takes the new name, on every device).
    func write(_ target: RowImage?, _ table: SyncedTable, _ key: Key, clock: SyncClock,
                       in connection: SQLiteConnection, applied: inout Applied) throws {
        let name = table.table.name
        try run(connection, "DELETE FROM sync_parked WHERE table_code = ? AND k0 = ? AND k1 = ?", [.int(table.table.code)] + keyValues(key))
        guard var target else {
            try parkChildren(of: table, key, in: connection)
            try run(connection, "DELETE FROM \(name) WHERE \(matchKey(table))", key)
            if table.table.undoable { applied.rows += connection.changes }
            try recordDigest(table, key, nil, in: connection)
            return
        }
        let columns = table.table.columns
        target = RowImage(columns: columns, values: try target.values(in: columns) { try defaultValue(name, columns[$0], in: connection) })
        // As the merge decided it, before any rename here: a renamed row differs from it, so the next sync sends the rename.
        try recordDigest(table, key, target, in: connection)
        guard try parentsExist(target, table, in: connection) else {
            try run(connection, "INSERT OR REPLACE INTO sync_parked(table_code, k0, k1, image) VALUES(?, ?, ?, ?)",
                               [.int(table.table.code)] + keyValues(key)
                                   + [.text(SyncChange(table: name, key: key, clock: clock, operation: .set(target)).line())])
            return
        }
        target = try resolvingUnique(target, table, key, clock: clock, in: connection)
        if try image(table, key, in: connection) == target { return }
        let updates = columns.filter { !table.table.key.contains($0) }.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        // A table whose columns are all its key (the reminders sent) has nothing to update: the row is there or is added.
        try run(connection, """
            INSERT INTO \(name)(\(columns.joined(separator: ", "))) VALUES(\(columns.map { _ in "?" }.joined(separator: ", ")))
            ON CONFLICT(\(table.table.key.joined(separator: ", "))) \(updates.isEmpty ? "DO NOTHING" : "DO UPDATE SET " + updates)
            """, columns.map { target[$0] ?? .null })
        // Bookkeeping that travels (the tip deck, the reminders sent) is no change a person would count.
        if table.table.undoable { applied.rows += 1 }
    }

    /// Before a row from another device's delete goes, the rows that hang
    /// from it (a habit's days), which the database deletes with it, are
    /// parked: a later version of the parent from a third device brings them back as on every other device.
    func parkChildren(of parent: SyncedTable, _ key: Key, in connection: SQLiteConnection) throws {
        guard let image = try image(parent, key, in: connection) else { return }
        for child in tables.values where child.table.code != parent.table.code {
            let references = try query(connection, "SELECT \"from\", \"to\" FROM pragma_foreign_key_list(?) WHERE \"table\" = ?",
                                                  [.text(child.table.name), .text(parent.table.name)]) { ($0.text(0), $0.text(1)) }
            for (from, to) in references {
                let columns = child.table.columns
                let rows = try query(connection, "SELECT \(columns.joined(separator: ", ")) FROM \(child.table.name) WHERE \(from) = ?",
                                                [image[to] ?? .null]) { Self.image(columns, of: $0) }
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

    func parked(_ table: SyncedTable, _ key: Key, in connection: SQLiteConnection) throws -> RowImage? {
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

    func defaultValue(_ table: String, _ column: String, in connection: SQLiteConnection) throws -> SQLValue {
        let info = try query(connection, "SELECT name, dflt_value FROM pragma_table_info(?)", [.text(table)]) { ($0.text(0), $0.optionalText(1)) }
        guard let found = info.first(where: { $0.0 == column })?.1 else { return .null }
        if let number = Int(found) { return .int(number) }
        if let number = Double(found) { return .double(number) }
        if found.hasPrefix("'"), found.hasSuffix("'"), found.count >= 2 { return .text(String(found.dropFirst().dropLast())) }
        return .null
    }

    func parentsExist(_ image: RowImage, _ table: SyncedTable, in connection: SQLiteConnection) throws -> Bool {
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
    func resolvingUnique(_ image: RowImage, _ table: SyncedTable, _ key: Key, clock: SyncClock,
                                 in connection: SQLiteConnection) throws -> RowImage {
        guard let renamed = table.renamed else { return image }
        let name = table.table.name
        if prepared.uniques[name] == nil {
            let indexes = try query(connection, "SELECT name FROM pragma_index_list(?) WHERE \"unique\" = 1 AND origin = 'u'", [.text(name)]) { $0.text(0) }
            prepared.uniques[name] = try indexes.map { index in try query(connection, "SELECT name FROM pragma_index_info(?)", [.text(index)]) { $0.text(0) } }
        }
        var image = image
        for columns in prepared.uniques[name] ?? [] {
            func holder(of row: RowImage) throws -> Key? {
                let match = columns.map { "\($0) IS ?" }.joined(separator: " AND ")
                let other = table.table.key.map { "\($0) IS ?" }.joined(separator: " AND ")
                return try query(connection, """
                    SELECT \(table.table.key.joined(separator: ", ")) FROM \(name) WHERE \(match) AND NOT (\(other)) LIMIT 1
                    """, columns.map { row[$0] ?? .null } + key) { row in table.table.key.indices.map { row.value(Int32($0)) ?? .null } }.first
            }
            guard let other = try holder(of: image) else { continue }
            // One thing made on two devices: both stay, one under a passing name, until `unite` makes them one.
            if let same = table.same, let held = try self.image(table, other, in: connection), same(image, held) {
                let keepsArriving = Self.precedes(key, other)
                prepared.united.append(Uniting(table: table.table.code, kept: keepsArriving ? key : other,
                                               absorbed: keepsArriving ? other : key, named: keepsArriving ? image : held))
            }
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

    func markDirty(_ table: SyncedTable, _ key: Key, in connection: SQLiteConnection) throws {
        try run(connection, "INSERT OR IGNORE INTO sync_dirty(table_code, k0, k1) VALUES(?, ?, ?)", [.int(table.table.code)] + keyValues(key))
    }
}
