import Storage

/// Frozen: each migration below is the SQL that shipped, word for word. A
/// test pins its hash (`SchemaTests`); never edit one, add the next. The migrations of the tables look alike
/// (the journal's triggers, each table's own) because each is frozen as it shipped: they are not merged.
extension HabitsTable: SchemaOwner {
    /// Habits, their days, their checkpoints, and the journal's triggers on them.
    public var migrations: [Migration] {
        [
            // 4: habits and their days. `day` is a local day number (days since
            // 1970-01-01 in the calendar of the person), as the habit's owner saw it.
            Migration(4, #"""
            CREATE TABLE habits (
                id TEXT PRIMARY KEY NOT NULL,
                name TEXT NOT NULL,
                name_key TEXT NOT NULL UNIQUE,
                schedule TEXT NOT NULL,
                kind TEXT NOT NULL,
                target REAL,
                created_day INTEGER NOT NULL,
                archived INTEGER NOT NULL DEFAULT 0,
                position INTEGER NOT NULL DEFAULT 0
            );
            CREATE TABLE habit_records (
                habit_id TEXT NOT NULL REFERENCES habits(id) ON DELETE CASCADE,
                day INTEGER NOT NULL,
                status TEXT NOT NULL CHECK (status IN ('done', 'skipped', 'value')),
                value REAL,
                PRIMARY KEY (habit_id, day)
            );
            """#),
            // 6: a habit's schedule as a storage code (`HabitSchedule.code`), no
            // longer its display words: every day → daily, 3/week → week:3,
            // 2/10 → days:2/10, mon,wed,fri → weekdays:mon,wed,fri.
            Migration(6, #"""
            UPDATE habits SET schedule = CASE
                WHEN schedule = 'every day' THEN 'daily'
                WHEN schedule GLOB '[0-9]*/week' THEN 'week:' || substr(schedule, 1, instr(schedule, '/') - 1)
                WHEN schedule GLOB '[0-9]*/[0-9]*' THEN 'days:' || schedule
                ELSE 'weekdays:' || schedule
            END;
            """#),
            // 7: a day may hold Loop's explicit NO; the days are stored along their
            // key only (WITHOUT ROWID), which halves the table for long histories.
            Migration(7, #"""
            CREATE TABLE habit_records_v7 (
                habit_id TEXT NOT NULL REFERENCES habits(id) ON DELETE CASCADE,
                day INTEGER NOT NULL,
                status TEXT NOT NULL CHECK (status IN ('done', 'skipped', 'no', 'value')),
                value REAL,
                PRIMARY KEY (habit_id, day)
            ) WITHOUT ROWID;
            INSERT INTO habit_records_v7 SELECT habit_id, day, status, value FROM habit_records;
            DROP TABLE habit_records;
            ALTER TABLE habit_records_v7 RENAME TO habit_records;
            """#),
            // 8: what a numeric habit counts (Loop's unit), empty when unnamed.
            Migration(8, #"""
            ALTER TABLE habits ADD COLUMN unit TEXT NOT NULL DEFAULT '';
            """#),
            // 9: a note on a habit's day (Loop's entry notes).
            Migration(9, #"""
            ALTER TABLE habit_records ADD COLUMN note TEXT;
            """#),
            // 12: the journal records each change to a habit and a habit day (see `ChangeJournal`).
            Migration(12, #"""
            CREATE TRIGGER journal_habits_insert AFTER INSERT ON habits BEGIN
                INSERT INTO journal_rows(table_code, has_before, has_after, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9) SELECT 1, 0, 1, NEW.id, NEW.name, NEW.name_key, NEW.schedule, NEW.kind, NEW.target, NEW.created_day, NEW.archived, NEW.position, NEW.unit FROM journal_recording WHERE id = 1 AND change_id IS NOT NULL;
            END;
            CREATE TRIGGER journal_habits_update AFTER UPDATE ON habits BEGIN
                INSERT INTO journal_rows(table_code, has_before, has_after, b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9) SELECT 1, 1, 1, OLD.id, OLD.name, OLD.name_key, OLD.schedule, OLD.kind, OLD.target, OLD.created_day, OLD.archived, OLD.position, OLD.unit, NEW.id, NEW.name, NEW.name_key, NEW.schedule, NEW.kind, NEW.target, NEW.created_day, NEW.archived, NEW.position, NEW.unit FROM journal_recording WHERE id = 1 AND change_id IS NOT NULL;
            END;
            CREATE TRIGGER journal_habits_delete AFTER DELETE ON habits BEGIN
                INSERT INTO journal_rows(table_code, has_before, has_after, b0, b1, b2, b3, b4, b5, b6, b7, b8, b9) SELECT 1, 1, 0, OLD.id, OLD.name, OLD.name_key, OLD.schedule, OLD.kind, OLD.target, OLD.created_day, OLD.archived, OLD.position, OLD.unit FROM journal_recording WHERE id = 1 AND change_id IS NOT NULL;
            END;
            CREATE TRIGGER journal_habit_records_insert AFTER INSERT ON habit_records BEGIN
                INSERT INTO journal_rows(table_code, has_before, has_after, a0, a1, a2, a3, a4) SELECT 2, 0, 1, NEW.habit_id, NEW.day, NEW.status, NEW.value, NEW.note FROM journal_recording WHERE id = 1 AND change_id IS NOT NULL;
            END;
            CREATE TRIGGER journal_habit_records_update AFTER UPDATE ON habit_records BEGIN
                INSERT INTO journal_rows(table_code, has_before, has_after, b0, b1, b2, b3, b4, a0, a1, a2, a3, a4) SELECT 2, 1, 1, OLD.habit_id, OLD.day, OLD.status, OLD.value, OLD.note, NEW.habit_id, NEW.day, NEW.status, NEW.value, NEW.note FROM journal_recording WHERE id = 1 AND change_id IS NOT NULL;
            END;
            CREATE TRIGGER journal_habit_records_delete AFTER DELETE ON habit_records BEGIN
                INSERT INTO journal_rows(table_code, has_before, has_after, b0, b1, b2, b3, b4) SELECT 2, 1, 0, OLD.habit_id, OLD.day, OLD.status, OLD.value, OLD.note FROM journal_recording WHERE id = 1 AND change_id IS NOT NULL;
            END;
            """#),
            // 13: where the walk over a habit's days stood at the end of a day
            // (`HabitCheckpoint`), a cache the list goes on from. A change to a mark
            // on or before that day, or to the habit, deletes it in the same transaction.
            Migration(13, #"""
            CREATE TABLE habit_checkpoints (
                habit_id TEXT PRIMARY KEY NOT NULL,
                through_day INTEGER NOT NULL,
                first_day INTEGER NOT NULL,
                score REAL NOT NULL,
                longest_ended_streak INTEGER NOT NULL,
                run_start INTEGER
            ) WITHOUT ROWID;
            CREATE TRIGGER habit_checkpoints_after_mark_added AFTER INSERT ON habit_records BEGIN
                DELETE FROM habit_checkpoints WHERE habit_id = NEW.habit_id AND through_day >= NEW.day;
            END;
            CREATE TRIGGER habit_checkpoints_after_mark_removed AFTER DELETE ON habit_records BEGIN
                DELETE FROM habit_checkpoints WHERE habit_id = OLD.habit_id AND through_day >= OLD.day;
            END;
            CREATE TRIGGER habit_checkpoints_after_mark_changed AFTER UPDATE ON habit_records BEGIN
                DELETE FROM habit_checkpoints WHERE (habit_id = OLD.habit_id AND through_day >= OLD.day)
                    OR (habit_id = NEW.habit_id AND through_day >= NEW.day);
            END;
            CREATE TRIGGER habit_checkpoints_after_habit_changed AFTER UPDATE ON habits BEGIN
                DELETE FROM habit_checkpoints WHERE habit_id IN (OLD.id, NEW.id);
            END;
            CREATE TRIGGER habit_checkpoints_after_habit_removed AFTER DELETE ON habits BEGIN
                DELETE FROM habit_checkpoints WHERE habit_id = OLD.id;
            END;
            """#),
            // 16: the stored checkpoints are forgotten: their score walks began at the habit's first day, and
            // now begin where Loop's do, at the oldest known entry (an at-most habit scored 1.0 before any).
            Migration(16, #"""
            DELETE FROM habit_checkpoints;
            """#),
            // 21: the stored checkpoints are forgotten again: their streaks counted covered days ahead of the day
            // they were made and before a habit's first day, and a weekday habit's skip now covers the days after it.
            Migration(21, #"""
            DELETE FROM habit_checkpoints;
            """#),
            // 22: a habit's reminder times (`habit remind`), and the reminders sent (a habit and the minute,
            // day × 1440 + minutes after midnight, it was due), so none is sent twice on any device.
            Migration(22, #"""
            CREATE TABLE habit_reminders (
                habit_id TEXT PRIMARY KEY NOT NULL REFERENCES habits(id) ON DELETE CASCADE,
                times TEXT NOT NULL
            ) WITHOUT ROWID;
            CREATE TABLE habit_reminders_sent (
                habit_id TEXT NOT NULL REFERENCES habits(id) ON DELETE CASCADE,
                moment INTEGER NOT NULL,
                PRIMARY KEY (habit_id, moment)
            ) WITHOUT ROWID;
            CREATE TRIGGER journal_habit_reminders_insert AFTER INSERT ON habit_reminders BEGIN
                INSERT INTO journal_rows(table_code, has_before, has_after, a0, a1) SELECT 5, 0, 1, NEW.habit_id, NEW.times FROM journal_recording WHERE id = 1 AND change_id IS NOT NULL;
            END;
            CREATE TRIGGER journal_habit_reminders_update AFTER UPDATE ON habit_reminders BEGIN
                INSERT INTO journal_rows(table_code, has_before, has_after, b0, b1, a0, a1) SELECT 5, 1, 1, OLD.habit_id, OLD.times, NEW.habit_id, NEW.times FROM journal_recording WHERE id = 1 AND change_id IS NOT NULL;
            END;
            CREATE TRIGGER journal_habit_reminders_delete AFTER DELETE ON habit_reminders BEGIN
                INSERT INTO journal_rows(table_code, has_before, has_after, b0, b1) SELECT 5, 1, 0, OLD.habit_id, OLD.times FROM journal_recording WHERE id = 1 AND change_id IS NOT NULL;
            END;
            CREATE TRIGGER journal_habit_reminders_sent_insert AFTER INSERT ON habit_reminders_sent BEGIN
                INSERT INTO journal_rows(table_code, has_before, has_after, a0, a1) SELECT 6, 0, 1, NEW.habit_id, NEW.moment FROM journal_recording WHERE id = 1 AND change_id IS NOT NULL;
            END;
            CREATE TRIGGER journal_habit_reminders_sent_update AFTER UPDATE ON habit_reminders_sent BEGIN
                INSERT INTO journal_rows(table_code, has_before, has_after, b0, b1, a0, a1) SELECT 6, 1, 1, OLD.habit_id, OLD.moment, NEW.habit_id, NEW.moment FROM journal_recording WHERE id = 1 AND change_id IS NOT NULL;
            END;
            CREATE TRIGGER journal_habit_reminders_sent_delete AFTER DELETE ON habit_reminders_sent BEGIN
                INSERT INTO journal_rows(table_code, has_before, has_after, b0, b1) SELECT 6, 1, 0, OLD.habit_id, OLD.moment FROM journal_recording WHERE id = 1 AND change_id IS NOT NULL;
            END;
            """#),
            // 24: the desktop notifications that carry reminders (DESIGN §9): the server (its bus's id and its name on
            // it), the id it gave, and the reminder. They stay on this installation: no journal, no sync, no snapshot.
            Migration(24, #"""
            CREATE TABLE reminder_notifications (
                server TEXT NOT NULL,
                id INTEGER NOT NULL,
                habit_id TEXT NOT NULL REFERENCES habits(id) ON DELETE CASCADE,
                moment INTEGER NOT NULL,
                PRIMARY KEY (server, id)
            ) WITHOUT ROWID;
            """#),
        ]
    }

    /// The journal's code for habit days.
    static let recordsCode = 2

    public var journaledTables: [JournaledTable] {
        [
            JournaledTable(code: 1, name: "habits", noun: "habit", key: ["id"],
                           columns: ["id", "name", "name_key", "schedule", "kind", "target", "created_day", "archived", "position", "unit"]),
            JournaledTable(code: Self.recordsCode, name: "habit_records", noun: "habit day", key: ["habit_id", "day"],
                           columns: ["habit_id", "day", "status", "value", "note"]),
            JournaledTable(code: 5, name: "habit_reminders", noun: "habit's reminder times", key: ["habit_id"], columns: ["habit_id", "times"]),
            JournaledTable(code: 6, name: "habit_reminders_sent", noun: "reminder sent", key: ["habit_id", "moment"],
                           columns: ["habit_id", "moment"], undoable: false),
        ]
    }
}
