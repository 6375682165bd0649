import Foundation
import Storage
@testable import Sync
import Testing

/// The sync log's tables named once (`SyncTables.tableNames`), so leaving the sync forgets every one of them.
@Suite struct SyncTablesTests {
    @Test func leavingTheSyncEmptiesEveryTableOfTheSyncLog() throws {
        let store = LocalDataStore.inMemory(schema: DatabaseSchema([MetaTable(), JournalTables(), SyncTables()]))
        let created = try store.read { connection in
            try connection.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'sync\\_%' ESCAPE '\\' ORDER BY name") { $0.text(0) }
        }
        #expect(created == SyncTables.tableNames.sorted())
        try store.write(notifying: false) { connection in
            try connection.run("INSERT INTO sync_out(seq, line) VALUES(1, 'x')")
            try connection.run("INSERT INTO sync_notes(ms, text) VALUES(1, 'x')")
            try connection.run("INSERT INTO meta(key, value) VALUES('sync.key', 'x')")
            try SyncTables.forget(in: connection)
        }
        let left = try store.read { connection in
            try SyncTables.tableNames.map { try connection.scalarInt("SELECT count(*) FROM \($0)") ?? -1 }.reduce(0, +)
                + (connection.scalarInt("SELECT count(*) FROM meta WHERE key LIKE 'sync.%'") ?? -1)
        }
        #expect(left == 0)
    }
}
