import Foundation
import Testing
import TestSupport
@testable import Storage

/// The journal behind undo, redo and history, on real SQLite: row images
/// recorded by triggers in the change's own transaction, replayed only
/// while the rows still hold what the change wrote.
@Suite struct ChangeJournalTests {
    let at = Date(timeIntervalSince1970: 1_780_000_000)

    func entry(_ summary: String, _ action: String = "weigh") -> JournalEntry {
        JournalEntry(action: action, summary: summary, at: at)
    }

    func weights(_ store: LocalDataStore) throws -> [String] {
        try store.read {
            try $0.query("SELECT id, instant, kilograms, ifnull(note, '-') FROM weight_entries ORDER BY id") {
                "\($0.text(0)) \($0.double(1)) \($0.double(2)) \($0.text(3))"
            }
        }
    }

    @Test func undoAndRedoPutBackExactlyWhatWasThere() throws {
        let store = LocalDataStore.inMemory()
        // An instant that does not survive a trip through 15 significant digits.
        let instant = 1_780_000_000.123456789
        try store.write(journal: entry("weigh-in 80.9 kg")) {
            try $0.run("INSERT INTO weight_entries(id, instant, kilograms, note) VALUES ('aaaa1111', ?, 80.9, 'after the run')", [.double(instant)])
        }
        let recorded = try weights(store)
        try store.write(journal: entry("edit of aaaa1111", "edit")) {
            try $0.run("UPDATE weight_entries SET kilograms = 81.45, note = NULL WHERE id = 'aaaa1111'")
        }
        let edited = try weights(store)
        #expect(edited != recorded)

        let undone = try store.undoLatestChange()
        #expect(undone.summary == "edit of aaaa1111")
        #expect(undone.undone)
        #expect(try weights(store) == recorded)
        #expect(try store.read { try $0.scalarInt("SELECT count(*) FROM weight_entries WHERE instant = ?", [.double(instant)]) } == 1)

        #expect(try store.undoLatestChange().summary == "weigh-in 80.9 kg")
        #expect(try weights(store).isEmpty)
        #expect(throws: JournalError.nothingToUndo) { try store.undoLatestChange() }

        #expect(try store.redoLatestChange().summary == "weigh-in 80.9 kg")
        #expect(try weights(store) == recorded)
        #expect(try store.redoLatestChange().summary == "edit of aaaa1111")
        #expect(try weights(store) == edited)
        #expect(throws: JournalError.nothingToRedo) { try store.redoLatestChange() }
        #expect(try store.journalChanges(limit: 10).map(\.undone) == [false, false])
    }

    @Test func anUndoThatWouldLoseALaterChangeIsRefusedAndChangesNothing() throws {
        let store = LocalDataStore.inMemory()
        try store.write(journal: entry("weigh-in 80.9 kg")) {
            try $0.run("INSERT INTO weight_entries(id, instant, kilograms, note) VALUES ('bbbb2222', 1780000000, 80.9, NULL)")
        }
        // Another writer (an older trend, say) changes the row outside the journal.
        try store.write { try $0.run("UPDATE weight_entries SET kilograms = 90 WHERE id = 'bbbb2222'") }
        let before = try weights(store)
        #expect(throws: JournalError.conflict(change: "weigh-in 80.9 kg", undoing: true, noun: "weigh-in", key: "bbbb2222")) {
            try store.undoLatestChange()
        }
        #expect(try weights(store) == before)
        #expect(try store.journalChanges(limit: 10).first?.undone == false)

        // A redo refuses as well when the undone row came back meanwhile.
        try store.write { try $0.run("UPDATE weight_entries SET kilograms = 80.9 WHERE id = 'bbbb2222'") }
        _ = try store.undoLatestChange()
        try store.write { try $0.run("INSERT INTO weight_entries(id, instant, kilograms, note) VALUES ('bbbb2222', 1780000000, 70, NULL)") }
        #expect(throws: JournalError.conflict(change: "weigh-in 80.9 kg", undoing: false, noun: "weigh-in", key: "bbbb2222")) {
            try store.redoLatestChange()
        }
        #expect(try weights(store) == ["bbbb2222 1780000000.0 70.0 -"])
    }

    @Test func deletingAHabitIsUndoneWithItsDaysThroughTheCascade() throws {
        let store = LocalDataStore.inMemory()
        try store.write(journal: entry("habit add Read", "habit")) { connection in
            try connection.run("""
                INSERT INTO habits(id, name, name_key, schedule, kind, target, created_day, archived, position, unit)
                VALUES ('h1', 'Read', 'read', 'daily', 'yes', NULL, 20000, 0, 0, '')
                """)
            for day in 20000..<20005 {
                try connection.run("INSERT INTO habit_records(habit_id, day, status) VALUES ('h1', ?, 'done')", [.int(day)])
            }
        }
        func days() throws -> Int { try store.read { try $0.scalarInt("SELECT count(*) FROM habit_records") ?? -1 } }
        try store.write(journal: entry("habit delete Read", "habit")) { try $0.run("DELETE FROM habits WHERE id = 'h1'") }
        #expect(try days() == 0)
        #expect(try store.journalChanges(limit: 1).first?.rows == 6)
        _ = try store.undoLatestChange()
        #expect(try days() == 5)
        #expect(try store.read { try $0.scalarInt("SELECT count(*) FROM habits WHERE name = 'Read'") } == 1)
        #expect(try store.read { try $0.scalarInt("PRAGMA foreign_key_check") } == nil)
    }

    @Test func aNewChangeEndsRedoAndAChangeThatWritesNothingIsNotKept() throws {
        let store = LocalDataStore.inMemory()
        try store.write(journal: entry("set units lb", "setting")) { try $0.run("INSERT INTO settings VALUES ('unit', 'lb')") }
        _ = try store.undoLatestChange()
        try store.write(journal: entry("set units st", "setting")) { try $0.run("INSERT INTO settings VALUES ('unit', 'st')") }
        #expect(throws: JournalError.nothingToRedo) { try store.redoLatestChange() }
        try store.write(journal: entry("import of 0 weigh-ins", "import")) { _ in }
        #expect(try store.journalChanges(limit: 10).map(\.summary) == ["set units st"])
        // Writes without an entry are not journaled.
        try store.write { try $0.run("INSERT INTO settings VALUES ('progressRange', '6m')") }
        #expect(try store.read { try $0.scalarInt("SELECT count(*) FROM journal_rows") } == 1)
    }

    @Test func theLastThousandChangesAreKept() throws {
        let store = LocalDataStore.inMemory()
        for index in 0..<1_010 {
            try store.write(journal: entry("weigh-in \(index)")) {
                try $0.run("INSERT INTO weight_entries(id, instant, kilograms, note) VALUES (?, ?, 80, NULL)", [.text("id\(index)"), .double(Double(index))])
            }
        }
        let changes = try store.journalChanges(limit: 2_000)
        #expect(changes.count == ChangeJournal.kept)
        #expect(changes.first?.summary == "weigh-in 1009")
        #expect(changes.last?.summary == "weigh-in 10")
        #expect(try store.read { try $0.scalarInt("SELECT count(*) FROM journal_rows") } == ChangeJournal.kept)
    }
}

/// Runs of inserts or deletes are replayed a statement per run: the same
/// rows come back, in a change that mixes them, and a row changed from
/// outside still stops the undo by name, changing nothing.
@Suite struct ChangeJournalRunTests {
    let at = Date(timeIntervalSince1970: 1_780_000_000)

    func rows(_ store: LocalDataStore) throws -> [String] {
        try store.read {
            try $0.query("SELECT id, instant, kilograms, ifnull(note, '-') FROM weight_entries ORDER BY id") {
                "\($0.text(0)) \($0.double(1)) \($0.double(2)) \($0.text(3))"
            }
        }
    }

    func insert(_ ids: Range<Int>, prefix: String, in connection: SQLiteConnection) throws {
        var insert = BatchedInsert("INSERT INTO weight_entries(id, instant, kilograms, note)", columns: 4, in: connection)
        for index in ids {
            try insert.add([.text(String(format: "\(prefix)%05d", index)), .double(1_780_000_000 + Double(index)), .double(70 + Double(index % 40) / 4),
                            .optional(index % 3 == 0 ? "n\(index)" : nil)])
        }
        try insert.finish()
    }

    @Test func runsComeBackExactlyAndAConflictInOneIsNamed() throws {
        let store = LocalDataStore.inMemory()
        try store.write(journal: JournalEntry(action: "import", summary: "first", at: at)) { try insert(0..<700, prefix: "aaaa", in: $0) }
        let first = try rows(store)
        // A restore-like change: every row deleted, others inserted, in one change.
        try store.write(journal: JournalEntry(action: "restore", summary: "second", at: at)) { connection in
            try connection.execute("DELETE FROM weight_entries")
            try insert(0..<500, prefix: "bbbb", in: connection)
        }
        let second = try rows(store)
        #expect(try store.undoLatestChange().summary == "second")
        #expect(try rows(store) == first)
        #expect(try store.redoLatestChange().summary == "second")
        #expect(try rows(store) == second)
        // Another program edits one row in the middle of the run the undo must delete.
        try store.write { _ = try $0.run("UPDATE weight_entries SET kilograms = 99 WHERE id = 'bbbb00250'") }
        let edited = try rows(store)
        #expect(throws: JournalError.conflict(change: "second", undoing: true, noun: "weigh-in", key: "bbbb0025")) {
            _ = try store.undoLatestChange()
        }
        #expect(try rows(store) == edited, "nothing changed")
        try store.write { _ = try $0.run("UPDATE weight_entries SET kilograms = ? WHERE id = 'bbbb00250'", [.double(70 + Double(250 % 40) / 4)]) }
        #expect(try store.undoLatestChange().summary == "second")
        #expect(try rows(store) == first)
        #expect(try store.undoLatestChange().summary == "first")
        #expect(try rows(store).isEmpty)
    }
}
