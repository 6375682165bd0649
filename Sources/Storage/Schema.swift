/// The database schema, one migration per version. `PRAGMA user_version`
/// records how many have run; a database is moved forward in one
/// transaction, and one from a newer Trend is refused rather than touched.
enum Schema {
    static let migrations: [String] = [
        // 1: settings, one row per key.
        """
        CREATE TABLE settings (
            key TEXT PRIMARY KEY NOT NULL,
            value TEXT NOT NULL
        );
        """,
        // 2: weigh-ins. Instants are seconds since 1970 (UTC); days are derived
        // in the reader's time zone, never stored.
        """
        CREATE TABLE weight_entries (
            id TEXT PRIMARY KEY NOT NULL,
            instant REAL NOT NULL,
            kilograms REAL NOT NULL CHECK (kilograms BETWEEN 20 AND 500),
            note TEXT
        );
        CREATE INDEX weight_entries_by_instant ON weight_entries(instant);
        """,
        // 3: the daily-tip deck, one row holding its state as JSON.
        """
        CREATE TABLE tip_deck (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            state TEXT NOT NULL
        );
        """,
        // 4: habits and their days. `day` is a local day number (days since
        // 1970-01-01 in the calendar of the person), as the habit's owner saw it.
        """
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
        """,
        // 5: facts about this installation (its id), not part of a snapshot.
        """
        CREATE TABLE meta (
            key TEXT PRIMARY KEY NOT NULL,
            value TEXT NOT NULL
        );
        """,
        // 6: a habit's schedule as a storage code (`HabitSchedule.code`), no
        // longer its display words: every day → daily, 3/week → week:3,
        // 2/10 → days:2/10, mon,wed,fri → weekdays:mon,wed,fri.
        """
        UPDATE habits SET schedule = CASE
            WHEN schedule = 'every day' THEN 'daily'
            WHEN schedule GLOB '[0-9]*/week' THEN 'week:' || substr(schedule, 1, instr(schedule, '/') - 1)
            WHEN schedule GLOB '[0-9]*/[0-9]*' THEN 'days:' || schedule
            ELSE 'weekdays:' || schedule
        END;
        """,
        // 7: a day may hold Loop's explicit NO; the days are stored along their
        // key only (WITHOUT ROWID), which halves the table for long histories.
        """
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
        """,
        // 8: what a numeric habit counts (Loop's unit), empty when unnamed.
        """
        ALTER TABLE habits ADD COLUMN unit TEXT NOT NULL DEFAULT '';
        """,
        // 9: a note on a habit's day (Loop's entry notes).
        """
        ALTER TABLE habit_records ADD COLUMN note TEXT;
        """,
        // 10: weigh-ins indexed in the order they are read, with their weight:
        // the check-in reads (instant, kilograms) from the index alone, already
        // sorted, without touching the rows.
        """
        DROP INDEX IF EXISTS weight_entries_by_instant;
        CREATE INDEX IF NOT EXISTS weight_entries_by_instant_id ON weight_entries(instant, id, kilograms);
        """,
        // 11: body fat in percent, where a scale or an imported file measured it.
        """
        ALTER TABLE weight_entries ADD COLUMN body_fat REAL CHECK (body_fat IS NULL OR body_fat BETWEEN 1 AND 75);
        """,
        // 12: the journal of changes behind undo, redo and history (see `ChangeJournal`).
        ChangeJournal.migration,
        // 13: where the walk over a habit's days stood at the end of a day (Habits'
        // `HabitCheckpoint`), a cache the list goes on from. A change to a mark
        // on or before that day, or to the habit, deletes it in the same transaction.
        """
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
        """,
        // 14: every weigh-in's instant and weight as two packed arrays (WeightLog's
        // `WeightTable.cachedSamples`), a cache the check-in reads instead of the
        // index. Any change to a weigh-in's instant, weight or id deletes it in
        // the same transaction.
        """
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
        """,
        // 15: a large insert journaled by the range of rowids it added (see `ChangeJournal+Appends`).
        ChangeJournal.appendsMigration,
    ]

    static var currentVersion: Int { migrations.count }

    static func migrate(_ connection: SQLiteConnection) throws {
        let found = try connection.scalarInt("PRAGMA user_version") ?? 0
        if found > currentVersion {
            throw StorageError.newerSchema(path: connection.path, found: found, supported: currentVersion)
        }
        guard found < currentVersion else { return }
        try connection.execute("BEGIN IMMEDIATE")
        do {
            // Another process may have migrated while this one waited for the lock.
            let version = try connection.scalarInt("PRAGMA user_version") ?? 0
            for migration in migrations.dropFirst(version) {
                try connection.execute(migration)
            }
            try connection.execute("PRAGMA user_version = \(currentVersion)")
            try connection.execute("COMMIT")
        } catch {
            // The migration's own error is the one to report; the rollback is tried until it takes.
            connection.rollBack()
            throw error
        }
    }
}
