import Foundation
import Storage

/// One thing made on two devices while they were apart (the same habit added
/// on both, DESIGN §8): when the merge meets the second, the two become one,
/// the rows that hang from them together, on every device alike.
extension SyncLedger {
    /// Two rows of a table found to be one thing: `kept` stays under its own name (`named`), `absorbed` goes.
    struct Uniting {
        let table: Int
        let kept: Key
        let absorbed: Key
        /// The kept row as it came, before the merge gave one of the two a passing name.
        let named: RowImage
    }

    /// Which of two rows stays: the one whose key sorts first, a choice every device makes alike whatever it saw first.
    static func precedes(_ first: Key, _ second: Key) -> Bool {
        first.map(sortText).lexicographicallyPrecedes(second.map(sortText))
    }

    private static func sortText(_ value: SQLValue) -> String {
        switch value {
        case let .text(text): text
        case let .int(number): String(format: "%020lld", number)
        case let .double(number): String(number)
        default: ""
        }
    }

    /// Makes each pair the merge found one: the absorbed row's children move to the kept row (where the kept row has
    /// one of its own for the same key, the larger amount stays), the absorbed row goes, and the kept row takes back
    /// its name. Every row changed here is sent as this device's change, so a device that saw only one of the two
    /// learns the same.
    func unite(in connection: SQLiteConnection, applied: inout Applied) throws {
        defer { prepared.united = [] }
        // Where a row absorbed in this merge went: a pair whose kept row was itself absorbed goes on to that one.
        var into: [Key: Key] = [:]
        func final(_ key: Key) -> Key {
            var key = key
            while let next = into[key] { key = next }
            return key
        }
        for pair in prepared.united {
            let (keptKey, absorbedKey) = (final(pair.kept), final(pair.absorbed))
            guard keptKey != absorbedKey, let table = tables[pair.table], var kept = try image(table, keptKey, in: connection) else { continue }
            var moved = 0, united = false
            if let absorbed = try image(table, absorbedKey, in: connection) {
                for child in tables.values where child.table.code != table.table.code {
                    let references = try query(connection, "SELECT \"from\", \"to\" FROM pragma_foreign_key_list(?) WHERE \"table\" = ?",
                                               [.text(child.table.name), .text(table.table.name)]) { ($0.text(0), $0.text(1)) }
                    for (from, to) in references {
                        moved += try move(child, from: from, absorbed[to] ?? .null, to: kept[to] ?? .null, in: connection)
                    }
                }
                try run(connection, "DELETE FROM \(table.table.name) WHERE \(matchKey(table))", absorbedKey)
                try markDirty(table, absorbedKey, in: connection)
                into[absorbedKey] = keptKey
                applied.rows += 1 + moved
                united = true
            }
            // The columns a passing name changes (a habit's name and its key) are as the kept row came, unless a third
            // row holds that name now (it keeps the passing one, as two different habits of one name do).
            let passing = table.renamed?(pair.named, 2) ?? pair.named
            let named = table.table.columns.filter { passing[$0] != pair.named[$0] }
            for column in named { kept[column] = pair.named[column] }
            let taken = try named.isEmpty ? false : !query(connection, """
                SELECT 1 FROM \(table.table.name) WHERE \(named.map { "\($0) IS ?" }.joined(separator: " AND "))
                AND NOT (\(table.table.key.map { "\($0) IS ?" }.joined(separator: " AND "))) LIMIT 1
                """, named.map { kept[$0] ?? .null } + keptKey) { _ in true }.isEmpty
            if !taken, try image(table, keptKey, in: connection) != kept {
                let changed = table.table.columns.filter { !table.table.key.contains($0) }
                try run(connection, "UPDATE \(table.table.name) SET \(changed.map { "\($0) = ?" }.joined(separator: ", ")) WHERE \(matchKey(table))",
                        changed.map { kept[$0] ?? .null } + keptKey)
                try markDirty(table, keptKey, in: connection)
            }
            guard united else { continue }
            let name = described(table, keptKey, kept, in: connection)
            applied.note("\(name) was added on two devices while they were apart; it is one now, with what each device had of it")
        }
    }

    /// The rows of `child` whose `column` holds `from`, moved to `to`; returns how many moved.
    private func move(_ child: SyncedTable, from column: String, _ from: SQLValue, to: SQLValue, in connection: SQLiteConnection) throws -> Int {
        let columns = child.table.columns
        let rows = try query(connection, "SELECT \(columns.joined(separator: ", ")) FROM \(child.table.name) WHERE \(column) = ?", [from]) {
            Self.image(columns, of: $0)
        }
        for row in rows {
            let oldKey = child.table.key.map { row[$0] ?? .null }
            var moved = row
            moved[column] = to
            let newKey = child.table.key.map { moved[$0] ?? .null }
            if let held = try image(child, newKey, in: connection) {
                // Both had the day: the larger amount stays (the same water drunk, counted on two devices, is not twice the water).
                if let additive = child.additive, number(row[additive]) > number(held[additive]) {
                    try run(connection, "UPDATE \(child.table.name) SET \(additive) = ? WHERE \(matchKey(child))", [row[additive] ?? .null] + newKey)
                    try markDirty(child, newKey, in: connection)
                }
            } else {
                try run(connection, "INSERT INTO \(child.table.name)(\(columns.joined(separator: ", "))) VALUES(\(columns.map { _ in "?" }.joined(separator: ", ")))",
                        columns.map { moved[$0] ?? .null })
                try markDirty(child, newKey, in: connection)
            }
            if newKey != oldKey {
                try run(connection, "DELETE FROM \(child.table.name) WHERE \(matchKey(child))", oldKey)
                try markDirty(child, oldKey, in: connection)
            }
        }
        return rows.count
    }
}
