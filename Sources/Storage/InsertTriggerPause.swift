/// Many rows added to one rowid table without running its `AFTER INSERT`
/// triggers once per row. Each trigger with a set form (`setForms`) is
/// dropped for the length of the insert, inside the caller's transaction;
/// `resume` makes it again from its own SQL and does its work once for every
/// row added (rowid above the largest before). A trigger without a set form
/// keeps firing per row. An error or a killed process rolls the drop back
/// with the rows, so no other connection ever sees the table without them.
///
/// The journal's row images and the samples cache's invalidation were a
/// fifth of a million-row import's time as per-row trigger programs; the
/// journal now records the rows added by reference (`ChangeJournal+Appends`).
public struct InsertTriggerPause {
    private let connection: SQLiteConnection
    private let before: Int
    private let paused: [(sql: String, setForm: [String])]

    /// Pauses the triggers of `table` that have a set form, unless the table's
    /// rowids may not grow (rowid at its largest: new rows would take any free one).
    public init(on table: String, in connection: SQLiteConnection) throws {
        self.connection = connection
        // A WITHOUT ROWID table fails here: its rows have no order of arrival to select them by.
        let largest = try connection.query("SELECT max(rowid) FROM \(table)") { $0.isNull(0) ? 0 : $0.int(0) }.first ?? 0
        before = largest
        guard largest < Int.max else { paused = []; return }
        let triggers = try connection.query(
            "SELECT name, sql FROM sqlite_schema WHERE type = 'trigger' AND tbl_name = ? ORDER BY name", [.text(table)]) {
            (name: $0.text(0), sql: $0.text(1))
        }
        // The owners' set forms (the samples cache's), and the journal's for a table journaled by range.
        var setForms = connection.schema.insertTriggerSetForms
        if let appended = connection.schema.appendedTable, appended.name == table {
            setForms.merge(ChangeJournal.appendSetForms(of: appended)) { first, _ in first }
        }
        var paused: [(sql: String, setForm: [String])] = []
        for trigger in triggers {
            guard let setForm = setForms[trigger.name] else { continue }
            try connection.execute("DROP TRIGGER \(trigger.name)")
            paused.append((trigger.sql, setForm))
        }
        self.paused = paused
    }

    /// Makes the paused triggers again and does each one's work for the rows added.
    public func resume() throws {
        for trigger in paused {
            try connection.execute(trigger.sql)
            for statement in trigger.setForm {
                try connection.run(statement, [.int(before)])
            }
        }
    }
}
