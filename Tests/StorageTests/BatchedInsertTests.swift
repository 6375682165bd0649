import Foundation
import Testing
import TestSupport
@testable import Storage

/// Many rows per `INSERT` statement, on real SQLite with the journal's
/// triggers: every row arrives once, in order, across statement borders,
/// what `OR IGNORE` leaves out is not counted, and the journal records each row.
@Suite struct BatchedInsertTests {
    @Test func everyRowArrivesOnceAcrossStatementBorders() throws {
        let store = LocalDataStore.inMemory()
        // Two full statements and a partial one; the last row repeats the first id.
        let count = 2 * BatchedInsert.rowsPerStatement + 37
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
}
