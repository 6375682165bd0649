import Foundation
import Testing
import TestSupport
@testable import Storage

/// A large insert journaled by its range of rowids (`ChangeJournal+Appends`)
/// is undone only while its rows hold what it wrote: a write by another
/// program (an update, a delete, a replace) refuses the undo and changes
/// nothing; the history's own edits and their undo do not.
@Suite struct JournalAppendsTests {
    private static let at = Date(timeIntervalSince1970: 1_780_000_000)

    /// A store with one weigh-in, then an import of `count` by reference.
    private static func imported(_ count: Int, thenSetting: Bool = false) throws -> LocalDataStore {
        let store = LocalDataStore.inMemory()
        try store.write(journal: JournalEntry(action: "weigh", summary: "weigh", at: at)) {
            try $0.run("INSERT INTO weight_entries(id, instant, kilograms) VALUES ('first', 1700000000, 80)")
        }
        try store.write(journal: JournalEntry(action: "import", summary: "import of rows.csv", at: at)) { connection in
            let pause = try InsertTriggerPause(on: "weight_entries", in: connection)
            var insert = BatchedInsert("INSERT INTO weight_entries(id, instant, kilograms)", columns: 3, in: connection)
            for index in 0..<count {
                try insert.add([.text("row\(index)"), .double(1_700_000_100 + Double(index)), .double(70 + Double(index % 30) / 10)])
            }
            try insert.finish()
            try pause.resume()
            // Recorded by its trigger after the range: it must come after the reserved seqs.
            if thenSetting { try connection.run("INSERT INTO settings(key, value) VALUES ('unit', 'kg')") }
        }
        return store
    }

    private static func count(_ store: LocalDataStore, _ table: String = "weight_entries") throws -> Int? {
        try store.read { try $0.scalarInt("SELECT count(*) FROM \(table)") }
    }

    @Test func anotherProgramsWriteRefusesTheUndo() throws {
        let outsideWrites = [
            "UPDATE weight_entries SET kilograms = 99 WHERE id = 'row7'",
            "DELETE FROM weight_entries WHERE id = 'row3'",
            // A replace removes the old row without a delete trigger and adds one past the range.
            "INSERT OR REPLACE INTO weight_entries(id, instant, kilograms) VALUES ('row5', 1, 50)",
        ]
        for write in outsideWrites {
            let store = try Self.imported(300)
            try store.read { try $0.execute(write) }  // no journal entry: a write outside the history
            let before = try Self.count(store)
            #expect(throws: JournalError.addedRowsChanged(change: "import of rows.csv", noun: "weigh-in"), "\(write)") {
                _ = try store.undoLatestChange()
            }
            #expect(try Self.count(store) == before, "nothing changed")
            #expect(try store.journalChanges(limit: 1).first?.undone == false)
        }
    }

    @Test func theHistorysOwnEditsAndTheirUndoLeaveItUndoable() throws {
        let store = try Self.imported(300)
        try store.write(journal: JournalEntry(action: "edit", summary: "edit", at: Self.at)) {
            try $0.run("UPDATE weight_entries SET kilograms = 75 WHERE id = 'row10'")
        }
        try store.write(journal: JournalEntry(action: "delete", summary: "delete", at: Self.at)) {
            try $0.run("DELETE FROM weight_entries WHERE id = 'row11'")
        }
        #expect(try store.undoLatestChange().summary == "delete")
        #expect(try store.undoLatestChange().summary == "edit")
        #expect(try store.redoLatestChange().summary == "edit", "a redo is the history's own too")
        #expect(try store.undoLatestChange().summary == "edit")
        #expect(try store.undoLatestChange().summary == "import of rows.csv")
        #expect(try Self.count(store) == 1)
        #expect(try store.redoLatestChange().rows == 300)
        #expect(try store.read { try $0.scalarInt("SELECT count(*) FROM weight_entries WHERE id = 'row10' AND kilograms = 71") } == 1)
    }

    @Test func whatTheChangeRecordsAfterTheRangeComesAfterIt() throws {
        let store = try Self.imported(250, thenSetting: true)
        #expect(try store.journalChanges(limit: 1).first?.rows == 251)
        #expect(try store.undoLatestChange().rows == 251)
        #expect(try Self.count(store) == 1)
        #expect(try Self.count(store, "settings") == 0)
        #expect(try store.redoLatestChange().rows == 251)
        #expect(try Self.count(store) == 251)
        #expect(try Self.count(store, "settings") == 1)
    }

    @Test func aNewChangeAfterAnUndoAndForgottenChangesTakeTheirRangesAlong() throws {
        let store = try Self.imported(120)
        _ = try store.undoLatestChange()
        try store.write(journal: JournalEntry(action: "weigh", summary: "weigh again", at: Self.at)) {
            try $0.run("INSERT INTO weight_entries(id, instant, kilograms) VALUES ('second', 1700000001, 81)")
        }
        #expect(try Self.count(store, "journal_appends") == 0)
        let kept = try Self.imported(130)
        for index in 0..<ChangeJournal.kept {
            try kept.write(journal: JournalEntry(action: "setting", summary: "s\(index)", at: Self.at)) {
                try $0.run("INSERT OR REPLACE INTO settings(key, value) VALUES ('n', ?)", [.int(index)])
            }
        }
        #expect(try Self.count(kept, "journal_appends") == 0, "the import is forgotten with its range")
    }
}

extension JournalAppendsTests {
    /// Rows numbered anew by another program's `VACUUM` (in the same order, without gaps) may fill the
    /// range with as many rows as it had, but not the same ones: the undo is refused.
    @Test func rowsNumberedAnewRefuseTheUndo() throws {
        let store = LocalDataStore.inMemory()
        try store.write(journal: JournalEntry(action: "weigh", summary: "weigh", at: Date(timeIntervalSince1970: 1_780_000_000))) {
            for index in 0..<5 { try $0.run("INSERT INTO weight_entries(id, instant, kilograms) VALUES (?, ?, 80)", [.text("old\(index)"), .int(1_600_000_000 + index)]) }
        }
        try store.write(journal: JournalEntry(action: "import", summary: "import of rows.csv", at: Date(timeIntervalSince1970: 1_780_000_000))) { connection in
            let pause = try InsertTriggerPause(on: "weight_entries", in: connection)
            for index in 0..<20 { try connection.run("INSERT INTO weight_entries(id, instant, kilograms) VALUES (?, ?, 70)", [.text("new\(index)"), .int(1_700_000_000 + index)]) }
            try pause.resume()
        }
        // What VACUUM does to a table without an INTEGER PRIMARY KEY after a row went: every rowid from there on one lower.
        try store.read { connection in
            try connection.execute("""
                DROP TRIGGER journal_appends_touched_by_delete; DROP TRIGGER journal_appends_touched_by_update;
                DELETE FROM weight_entries WHERE id = 'old2';
                UPDATE weight_entries SET rowid = rowid - 1 WHERE rowid > 3;
                INSERT INTO weight_entries(rowid, id, instant, kilograms) VALUES (25, 'later', 1800000000, 75);
                """)
        }
        #expect(try store.read { try $0.scalarInt("SELECT count(*) FROM weight_entries WHERE rowid > 5 AND rowid <= 25") } == 20,
                "as many rows in the range as it had")
        #expect(throws: JournalError.addedRowsChanged(change: "import of rows.csv", noun: "weigh-in")) { _ = try store.undoLatestChange() }
        #expect(try store.read { try $0.scalarInt("SELECT count(*) FROM weight_entries") } == 25, "nothing changed")
    }

    /// The set form that records a range finds the table's last rowid at its end, never by reading the whole
    /// table: a sync merging a long history pauses the triggers once a batch, and each scan grew with the table.
    @Test func recordingARangeReadsNoWholeTable() throws {
        let store = try Self.imported(2_000)
        let table = try #require(store.schema.appendedTable)
        for statement in ChangeJournal.appendSetForms(of: table).values.flatMap({ $0 }) {
            let plan = try store.read { connection in
                try connection.query("EXPLAIN QUERY PLAN " + statement, [.int(1)]) { $0.text(3) }
            }
            #expect(!plan.contains { $0.hasPrefix("SCAN \(table.name)") }, "\(plan)")
        }
    }
}
