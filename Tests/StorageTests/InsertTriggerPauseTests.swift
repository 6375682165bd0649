import Foundation
import Testing
import TestSupport
@testable import Storage

/// A large insert with its triggers paused must leave exactly what the
/// triggers would have left row by row: the same journal images in the same
/// order, the samples cache gone, the triggers back, undo taking it all back;
/// and a rollback must bring the triggers back with the data.
@Suite struct InsertTriggerPauseTests {
    private static let journal = JournalEntry(action: "import", summary: "rows", at: Date(timeIntervalSince1970: 1_780_000_000))

    private static func insertRows(_ count: Int, paused: Bool, into store: LocalDataStore) throws -> Int {
        try store.write(journal: journal) { connection in
            let pause = paused ? try InsertTriggerPause(on: "weight_entries", in: connection) : nil
            var insert = BatchedInsert("INSERT OR IGNORE INTO weight_entries(id, instant, kilograms, note, body_fat)", columns: 5, in: connection)
            for index in 0..<count {
                try insert.add([.text(String(format: "id%05d", (index * 7919) % count)), .double(1_780_000_000 + Double(index)),
                                .double(70 + Double(index % 50) / 10), .optional(index % 3 == 0 ? "n\(index)" : nil),
                                index % 4 == 0 ? .double(20 + Double(index % 9)) : .null])
            }
            try insert.add([.text("id00000"), .double(1), .double(99), .null, .null])  // left out: its id is taken
            let added = try insert.finish()
            try pause?.resume()
            return added
        }
    }

    private static func journalRows(_ store: LocalDataStore) throws -> [String] {
        try store.read { connection in
            try connection.query("SELECT * FROM journal_rows ORDER BY seq") { row in
                (0..<24).map { row.isNull(Int32($0)) ? "-" : row.text(Int32($0)) }.joined(separator: "|")
            }
        }
    }

    private static func seedStore() throws -> LocalDataStore {
        let store = LocalDataStore.inMemory()
        try store.write { connection in
            try connection.run("INSERT INTO weight_entries(id, instant, kilograms) VALUES ('before', 1700000000, 80)")
            try connection.run("INSERT INTO weight_samples_cache(id, count, seconds, kilograms) VALUES (1, 0, x'', x'')")
        }
        return store
    }

    @Test func leavesWhatTheTriggersWouldHaveLeft() throws {
        let perRow = try Self.seedStore(), paused = try Self.seedStore()
        let count = 2_503
        #expect(try Self.insertRows(count, paused: false, into: perRow) == count)
        #expect(try Self.insertRows(count, paused: true, into: paused) == count)
        #expect(try Self.journalRows(perRow).count == count, "an image of each row added")
        #expect(try Self.journalRows(paused).count == 1, "the range instead, and a placeholder at its last seq")
        for store in [perRow, paused] {
            #expect(try store.read { try $0.scalarInt("SELECT count(*) FROM weight_samples_cache") } == 0, "the cache is invalid now")
            let triggers = try store.read { try $0.scalarInt("SELECT count(*) FROM sqlite_schema WHERE type = 'trigger' AND tbl_name = 'weight_entries'") }
            #expect(triggers == 8)
        }
        #expect(try paused.journalChanges(limit: 1).first?.rows == count)
        #expect(try perRow.undoLatestChange().rows == count)
        #expect(try paused.undoLatestChange().rows == count)
        #expect(try Self.journalRows(paused) == Self.journalRows(perRow), "the undo wrote the images the triggers would have")
        #expect(try paused.read { try $0.scalarInt("SELECT count(*) FROM weight_entries") } == 1)
        #expect(try paused.read { try $0.scalarInt("SELECT count(*) FROM journal_appends") } == 0)
        #expect(try paused.redoLatestChange().rows == count)
        #expect(try paused.read { try $0.scalarInt("SELECT count(*) FROM weight_entries") } == count + 1)
        #expect(try paused.undoLatestChange().rows == count, "an ordinary change now")
    }

    @Test func aRollbackBringsTheTriggersBack() throws {
        let store = try Self.seedStore()
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try store.write(journal: Self.journal) { connection in
                _ = try InsertTriggerPause(on: "weight_entries", in: connection)
                try connection.run("INSERT INTO weight_entries(id, instant, kilograms) VALUES ('x', 1700000001, 80)")
                throw Stop()
            }
        }
        // Written per row now: the insert trigger is there again.
        try store.write(journal: Self.journal) { try $0.run("INSERT INTO weight_entries(id, instant, kilograms) VALUES ('y', 1700000002, 81)") }
        #expect(try Self.journalRows(store).count == 1)
        #expect(try store.read { try $0.scalarInt("SELECT count(*) FROM weight_samples_cache") } == 0)
    }

    @Test func aTableWithoutRowidsIsRefused() throws {
        let store = LocalDataStore.inMemory()
        #expect(throws: StorageError.self) {
            try store.write { _ = try InsertTriggerPause(on: "habit_records", in: $0) }
        }
    }
}
