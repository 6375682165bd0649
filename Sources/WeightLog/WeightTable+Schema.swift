import Storage

/// Frozen: each migration below is the SQL that shipped, word for word. A
/// test pins its hash (`SchemaTests`); never edit one, add the next. The migrations of the tables look alike
/// (the journal's triggers, each table's own) because each is frozen as it shipped: they are not merged.
extension WeightTable: SchemaOwner {
    /// Weigh-ins, their index, the samples cache, and the journal's triggers on them.
    public var migrations: [Migration] {
        [
            // 2: weigh-ins. Instants are seconds since 1970 (UTC); days are derived
            // in the reader's time zone, never stored.
            Migration(2, #"""
            CREATE TABLE weight_entries (
                id TEXT PRIMARY KEY NOT NULL,
                instant REAL NOT NULL,
                kilograms REAL NOT NULL CHECK (kilograms BETWEEN 20 AND 500),
                note TEXT
            );
            CREATE INDEX weight_entries_by_instant ON weight_entries(instant);
            """#),
            // 10: weigh-ins indexed in the order they are read, with their weight:
            // the check-in reads (instant, kilograms) from the index alone, already
            // sorted, without touching the rows.
            Migration(10, #"""
            DROP INDEX IF EXISTS weight_entries_by_instant;
            CREATE INDEX IF NOT EXISTS weight_entries_by_instant_id ON weight_entries(instant, id, kilograms);
            """#),
            // 11: body fat in percent, where a scale or an imported file measured it.
            Migration(11, #"""
            ALTER TABLE weight_entries ADD COLUMN body_fat REAL CHECK (body_fat IS NULL OR body_fat BETWEEN 1 AND 75);
            """#),
            // 12: the journal records each change to a weigh-in (see `ChangeJournal`).
            Migration(12, #"""
            CREATE TRIGGER journal_weight_entries_insert AFTER INSERT ON weight_entries BEGIN
                INSERT INTO journal_rows(table_code, has_before, has_after, a0, a1, a2, a3, a4) SELECT 0, 0, 1, NEW.id, NEW.instant, NEW.kilograms, NEW.note, NEW.body_fat FROM journal_recording WHERE id = 1 AND change_id IS NOT NULL;
            END;
            CREATE TRIGGER journal_weight_entries_update AFTER UPDATE ON weight_entries BEGIN
                INSERT INTO journal_rows(table_code, has_before, has_after, b0, b1, b2, b3, b4, a0, a1, a2, a3, a4) SELECT 0, 1, 1, OLD.id, OLD.instant, OLD.kilograms, OLD.note, OLD.body_fat, NEW.id, NEW.instant, NEW.kilograms, NEW.note, NEW.body_fat FROM journal_recording WHERE id = 1 AND change_id IS NOT NULL;
            END;
            CREATE TRIGGER journal_weight_entries_delete AFTER DELETE ON weight_entries BEGIN
                INSERT INTO journal_rows(table_code, has_before, has_after, b0, b1, b2, b3, b4) SELECT 0, 1, 0, OLD.id, OLD.instant, OLD.kilograms, OLD.note, OLD.body_fat FROM journal_recording WHERE id = 1 AND change_id IS NOT NULL;
            END;
            """#),
            // 14: every weigh-in's instant and weight as two packed arrays
            // (`WeightTable.cachedSamples`), a cache the check-in reads instead of the
            // index. Any change to a weigh-in's instant, weight or id deletes it in
            // the same transaction.
            Migration(14, #"""
            CREATE TABLE weight_samples_cache (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                count INTEGER NOT NULL,
                seconds BLOB NOT NULL,
                kilograms BLOB NOT NULL
            );
            CREATE TRIGGER weight_samples_cache_after_insert AFTER INSERT ON weight_entries BEGIN
                DELETE FROM weight_samples_cache;
            END;
            CREATE TRIGGER weight_samples_cache_after_delete AFTER DELETE ON weight_entries BEGIN
                DELETE FROM weight_samples_cache;
            END;
            CREATE TRIGGER weight_samples_cache_after_update AFTER UPDATE OF id, instant, kilograms ON weight_entries BEGIN
                DELETE FROM weight_samples_cache;
            END;
            """#),
            // 15: a large insert is journaled by its range of rowids (`ChangeJournal+Appends`):
            // a write outside the history marks the range touched, and the images keep each row's rowid.
            Migration(15, #"""
            CREATE TRIGGER journal_appends_touched_by_update AFTER UPDATE ON weight_entries WHEN EXISTS (SELECT 1 FROM journal_appends)
                AND NOT EXISTS (SELECT 1 FROM journal_recording WHERE id = 1 AND (change_id IS NOT NULL OR replaying = 1)) BEGIN
                UPDATE journal_appends SET touched = 1 WHERE table_code = 0 AND OLD.rowid > after_rowid AND OLD.rowid <= through_rowid;
            END;
            CREATE TRIGGER journal_appends_touched_by_delete AFTER DELETE ON weight_entries WHEN EXISTS (SELECT 1 FROM journal_appends)
                AND NOT EXISTS (SELECT 1 FROM journal_recording WHERE id = 1 AND (change_id IS NOT NULL OR replaying = 1)) BEGIN
                UPDATE journal_appends SET touched = 1 WHERE table_code = 0 AND OLD.rowid > after_rowid AND OLD.rowid <= through_rowid;
            END;
            DROP TRIGGER journal_weight_entries_insert;
            DROP TRIGGER journal_weight_entries_update;
            DROP TRIGGER journal_weight_entries_delete;
            CREATE TRIGGER journal_weight_entries_insert AFTER INSERT ON weight_entries BEGIN
                INSERT INTO journal_rows(table_code, has_before, has_after, a0, a1, a2, a3, a4, a9) SELECT 0, 0, 1, NEW.id, NEW.instant, NEW.kilograms, NEW.note, NEW.body_fat, NEW.rowid FROM journal_recording WHERE id = 1 AND change_id IS NOT NULL;
            END;
            CREATE TRIGGER journal_weight_entries_update AFTER UPDATE ON weight_entries BEGIN
                INSERT INTO journal_rows(table_code, has_before, has_after, b0, b1, b2, b3, b4, b9, a0, a1, a2, a3, a4, a9) SELECT 0, 1, 1, OLD.id, OLD.instant, OLD.kilograms, OLD.note, OLD.body_fat, OLD.rowid, NEW.id, NEW.instant, NEW.kilograms, NEW.note, NEW.body_fat, NEW.rowid FROM journal_recording WHERE id = 1 AND change_id IS NOT NULL;
            END;
            CREATE TRIGGER journal_weight_entries_delete AFTER DELETE ON weight_entries BEGIN
                INSERT INTO journal_rows(table_code, has_before, has_after, b0, b1, b2, b3, b4, b9) SELECT 0, 1, 0, OLD.id, OLD.instant, OLD.kilograms, OLD.note, OLD.body_fat, OLD.rowid FROM journal_recording WHERE id = 1 AND change_id IS NOT NULL;
            END;
            """#),
            // 17: the unit a weight was typed in (`weigh 202.8 lb`), so an export says it as it was typed;
            // the journal's triggers record the new column.
            Migration(17, #"""
            ALTER TABLE weight_entries ADD COLUMN typed_unit TEXT CHECK (typed_unit IS NULL OR typed_unit IN ('kg', 'lb', 'st'));
            DROP TRIGGER journal_weight_entries_insert;
            DROP TRIGGER journal_weight_entries_update;
            DROP TRIGGER journal_weight_entries_delete;
            CREATE TRIGGER journal_weight_entries_insert AFTER INSERT ON weight_entries BEGIN
                INSERT INTO journal_rows(table_code, has_before, has_after, a0, a1, a2, a3, a4, a5, a9) SELECT 0, 0, 1, NEW.id, NEW.instant, NEW.kilograms, NEW.note, NEW.body_fat, NEW.typed_unit, NEW.rowid FROM journal_recording WHERE id = 1 AND change_id IS NOT NULL;
            END;
            CREATE TRIGGER journal_weight_entries_update AFTER UPDATE ON weight_entries BEGIN
                INSERT INTO journal_rows(table_code, has_before, has_after, b0, b1, b2, b3, b4, b5, b9, a0, a1, a2, a3, a4, a5, a9) SELECT 0, 1, 1, OLD.id, OLD.instant, OLD.kilograms, OLD.note, OLD.body_fat, OLD.typed_unit, OLD.rowid, NEW.id, NEW.instant, NEW.kilograms, NEW.note, NEW.body_fat, NEW.typed_unit, NEW.rowid FROM journal_recording WHERE id = 1 AND change_id IS NOT NULL;
            END;
            CREATE TRIGGER journal_weight_entries_delete AFTER DELETE ON weight_entries BEGIN
                INSERT INTO journal_rows(table_code, has_before, has_after, b0, b1, b2, b3, b4, b5, b9) SELECT 0, 1, 0, OLD.id, OLD.instant, OLD.kilograms, OLD.note, OLD.body_fat, OLD.typed_unit, OLD.rowid FROM journal_recording WHERE id = 1 AND change_id IS NOT NULL;
            END;
            """#),
        ]
    }

    /// The weigh-ins' code in the journal and the sync log.
    static let code = 0

    public var journaledTables: [JournaledTable] {
        [
            JournaledTable(code: Self.code, name: "weight_entries", noun: "weigh-in", key: ["id"],
                           columns: WeightField.all.map(\.column), rowidSlot: 9, keyShownAs: 8, appendsByRange: true),
        ]
    }

    /// The samples cache's insert trigger, done once for a large insert.
    public var insertTriggerSetForms: [String: [String]] {
        ["weight_samples_cache_after_insert": ["DELETE FROM weight_samples_cache WHERE EXISTS (SELECT 1 FROM weight_entries WHERE rowid > ?1)"]]
    }
}
