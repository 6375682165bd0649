import Foundation
import Testing
import CSQLite
import TestSupport
@testable import Storage

/// Many rows per `INSERT` statement, on real SQLite with the journal's
/// triggers: every row arrives once, in order, across statement borders,
/// what `OR IGNORE` leaves out is not counted, and the journal records each row.
@Suite struct BatchedInsertTests {
    @Test func everyRowArrivesOnceAcrossStatementBorders() throws {
        let store = LocalDataStore.inMemory()
        // Two full statements and a partial one; the last row repeats the first id.
        let count = 2 * BatchedInsert.preferredRowsPerStatement + 37
        let inserted = try store.write(journal: JournalEntry(action: "import", summary: "batch", at: Date(timeIntervalSince1970: 1_780_000_000))) { connection in
            var insert = BatchedInsert("INSERT OR IGNORE INTO weight_entries(id, instant, kilograms, note)", columns: 4, in: connection)
            for index in 0..<count {
                try insert.add([.text(String(format: "id%04d", index)), .double(1_780_000_000 + Double(index)), .double(70 + Double(index % 50) / 10),
                                .optional(index % 3 == 0 ? "n\(index)" : nil)])
            }
            try insert.add([.text("id0000"), .double(1), .double(99), .null])
            return try insert.finish()
        }
        #expect(inserted == count, "the repeated id is left out and not counted")
        let rows = try store.read {
            try $0.query("SELECT id, instant, kilograms, note FROM weight_entries ORDER BY rowid") {
                "\($0.text(0)) \($0.double(1)) \($0.double(2)) \($0.optionalText(3) ?? "-")"
            }
        }
        #expect(rows.count == count)
        #expect(rows.first == "id0000 1780000000.0 70.0 n0")
        #expect(rows.last == "id\(String(format: "%04d", count - 1)) \(1_780_000_000 + Double(count - 1)) \(70 + Double((count - 1) % 50) / 10) -")
        #expect(try store.journalChanges(limit: 1).first?.rows == count, "the journal holds a row image for each")
        #expect(try store.undoLatestChange().rows == count)
        #expect(try store.read { try $0.scalarInt("SELECT count(*) FROM weight_entries") } == 0)
    }

    /// An SQLite that takes fewer parameters per statement (999 before 3.32) gets fewer rows per statement, not an error.
    @Test func fewerRowsPerStatementWhereSQLiteTakesFewerParameters() throws {
        let store = LocalDataStore.inMemory()
        let (rows, inserted) = try store.write(journal: JournalEntry(action: "import", summary: "batch", at: Date(timeIntervalSince1970: 1_780_000_000))) { connection in
            sqlite3_limit(connection.handle, SQLITE_LIMIT_VARIABLE_NUMBER, 999)
            #expect(connection.parameterLimit == 999)
            var insert = BatchedInsert("INSERT INTO weight_entries(id, instant, kilograms, note)", columns: 4, in: connection)
            for index in 0..<1_000 {
                try insert.add([.text("id\(index)"), .double(1_780_000_000 + Double(index)), .double(70), .null])
            }
            return (insert.rowsPerStatement, try insert.finish())
        }
        #expect(rows == 249)
        #expect(inserted == 1_000)
    }
}
