/// The journal's own tables (`journal_changes`, `journal_rows`,
/// `journal_recording`, `journal_appends`): Storage keeps them; the triggers
/// that fill them belong to each journaled table's owner.
/// Frozen: each migration below is the SQL that shipped, word for word. A
/// test pins its hash (`SchemaTests`); never edit one, add the next.
public struct JournalTables: SchemaOwner {
    public init() {}

    public var migrations: [Migration] {
        [
            // 12: the journal's tables; each journaled table's owner adds its triggers at the same version.
            Migration(12, #"""
            CREATE TABLE journal_changes (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                at REAL NOT NULL,
                action TEXT NOT NULL,
                summary TEXT NOT NULL,
                undone INTEGER NOT NULL DEFAULT 0,
                rows INTEGER NOT NULL DEFAULT 0,
                first_seq INTEGER NOT NULL,
                last_seq INTEGER NOT NULL DEFAULT 0
            );
            CREATE TABLE journal_rows (
                seq INTEGER PRIMARY KEY,
                table_code INTEGER NOT NULL,
                has_before INTEGER NOT NULL,
                has_after INTEGER NOT NULL,
                b0, a0, b1, a1, b2, a2, b3, a3, b4, a4, b5, a5, b6, a6, b7, a7, b8, a8, b9, a9
            );
            CREATE TABLE journal_recording (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                change_id INTEGER
            );
            INSERT INTO journal_recording(id, change_id) VALUES (1, NULL);
            """#),
            // 15: a large insert journaled by the range of rowids it added (`ChangeJournal+Appends`), and
            // the flag that tells an undo's or a redo's own writes from another program's.
            Migration(15, #"""
            CREATE TABLE journal_appends (
                first_seq INTEGER PRIMARY KEY,
                change_id INTEGER NOT NULL,
                table_code INTEGER NOT NULL,
                after_rowid INTEGER NOT NULL,
                through_rowid INTEGER NOT NULL,
                first_key NOT NULL,
                last_key NOT NULL,
                touched INTEGER NOT NULL DEFAULT 0
            );
            ALTER TABLE journal_recording ADD COLUMN replaying INTEGER NOT NULL DEFAULT 0;
            """#),
            // 22: a change kept out of the history (`JournalEntry.keptOutOfHistory`, a reminder sent): it travels by
            // sync but is never listed, undone or redone, and it forgets nothing that was undone.
            Migration(22, #"""
            ALTER TABLE journal_changes ADD COLUMN kept_out INTEGER NOT NULL DEFAULT 0;
            """#),
        ]
    }
}
