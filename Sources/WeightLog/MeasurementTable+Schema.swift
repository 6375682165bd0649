import Storage

/// Frozen: each migration below is the SQL that shipped, word for word. A
/// test pins its hash (`SchemaTests`); never edit one, add the next. The migrations of the tables look alike
/// (the journal's triggers, each table's own) because each is frozen as it shipped: they are not merged.
extension MeasurementTable: SchemaOwner {
    /// Tape measurements, their index, and the journal's triggers on them.
    public var migrations: [Migration] {
        [
            // 19: tape measurements, one girth each, in centimetres; the journal records every change.
            Migration(19, #"""
            CREATE TABLE measurements (
                id TEXT PRIMARY KEY NOT NULL,
                instant REAL NOT NULL,
                kind TEXT NOT NULL CHECK (kind IN ('waist', 'hips', 'chest', 'neck', 'thigh', 'upper_arm')),
                centimetres REAL NOT NULL CHECK (centimetres BETWEEN 10 AND 300),
                typed_unit TEXT CHECK (typed_unit IS NULL OR typed_unit IN ('cm', 'in')),
                note TEXT
            );
            CREATE INDEX measurements_by_kind_instant ON measurements(kind, instant, id);
            CREATE TRIGGER journal_measurements_insert AFTER INSERT ON measurements BEGIN
                INSERT INTO journal_rows(table_code, has_before, has_after, a0, a1, a2, a3, a4, a5) SELECT 4, 0, 1, NEW.id, NEW.instant, NEW.kind, NEW.centimetres, NEW.typed_unit, NEW.note FROM journal_recording WHERE id = 1 AND change_id IS NOT NULL;
            END;
            CREATE TRIGGER journal_measurements_update AFTER UPDATE ON measurements BEGIN
                INSERT INTO journal_rows(table_code, has_before, has_after, b0, b1, b2, b3, b4, b5, a0, a1, a2, a3, a4, a5) SELECT 4, 1, 1, OLD.id, OLD.instant, OLD.kind, OLD.centimetres, OLD.typed_unit, OLD.note, NEW.id, NEW.instant, NEW.kind, NEW.centimetres, NEW.typed_unit, NEW.note FROM journal_recording WHERE id = 1 AND change_id IS NOT NULL;
            END;
            CREATE TRIGGER journal_measurements_delete AFTER DELETE ON measurements BEGIN
                INSERT INTO journal_rows(table_code, has_before, has_after, b0, b1, b2, b3, b4, b5) SELECT 4, 1, 0, OLD.id, OLD.instant, OLD.kind, OLD.centimetres, OLD.typed_unit, OLD.note FROM journal_recording WHERE id = 1 AND change_id IS NOT NULL;
            END;
            """#),
        ]
    }

    public var journaledTables: [JournaledTable] {
        [
            JournaledTable(code: 4, name: "measurements", noun: "measurement", key: ["id"],
                           columns: ["id", "instant", "kind", "centimetres", "typed_unit", "note"], keyShownAs: 8),
        ]
    }
}
