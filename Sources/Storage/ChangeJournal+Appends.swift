/// A large insert journaled by reference: instead of an image of each row it
/// adds (a million-row import wrote 84 MB of them, 0.6 s), the change records
/// the rowids it added, `(after_rowid, through_rowid]`, and reserves the
/// journal's seqs their images will take. The images are written when the
/// change is undone, from the rows themselves, after checking that nothing
/// outside the history touched them since:
///
/// - the rowids of a table only grow, so the rows added are exactly that range;
/// - a trigger marks the record `touched` when a write that is neither a
///   journaled change nor an undo or redo (another program) changes or
///   removes a row in the range;
/// - the range must still hold as many rows as it had, and its first and
///   last rows the keys they had: `VACUUM` (another program's) may number the
///   rows of a table anew, in the same order, and then neither holds.
///
/// A journaled change to one of those rows (an edit) is undone before this
/// change can be (undo takes the latest first), and its own undo checks its
/// images exactly; so untouched rows hold what this change wrote.
/// After the undo the change is an ordinary one, and redo replays its images.
extension ChangeJournal {
    /// The insert trigger of the appended table, done once for every row with
    /// a rowid above `?1` (see `InsertTriggerPause`): the range is recorded
    /// under the change being recorded, and a placeholder row (table code -1,
    /// which a replay passes over) takes the range's last seq, so whatever the
    /// change records next comes after it. The table's last rowid is a scalar `max(rowid)`, which SQLite finds
    /// at the table's end: as a subquery in FROM it scanned the whole table, which a sync merging a long history
    /// a batch at a time paid for every batch (5 ms a batch at 100,000 weigh-ins, growing with the table).
    static func appendSetForms(of table: JournaledTable) -> [String: [String]] {
        let code = table.code
        return ["journal_\(table.name)_insert": [
            """
            INSERT INTO journal_appends(first_seq, change_id, table_code, after_rowid, through_rowid, first_key, last_key)
            SELECT (SELECT ifnull(max(seq), 0) + 1 FROM journal_rows), r.change_id, \(code), ?1, m.top,
                (SELECT \(table.key[0]) FROM \(table.name) WHERE rowid = ?1 + 1), (SELECT \(table.key[0]) FROM \(table.name) WHERE rowid = m.top)
            FROM journal_recording r, (SELECT (SELECT max(rowid) FROM \(table.name)) AS top) m
            WHERE r.id = 1 AND r.change_id IS NOT NULL AND m.top > ?1
            """,
            """
            INSERT INTO journal_rows(seq, table_code, has_before, has_after)
            SELECT a.first_seq + a.through_rowid - a.after_rowid - 1, -1, 0, 0
            FROM journal_appends a JOIN journal_recording r ON r.id = 1 AND a.change_id = r.change_id
            WHERE a.after_rowid = ?1
            """,
        ]]
    }

    /// Writes the images of the rows `change` added by reference into the
    /// seqs it reserved, if nothing outside the history touched them; else
    /// throws `addedRowsChanged` (the caller's transaction rolls back).
    static func writeAppendedImages(of change: JournalChange, in connection: SQLiteConnection) throws {
        let appends = try connection.query(
            "SELECT first_seq, table_code, after_rowid, through_rowid, touched FROM journal_appends WHERE change_id = ?",
            [.int(change.id)]) { (first: $0.int(0), code: $0.int(1), after: $0.int(2), through: $0.int(3), touched: $0.int(4) != 0) }
        for append in appends {
            guard let table = connection.schema.journaled[append.code] else { continue }
            let range: [SQLValue] = [.int(append.after), .int(append.through)]
            let held = try connection.scalarInt("SELECT count(*) FROM \(table.name) WHERE rowid > ?1 AND rowid <= ?2", range) ?? -1
            let ends = try connection.scalarInt("""
                SELECT count(*) FROM journal_appends a
                WHERE a.first_seq = ?3
                  AND a.first_key IS (SELECT \(table.key[0]) FROM \(table.name) WHERE rowid = ?1 + 1)
                  AND a.last_key IS (SELECT \(table.key[0]) FROM \(table.name) WHERE rowid = ?2)
                """, range + [.int(append.first)])
            guard !append.touched, held == append.through - append.after, ends == 1 else {
                throw JournalError.addedRowsChanged(change: change.summary, noun: table.noun)
            }
            let count = append.through - append.after
            try connection.run("DELETE FROM journal_rows WHERE seq = ? AND table_code = -1", [.int(append.first + count - 1)])
            let after = (table.columns.indices.map { "a\($0)" } + (table.rowidSlot.map { ["a\($0)"] } ?? [])).joined(separator: ", ")
            let values = (table.columns + (table.rowidSlot == nil ? [] : ["rowid"])).joined(separator: ", ")
            try connection.run("""
                INSERT INTO journal_rows(seq, table_code, has_before, has_after, \(after))
                SELECT ?3 + rowid - ?1 - 1, \(append.code), 0, 1, \(values)
                FROM \(table.name) WHERE rowid > ?1 AND rowid <= ?2 ORDER BY rowid
                """, range + [.int(append.first)])
            try connection.run("DELETE FROM journal_appends WHERE first_seq = ?", [.int(append.first)])
        }
    }

    /// Runs an undo's or a redo's writes with the appends' triggers told that they are the history's own.
    static func replaying<T>(in connection: SQLiteConnection, _ body: () throws -> T) throws -> T {
        try connection.run("UPDATE journal_recording SET replaying = 1 WHERE id = 1")
        let result = try body()
        try connection.run("UPDATE journal_recording SET replaying = 0 WHERE id = 1")
        return result
    }

    /// Forgets the appends of changes that are gone (forgotten, or undone and overtaken).
    static func forgetAppends(in connection: SQLiteConnection) throws {
        try connection.run("DELETE FROM journal_appends WHERE change_id NOT IN (SELECT id FROM journal_changes)")
    }
}
