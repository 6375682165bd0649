import Foundation

/// What a change to what a person keeps is called in the journal: written in
/// the same transaction as the change (`LocalDataStore.write(journal:_:)`).
public struct JournalEntry: Sendable, Equatable {
    /// A stable word for the kind of change: `weigh`, `edit`, `delete`,
    /// `import`, `restore`, `delete-all-data`, `habit`, `setting`, `goal`.
    public let action: String
    /// What `history` and `undo` say of it, written when the change is made.
    public let summary: String
    /// When it was made, from the caller's clock (storage reads none).
    public let at: Date
    /// Bookkeeping, not a change a person made (a reminder sent): it travels by sync, but `history` never lists
    /// it, `undo` and `redo` pass it by, and it forgets nothing that was undone.
    public let keptOutOfHistory: Bool

    /// The action of a merge of another installation's changes (a sync): `history` lists it, but `undo` and `redo`
    /// take back this installation's own commands, so they pass it by, and it forgets nothing that was undone
    /// (DESIGN §8, Undo on one device of many).
    public static let mergeAction = "sync"

    public init(action: String, summary: String, at: Date, keptOutOfHistory: Bool = false) {
        self.action = action
        self.summary = summary
        self.at = at
        self.keptOutOfHistory = keptOutOfHistory
    }
}

/// One change in the journal, as `history`, `undo` and `redo` report it.
public struct JournalChange: Sendable, Equatable {
    public let id: Int
    public let at: Date
    public let action: String
    public let summary: String
    /// Whether it has been undone (and may be redone).
    public let undone: Bool
    /// How many rows it wrote.
    public let rows: Int
}

/// Why an undo or a redo was refused; nothing was changed.
public enum JournalError: Error, Equatable, CustomStringConvertible, Sendable {
    case nothingToUndo
    case nothingToRedo
    /// The data no longer holds what the change wrote (or, for a redo, what it found).
    case conflict(change: String, undoing: Bool, noun: String, key: String)
    /// A row the change added by reference (`ChangeJournal+Appends`) was changed or removed outside the history.
    case addedRowsChanged(change: String, noun: String)

    public var description: String {
        switch self {
        case .nothingToUndo: "nothing to undo: the history holds no change that is not undone yet"
        case .nothingToRedo: "nothing to redo: no change has been undone since the last one was made"
        case let .conflict(change, undoing, noun, key):
            "'\(change)' cannot be \(undoing ? "undone" : "redone"): the \(noun) \(key) has changed since "
                + "(by a change outside the history); nothing was changed"
        case let .addedRowsChanged(change, noun):
            "'\(change)' cannot be undone: a \(noun) it added has changed since (by a change outside the history); nothing was changed"
        }
    }
}

extension SQLiteConnection {
    /// Names the change being recorded anew (an import says how many rows it added once they are in).
    public func describeRecordedChange(_ summary: String) throws {
        try run("UPDATE journal_changes SET summary = ? WHERE id = (SELECT change_id FROM journal_recording WHERE id = 1)", [.text(summary)])
    }

    /// Names the change being recorded anew and gives it `action`: a sync that carried another device's deletion of
    /// all data becomes a change `undo` takes back, as it takes back a command (it is no `JournalEntry.mergeAction`).
    public func describeRecordedChange(_ summary: String, action: String) throws {
        try run("UPDATE journal_changes SET summary = ?, action = ? WHERE id = (SELECT change_id FROM journal_recording WHERE id = 1)",
                [.text(summary), .text(action)])
    }

    /// Keeps the change being recorded out of the history, as `JournalEntry.keptOutOfHistory` does (it held only bookkeeping).
    public func keepRecordedChangeOutOfHistory() throws {
        try run("UPDATE journal_changes SET kept_out = 1 WHERE id = (SELECT change_id FROM journal_recording WHERE id = 1)")
    }
}

/// The journal of changes: every journaled write records, through triggers
/// on the tables their owners journal (`JournaledTable`, in the schema the
/// connection was migrated to), each row's image before and after, so `undo` can put
/// back exactly what a change replaced, and only if the rows still hold what
/// it wrote. The journal is not part of a snapshot.
///
/// A row image is kept in untyped columns (`b0…`, `a0…`), so every value
/// keeps its SQLite storage class and compares exactly.
enum ChangeJournal {
    /// How many changes are kept; older ones are forgotten.
    static let kept = 1_000

    /// The three triggers that record a table's row images, as its owner's
    /// migration writes them: a migration that adds a column to a journaled
    /// table makes them again with this text (its old ones dropped first).
    /// The images keep the row's rowid in `rowidSlot` when the table has one,
    /// so undoing a delete puts a row back where it was and a change
    /// journaled by its range of rowids (`ChangeJournal+Appends`) still finds it.
    /// `SchemaTests.theJournalsTriggersRecordTheColumnsTheirOwnersDeclare` holds every owner's triggers to it.
    ///
    /// The rows of a change are the contiguous run `first_seq...last_seq`
    /// (changes are written one at a time, under the write lock), so
    /// `journal_rows` needs no index and a trigger's work is one append:
    /// journaling a million-row import costs one extra row each.
    public static func triggerSQL(for table: JournaledTable) -> String {
        let code = table.code
        let slot = table.rowidSlot
        let recording = "FROM journal_recording WHERE id = 1 AND change_id IS NOT NULL"
        let before = (table.columns.indices.map { "b\($0)" } + (slot.map { ["b\($0)"] } ?? [])).joined(separator: ", ")
        let after = (table.columns.indices.map { "a\($0)" } + (slot.map { ["a\($0)"] } ?? [])).joined(separator: ", ")
        let old = (table.columns.map { "OLD.\($0)" } + (slot == nil ? [] : ["OLD.rowid"])).joined(separator: ", ")
        let new = (table.columns.map { "NEW.\($0)" } + (slot == nil ? [] : ["NEW.rowid"])).joined(separator: ", ")
        let into = "INSERT INTO journal_rows(table_code, has_before, has_after"
        return """
            CREATE TRIGGER journal_\(table.name)_insert AFTER INSERT ON \(table.name) BEGIN
                \(into), \(after)) SELECT \(code), 0, 1, \(new) \(recording);
            END;
            CREATE TRIGGER journal_\(table.name)_update AFTER UPDATE ON \(table.name) BEGIN
                \(into), \(before), \(after)) SELECT \(code), 1, 1, \(old), \(new) \(recording);
            END;
            CREATE TRIGGER journal_\(table.name)_delete AFTER DELETE ON \(table.name) BEGIN
                \(into), \(before)) SELECT \(code), 1, 0, \(old) \(recording);
            END;
            """
    }

    /// Opens a change inside the caller's transaction: a new change forgets
    /// what was undone (there is no redo past it), and the triggers record
    /// under its id until `finish`.
    static func begin(_ entry: JournalEntry, in connection: SQLiteConnection) throws -> Opened {
        if !entry.keptOutOfHistory, entry.action != JournalEntry.mergeAction {
            let undone = try connection.query("SELECT first_seq, last_seq FROM journal_changes WHERE undone = 1") { ($0.int(0), $0.int(1)) }
            if !undone.isEmpty {
                // Only the undone changes' rows: bookkeeping made since (kept out of the history) stays.
                for (first, last) in undone {
                    try connection.run("DELETE FROM journal_rows WHERE seq BETWEEN ? AND ?", [.int(first), .int(max(first, last))])
                }
                try connection.run("DELETE FROM journal_changes WHERE undone = 1")
                try forgetAppends(in: connection)
            }
        }
        // One statement makes the change and says where its rows begin.
        guard let opened = try connection.query("""
            INSERT INTO journal_changes(at, action, summary, first_seq, kept_out)
            VALUES (?, ?, ?, (SELECT ifnull(max(seq), 0) + 1 FROM journal_rows), ?) RETURNING id, first_seq
            """, [.double(entry.at.timeIntervalSince1970), .text(entry.action), .text(entry.summary), .int(entry.keptOutOfHistory ? 1 : 0)],
            row: { Opened(id: $0.int(0), firstSeq: $0.int(1)) }).first else {
            throw StorageError.sqlite(code: 0, message: "the journal made no change")
        }
        try connection.run("UPDATE journal_recording SET change_id = ? WHERE id = 1", [.int(opened.id)])
        return opened
    }

    /// A change being recorded: its id, and the seq its first row takes.
    struct Opened {
        let id: Int
        let firstSeq: Int
    }

    /// Closes the change: stops recording, drops it when it wrote nothing,
    /// and forgets changes older than the last `kept`.
    static func finish(_ opened: Opened, in connection: SQLiteConnection) throws {
        let id = opened.id
        try connection.run("UPDATE journal_recording SET change_id = NULL WHERE id = 1")
        // Its rows' count and last seq, in the statement that records them; none written: the change goes.
        try connection.run("""
            UPDATE journal_changes SET last_seq = (SELECT max(seq) FROM journal_rows), rows = (SELECT max(seq) FROM journal_rows) - ?2 + 1
            WHERE id = ?1 AND (SELECT ifnull(max(seq), 0) FROM journal_rows) >= ?2
            """, [.int(id), .int(opened.firstSeq)])
        guard connection.changes > 0 else {
            try connection.run("DELETE FROM journal_changes WHERE id = ?", [.int(id)])
            return
        }
        // Nothing to forget while the journal holds fewer than `kept` changes.
        guard id > kept else { return }
        if let forgotten = try connection.scalarInt("SELECT max(last_seq) FROM journal_changes WHERE id <= ?", [.int(id - kept)]) {
            try connection.run("DELETE FROM journal_rows WHERE seq <= ?", [.int(forgotten)])
            try connection.run("DELETE FROM journal_changes WHERE id <= ?", [.int(id - kept)])
            try forgetAppends(in: connection)
        }
    }

    private static let changeColumns = "id, at, action, summary, undone, rows, first_seq, last_seq"

    private static func change(_ row: SQLiteStatement) -> (JournalChange, ClosedRange<Int>) {
        (JournalChange(id: row.int(0), at: Date(timeIntervalSince1970: row.double(1)), action: row.text(2),
                       summary: row.text(3), undone: row.int(4) != 0, rows: row.int(5)),
         row.int(6)...max(row.int(6), row.int(7)))
    }

    /// The latest changes, newest first.
    static func changes(limit: Int, in connection: SQLiteConnection) throws -> [JournalChange] {
        try connection.query("SELECT \(changeColumns) FROM journal_changes WHERE kept_out = 0 ORDER BY id DESC LIMIT ?", [.int(limit)]) { change($0).0 }
    }

    /// Takes back the latest of this installation's own changes not undone yet (a merge is passed by): each row, newest first,
    /// must still hold what the change wrote; then it gets back what it held before.
    static func undo(in connection: SQLiteConnection) throws -> JournalChange {
        guard let (found, seqs) = try connection.query(
            "SELECT \(changeColumns) FROM journal_changes WHERE undone = 0 AND kept_out = 0 AND action != ? ORDER BY id DESC LIMIT 1",
            [.text(JournalEntry.mergeAction)], row: change).first
        else { throw JournalError.nothingToUndo }
        try writeAppendedImages(of: found, in: connection)
        try replaying(in: connection) { try replay(found, seqs: seqs, undoing: true, in: connection) }
        try markSyncDirty(seqs, in: connection)
        try connection.run("UPDATE journal_changes SET undone = 1 WHERE id = ?", [.int(found.id)])
        return JournalChange(id: found.id, at: found.at, action: found.action, summary: found.summary, undone: true, rows: found.rows)
    }

    /// Applies again the change undone last, if every row still holds what it held when it was undone.
    static func redo(in connection: SQLiteConnection) throws -> JournalChange {
        guard let (found, seqs) = try connection.query(
            "SELECT \(changeColumns) FROM journal_changes WHERE undone = 1 ORDER BY id LIMIT 1", row: change).first
        else { throw JournalError.nothingToRedo }
        try replaying(in: connection) { try replay(found, seqs: seqs, undoing: false, in: connection) }
        try markSyncDirty(seqs, in: connection)
        try connection.run("UPDATE journal_changes SET undone = 0 WHERE id = ?", [.int(found.id)])
        return JournalChange(id: found.id, at: found.at, action: found.action, summary: found.summary, undone: false, rows: found.rows)
    }

    /// Walks a change's rows (backwards to undo, forwards to redo): checks
    /// that each row holds the image the walk expects, then writes the other one.
    private static func replay(_ change: JournalChange, seqs: ClosedRange<Int>, undoing: Bool, in connection: SQLiteConnection) throws {
        // A habit's days may come back before the habit itself: checked at COMMIT instead.
        try connection.execute("PRAGMA defer_foreign_keys = ON")
        // A large change (an import) touches many index pages in key order, not file order: keep them in memory.
        if seqs.count > 10_000 { try connection.execute("PRAGMA cache_size = -32768") }
        defer {
            // Best effort: the default cache size only returns memory; a failure here changes no data.
            if seqs.count > 10_000 { try? connection.execute("PRAGMA cache_size = -2000") }
        }
        // Prepared once per table and kind: a change may hold a million rows.
        var statements: [Int: SQLiteStatement] = [:]
        func run(_ slot: Int, _ sql: @autoclosure () -> String, _ seq: Int) throws -> SQLiteStatement {
            if let prepared = statements[slot] {
                try prepared.reset([.int(seq)])
                _ = try prepared.step()
                return prepared
            }
            let prepared = try connection.prepare(sql(), [.int(seq)])
            statements[slot] = prepared
            _ = try prepared.step()
            return prepared
        }
        let rows = try connection.prepare("""
            SELECT seq, table_code, has_before, has_after FROM journal_rows WHERE seq BETWEEN ? AND ? ORDER BY seq \(undoing ? "DESC" : "ASC")
            """, [.int(seqs.lowerBound), .int(seqs.upperBound)])
        // What a row must hold now (`expected`), and what it gets (`wanted`): after and before to undo.
        let (expected, wanted) = undoing ? ("a", "b") : ("b", "a")

        /// One row: checked, then written.
        func replayRow(_ seq: Int, _ code: Int, hasExpected: Bool, hasWanted: Bool) throws {
            guard let table = connection.schema.journaled[code], table.undoable else { return }
            let slot = code * 8
            let count = hasExpected
                ? try run(slot, table.matchSQL(image: expected, wholeRow: true), seq).int(0)
                : try run(slot + 1, table.matchSQL(image: wanted, wholeRow: false), seq).int(0)
            guard hasExpected ? count == 1 : count == 0 else {
                let image = hasExpected ? expected : wanted
                let key = try connection.query("SELECT \(image)\(table.columns.firstIndex(of: table.key[0]) ?? 0) FROM journal_rows WHERE seq = ?",
                                               [.int(seq)]) { $0.optionalText(0) ?? "" }.first ?? ""
                throw JournalError.conflict(change: change.summary, undoing: undoing, noun: table.noun,
                                            key: table.keyShownAs.map { String(key.prefix($0)) } ?? key)
            }
            switch (hasExpected, hasWanted) {
            case (true, true): _ = try run(slot + 2, table.updateSQL(from: expected, to: wanted), seq)
            case (true, false): _ = try run(slot + 3, table.deleteSQL(image: expected), seq)
            case (false, true): _ = try run(slot + 4, table.insertSQL(image: wanted), seq)
            case (false, false): break
            }
        }

        // Consecutive inserts (or deletes) of one table are checked and written
        // as one run, one statement each: one row per statement would copy each
        // page it changes to the statement journal once per row (see
        // `BatchedInsert`). A run that does not check out is replayed row by
        // row, which names the first row that conflicts. Updates go row by row:
        // one change may update a row twice.
        var pending: Run?
        func flush() throws {
            guard let current = pending else { return }
            pending = nil
            guard let table = connection.schema.journaled[current.code] else { return }
            let range = [SQLValue.int(current.low), .int(current.high)]
            let image = current.inserting ? wanted : expected
            let found = try connection.scalarInt(table.matchRunSQL(image: image, wholeRow: !current.inserting), range) ?? -1
            guard found == (current.inserting ? 0 : current.count), current.count > 1 else {
                for seq in current.seqs(undoing: undoing) {
                    try replayRow(seq, current.code, hasExpected: !current.inserting, hasWanted: current.inserting)
                }
                return
            }
            try connection.run(current.inserting ? table.insertRunSQL(image: image, descending: undoing) : table.deleteRunSQL(image: image),
                               range)
        }
        while try rows.step() {
            let seq = rows.int(0), code = rows.int(1)
            guard connection.schema.journaled[code]?.undoable == true else { continue }
            let (hasExpected, hasWanted) = undoing ? (rows.int(3) != 0, rows.int(2) != 0) : (rows.int(2) != 0, rows.int(3) != 0)
            guard hasExpected != hasWanted else {
                try flush()
                try replayRow(seq, code, hasExpected: hasExpected, hasWanted: hasWanted)
                continue
            }
            if let current = pending, current.code == code, current.inserting == hasWanted, current.count < Run.limit,
               seq == (undoing ? current.low - 1 : current.high + 1) {
                pending?.add(seq)
            } else {
                try flush()
                pending = Run(code: code, inserting: hasWanted, low: seq, high: seq)
            }
        }
        try flush()
    }

    /// Consecutive journal rows that insert (or delete) rows of one table.
    private struct Run {
        static let limit = 10_000
        let code: Int
        let inserting: Bool
        var low: Int, high: Int
        var count: Int { high - low + 1 }

        mutating func add(_ seq: Int) {
            low = min(low, seq)
            high = max(high, seq)
        }

        func seqs(undoing: Bool) -> [Int] {
            undoing ? Array((low...high).reversed()) : Array(low...high)
        }
    }
}
