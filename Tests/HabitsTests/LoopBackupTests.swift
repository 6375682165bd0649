import Foundation
@testable import Storage
import Testing
import TestSupport
@testable import Habits
import Vocabulary

/// Loop Habit Tracker backups (Tests/Fixtures/loop, in Loop's own schema) come
/// in as Loop's LoopDBImporter reads them: habits by position, days by UTC
/// midnight, archived kept, a bad row reported and left out.
@MainActor
@Suite struct LoopBackupTests {
    let today = DayNumber.from(year: 2026, month: 6, day: 10)

    @Test func aBackupReadsAsLoopWroteIt() throws {
        let backup = try LoopBackup.read(path: fixtureURL("loop/loop-backup.db").path, today: today)
        #expect(backup.habits.map(\.name) == ["Meditate", "Gym", "Water", "Soda"])
        #expect(backup.habits.map(\.schedule) == [.daily, .timesPerWeek(3), .daily, .daily])
        #expect(backup.habits.map(\.kind) == [.yesNo, .yesNo, .atLeast(8), .atMost(1)])
        #expect(backup.habits.map(\.archived) == [false, false, false, true])
        let june = { DayNumber.from(year: 2026, month: 6, day: $0) }
        let meditate = backup.habits[0].marks
        #expect(meditate[june(1)] == .done && meditate[june(6)] == .skipped && meditate[june(7)] == .no && meditate.count == 8)
        #expect(backup.habits[2].marks[june(2)] == .value(6.5))
        #expect(backup.habits[0].notes == [june(8): "Felt calm"])
        #expect(backup.habits[0].firstDay == june(1))
        #expect(backup.problems == ["habit 'Impossible': frequency 9/7 is not a schedule", "2 days with an impossible date or value"])
    }

    /// Loop's own ImportTest.testLoopDB on Loop's own test asset (uhabits-core/assets/test/loop.db, schema 12):
    /// nine habits, three names twice, all kept; "Wake up early" 3/week, done 14 and 16 March 2016, not the 17th.
    @Test func loopsOwnTestDatabaseKeepsEveryHabitAsLoopsImportTestExpects() throws {
        let backup = try LoopBackup.read(path: fixtureURL("loop/loop-importtest.db").path, today: today)
        #expect(backup.habits.count == 9)
        #expect(backup.habits.map(\.name) == ["Wake up early", "brush teeth", "Sleep early", "Vegan", "Sport", "I love you",
                                              "Vegan (2)", "Sport (2)", "I love you (2)"])
        #expect(backup.problems.isEmpty)
        #expect(backup.assumptions.count == 3 && backup.assumptions[0].contains("comes in as 'Vegan (2)'"))
        let wake = backup.habits[0]
        #expect(wake.schedule == .timesPerWeek(3))
        let march = { DayNumber.from(year: 2016, month: 3, day: $0) }
        #expect(wake.marks[march(14)] == .done && wake.marks[march(16)] == .done && wake.marks[march(17)] == nil)
        // The second "Vegan" keeps its own 43 days rather than being left out.
        #expect(backup.habits[6].marks.count == 43 && backup.habits[3].marks.count == 15)
    }

    /// Issue 32, item 12: a backup whose rows repeat two days many times over (Loop's Repetitions has no unique
    /// key on habit and day) said "953,830 days with an impossible date or value" when two days were left out.
    /// A day is counted once, and only when none of its rows could be read.
    @Test func daysLeftOutAreCountedAsDaysNotRows() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let file = temp.url.appendingPathComponent("repeats.db")
        let connection = try SQLiteConnection.openInMemory()
        try connection.execute("""
            CREATE TABLE Habits (id integer primary key autoincrement, archived integer, freq_den integer, freq_num integer,
                name text, position integer, type integer not null default 0, target_type integer not null default 0,
                target_value real not null default 0, unit text not null default "");
            CREATE TABLE Repetitions (id integer primary key autoincrement, habit integer, timestamp integer, value integer not null, notes text);
            INSERT INTO Habits (archived, freq_den, freq_num, name, position) VALUES (0, 1, 1, 'Read', 0);
            WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 2999)
            INSERT INTO Repetitions (habit, timestamp, value) SELECT 1, 1780617600000 + (i % 2) * 86400000, 7 FROM n;
            INSERT INTO Repetitions (habit, timestamp, value) VALUES (1, 1780790400000, 7), (1, 1780790400000 + 3600000, 2),
                (1, 1780876800000, 2), (1, 99999999999999999, 2);
            VACUUM INTO '\(file.path)'
            """)
        let backup = try LoopBackup.read(path: file.path, today: today)
        // 2026-06-05 and -06 (3,000 rows of value 7, which a yes/no habit cannot hold) and a day three million years ahead are left out;
        // 2026-06-07 has a bad row and a good one, so it comes in, as does the 8th.
        #expect(backup.problems == ["3 days with an impossible date or value (3002 rows)"])
        #expect(backup.habits[0].marks == [DayNumber.from(year: 2026, month: 6, day: 7): .done, DayNumber.from(year: 2026, month: 6, day: 8): .done])
    }

    @Test func theFirstSchemaWithoutValuesReadsEveryRepetitionAsAYes() throws {
        let backup = try LoopBackup.read(path: fixtureURL("loop/loop-backup-v9.db").path, today: today)
        #expect(backup.habits.map(\.name) == ["Run"])
        #expect(backup.habits[0].schedule == .timesPerWeek(2))
        #expect(backup.habits[0].marks == [DayNumber.from(year: 2016, month: 3, day: 1): .done, DayNumber.from(year: 2016, month: 3, day: 3): .done])
    }

    @Test func importMergesWithoutDuplicatesAndPreviewWritesNothing() async throws {
        let store = LocalDataStore.inMemory()
        let graph = makeTestApp(store: store, clock: TestClock(date("2026-06-10 09:00")))
        let habits = graph.app.habitsFeature
        try await habits.add(name: "meditate", schedule: .daily, kind: .yesNo)
        _ = try await habits.mark("meditate", when: .day(year: 2026, month: 6, day: 8), as: .skipped)
        let url = fixtureURL("loop/loop-backup.db")
        let preview = try await habits.importLoopBackup(url, preview: true)
        #expect(!preview.imported && habits.habits.count == 1)
        #expect(preview.newHabits == ["Gym", "Water", "Soda"] && preview.mergedHabits == ["meditate"])
        #expect(preview.newDays == 7 + 4 + 3 + 2 && preview.existingDays == 1 && preview.archived == 1)
        let done = try await habits.importLoopBackup(url, preview: false)
        #expect(done.imported && done.newDays == preview.newDays)
        // Issue 32, item 12: the history counts the days the new habits brought too, in words that agree with the number.
        #expect(try await graph.app.changeHistoryFeature.recent(1).first?.summary == "import of loop-backup.db (3 new habits, 16 new days)")
        // The day already here keeps its own mark.
        #expect(habits.habits[0].marks[DayNumber.from(year: 2026, month: 6, day: 8)] == .skipped)
        let again = makeTestApp(store: store, clock: TestClock(date("2026-06-10 09:00"))).app.habitsFeature
        try await again.load()
        #expect(again.habits.map(\.name) == ["meditate", "Gym", "Water", "Soda"] && again.habits[3].archived)
        let twice = try await again.importLoopBackup(url, preview: false)
        #expect(!twice.imported && twice.newDays == 0 && twice.newHabits.isEmpty)
    }

    @Test func aFileThatIsNotALoopBackupIsRefusedByName() async throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let other = temp.url.appendingPathComponent("other.db")
        let store = LocalDataStore(directory: temp.url)
        _ = try store.read { try $0.scalarInt("SELECT 1") }
        let own = temp.url.appendingPathComponent("trend.sqlite")
        try FileManager.default.copyItem(at: own, to: other)
        #expect(throws: HabitsError.notALoopBackup(other.path)) { try LoopBackup.read(path: other.path, today: today) }
        let garbage = temp.url.appendingPathComponent("garbage.db")
        try Data("SQLite format 3\0".utf8 + Data(repeating: 0xAB, count: 4096)).write(to: garbage)
        #expect(LoopBackup.looksLikeOne(path: garbage.path))
        #expect(throws: StorageError.self) { try LoopBackup.read(path: garbage.path, today: today) }
    }
}
