import Foundation
import Storage
import Testing
@testable import Sync
import AppCore

/// A batch's known versions are looked up a few hundred keys to a statement (`knownVersions`), for keys of one
/// column and of two: each key finds its own version, and only its own (the same rows `known` finds one by one).
@Suite struct SyncKnownVersionsTests {
    @Test(arguments: ["weight_entries", "habit_records"])
    func eachKeyFindsItsOwnVersion(tableName: String) throws {
        let store = LocalDataStore.inMemory(schema: .trend)
        let ledger = SyncLedger(installation: "here", tables: store.schema.synced)
        let table = try #require(ledger.byName[tableName])
        let width = table.table.key.count
        // 1,000 keys known (every third one deleted), 500 asked for that are not, a key of another table, and a number key.
        func key(_ index: Int) -> [SQLValue] { width == 1 ? [.text("row\(index)")] : [.text("habit\(index % 7)"), .int(index)] }
        let (found, oneByOne) = try store.write { connection -> ([[SQLValue]: SyncLedger.Known], [[SQLValue]: SyncLedger.Known]) in
            for index in 0..<1_000 {
                try connection.run("INSERT INTO sync_rows(table_code, k0, k1, ms, counter, origin, deleted, digest) VALUES(?, ?, ?, ?, ?, ?, ?, ?)",
                                   [.int(table.table.code)] + ledger.keyValues(key(index))
                                       + [.int(1_000 + index), .int(index % 3), .text("o\(index)"), .int(index % 3 == 0 ? 1 : 0), .int(index * 7)])
            }
            let other = try #require(ledger.tables.values.first { $0.table.code != table.table.code })
            try connection.run("INSERT INTO sync_rows(table_code, k0, k1, ms, counter, origin) VALUES(?, ?, ?, 5, 0, 'x')",
                               [.int(other.table.code)] + ledger.keyValues(key(1_200)))
            let asked = (500..<1_500).map(key) + [[.int(3)] + (width == 1 ? [] : [.int(3)])]
            var oneByOne: [[SQLValue]: SyncLedger.Known] = [:]
            for key in asked { oneByOne[key] = try ledger.known(table, key, in: connection) }
            return (try ledger.knownVersions(table, of: asked, in: connection), oneByOne)
        }
        #expect(found.count == 500)
        #expect(found.keys.allSatisfy { oneByOne[$0] != nil })
        for (key, known) in oneByOne {
            #expect(found[key]?.clock == known.clock && found[key]?.deleted == known.deleted && found[key]?.digest == known.digest, "\(key)")
        }
    }
}
