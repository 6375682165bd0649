import Storage

/// Frozen: each migration below is the SQL that shipped, word for word. A
/// test pins its hash (`SchemaTests`); never edit one, add the next. The migrations of the tables look alike
/// (the journal's triggers, each table's own) because each is frozen as it shipped: they are not merged.
extension SettingsTable: SchemaOwner {
    /// The settings table, and the journal's triggers on it.
    public var migrations: [Migration] {
        [
            // 1: settings, one row per key.
            Migration(1, #"""
            CREATE TABLE settings (
                key TEXT PRIMARY KEY NOT NULL,
                value TEXT NOT NULL
            );
            """#),
            // 12: the journal records each change to a setting (see `ChangeJournal`).
            Migration(12, #"""
            CREATE TRIGGER journal_settings_insert AFTER INSERT ON settings BEGIN
                INSERT INTO journal_rows(table_code, has_before, has_after, a0, a1) SELECT 3, 0, 1, NEW.key, NEW.value FROM journal_recording WHERE id = 1 AND change_id IS NOT NULL;
            END;
            CREATE TRIGGER journal_settings_update AFTER UPDATE ON settings BEGIN
                INSERT INTO journal_rows(table_code, has_before, has_after, b0, b1, a0, a1) SELECT 3, 1, 1, OLD.key, OLD.value, NEW.key, NEW.value FROM journal_recording WHERE id = 1 AND change_id IS NOT NULL;
            END;
            CREATE TRIGGER journal_settings_delete AFTER DELETE ON settings BEGIN
                INSERT INTO journal_rows(table_code, has_before, has_after, b0, b1) SELECT 3, 1, 0, OLD.key, OLD.value FROM journal_recording WHERE id = 1 AND change_id IS NOT NULL;
            END;
            """#),
        ]
    }

    public var journaledTables: [JournaledTable] {
        [
            JournaledTable(code: 3, name: "settings", noun: "setting", key: ["key"], columns: ["key", "value"]),
        ]
    }
}
