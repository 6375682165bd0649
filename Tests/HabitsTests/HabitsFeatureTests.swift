import Foundation
import Settings
import Storage
import Testing
import TestSupport
@testable import Habits
import Vocabulary

@MainActor
@Suite struct HabitsFeatureTests {
    @Test func addMarkAndReadBackFromANewGraph() async throws {
        let store = LocalDataStore.inMemory()
        let graph = makeTestApp(store: store)
        let habits = graph.app.habitsFeature
        try await habits.add(name: "Read", schedule: .daily, kind: .yesNo)
        try await habits.add(name: "Drink water", schedule: .daily, kind: .atLeast(8))
        _ = try await habits.mark("read", as: .done)
        _ = try await habits.mark("Drink water", as: .value(6))

        let again = makeTestApp(store: store)
        try await again.app.habitsFeature.load()
        let summaries = again.app.habitsFeature.summaries()
        #expect(summaries.map(\.habit.name) == ["Read", "Drink water"])
        #expect(summaries[0].doneToday && summaries[0].dueToday && summaries[0].currentStreak == 1)
        #expect(!summaries[1].doneToday && summaries[1].todayMark == .value(6))
    }

    /// What insights read without every mark is what the marks in memory say: done at all (a yes, an
    /// amount above zero), skipped, and the first day from the oldest mark of any kind.
    @Test func doneDaysReadFromTheTableAgreeWithTheMarksInMemory() async throws {
        let store = LocalDataStore.inMemory()
        let habits = makeTestApp(store: store, clock: TestClock(date("2026-06-10 09:00"))).app.habitsFeature
        try await habits.add(name: "Read", schedule: .daily, kind: .yesNo)
        try await habits.add(name: "Drinks", schedule: .daily, kind: .atMost(2))
        let june = { WhenInput.day(year: 2026, month: 6, day: $0) }
        _ = try await habits.mark("Read", when: june(1), as: .no)
        _ = try await habits.mark("Read", when: june(3), as: .done)
        _ = try await habits.mark("Read", when: june(4), as: .skipped)
        _ = try await habits.mark("Drinks", when: june(5), as: .value(0))
        _ = try await habits.mark("Drinks", when: june(6), as: .value(1.5))
        let fresh = makeTestApp(store: store, clock: TestClock(date("2026-06-10 09:00"))).app.habitsFeature
        let read = try await fresh.doneDays()
        #expect(!fresh.hasLoaded)
        try await fresh.load()
        let inMemory = try await fresh.doneDays()
        #expect(read == inMemory)
        let day = { DayNumber.from(year: 2026, month: 6, day: $0) }
        #expect(read.map(\.done) == [[day(3)], [day(6)]] && read.map(\.skipped) == [[day(4)], []])
        #expect(read[0].firstDay == day(1) && read[0].habit.marks.isEmpty)
    }

    @Test func duplicateNamesAreRefusedWhateverTheirCase() async throws {
        let habits = makeTestApp().app.habitsFeature
        try await habits.add(name: "Read", schedule: .daily, kind: .yesNo)
        await #expect(throws: HabitsError.duplicateName("Read", archived: false)) {
            try await habits.add(name: "  READ ", schedule: .daily, kind: .yesNo)
        }
        _ = try await habits.setArchived("Read", true)
        await #expect(throws: HabitsError.duplicateName("Read", archived: true)) {
            try await habits.add(name: "read", schedule: .daily, kind: .yesNo)
        }
        #expect(HabitsError.duplicateName("Read", archived: true).description.contains("(archived)"))
        #expect(habits.habits.count == 1)
    }

    @Test func badNamesAndValuesAreRefused() async throws {
        let habits = makeTestApp().app.habitsFeature
        await #expect(throws: HabitsError.invalidName("a habit needs a name")) { try await habits.add(name: "  ", schedule: .daily, kind: .yesNo) }
        await #expect(throws: HabitsError.self) { try await habits.add(name: "a\u{0}b", schedule: .daily, kind: .yesNo) }
        await #expect(throws: HabitsError.self) { try await habits.add(name: String(repeating: "x", count: 61), schedule: .daily, kind: .yesNo) }
        try await habits.add(name: "Water", schedule: .daily, kind: .atLeast(8))
        try await habits.add(name: "Read", schedule: .daily, kind: .yesNo)
        await #expect(throws: HabitsError.valueNeeded("Water", kind: .atLeast(8))) { try await habits.mark("Water", as: .done) }
        await #expect(throws: HabitsError.valueNotAllowed("Read")) { try await habits.mark("Read", as: .value(3)) }
        await #expect(throws: HabitsError.noSuchHabit("Reed", suggestion: nil)) { try await habits.mark("Reed", as: .done) }
        #expect(habits.habits.allSatisfy { $0.marks.isEmpty })
    }

    @Test func backfillingPastDatesCountsTowardTheStreak() async throws {
        let clock = TestClock(date("2026-06-10 09:00"))
        let habits = makeTestApp(clock: clock).app.habitsFeature
        try await habits.add(name: "Read", schedule: .daily, kind: .yesNo)
        for day in 7...9 { _ = try await habits.mark("Read", when: .day(year: 2026, month: 6, day: day), as: .done) }
        #expect(habits.summaries()[0].currentStreak == 3, "yesterday back; today still open")
        _ = try await habits.mark("Read", as: .done)
        #expect(habits.summaries()[0].currentStreak == 4)
        _ = try await habits.mark("Read", when: .day(year: 2026, month: 6, day: 8), as: nil)
        #expect(habits.summaries()[0].currentStreak == 2)
        await #expect(throws: WhenInputError.future("2026-06-11")) {
            try await habits.mark("Read", when: .day(year: 2026, month: 6, day: 11), as: .done)
        }
    }

    @Test(arguments: [("Europe/Berlin", "2026-03-28 23:30"), ("America/New_York", "2026-10-31 23:30")])
    func theDayRollsOverAtLocalMidnightAcrossADaylightSavingChange(zone: String, start: String) async throws {
        let clock = TestClock(date(start, zone: zone))
        let graph = makeTestApp(clock: clock, calendar: calendar(zone: zone))
        let habits = graph.app.habitsFeature
        try await habits.add(name: "Read", schedule: .daily, kind: .yesNo)
        _ = try await habits.mark("Read", as: .done)
        let firstDay = habits.today
        #expect(habits.summaries()[0].doneToday)

        // 23:30 → 00:30 the next day, whatever the clocks did that night.
        clock.advance(by: 60 * 60)
        await habits.updateCurrentDay()
        #expect(habits.today == firstDay + 1)
        #expect(habits.summaries()[0].doneToday == false)
        #expect(habits.summaries()[0].currentStreak == 1)
        _ = try await habits.mark("Read", as: .done)

        // The change-over day is 23 or 25 hours long; 23:00 local is still that day.
        clock.now = date(zone == "Europe/Berlin" ? "2026-03-29 23:00" : "2026-11-01 23:00", zone: zone)
        await habits.updateCurrentDay()
        #expect(habits.today == firstDay + 1)
        #expect(habits.summaries()[0].currentStreak == 2)
        clock.advance(by: 2 * 60 * 60)
        // The lifecycle call alone moves the habits to the new day.
        await graph.app.applicationSignificantTimeChange()
        #expect(habits.today == firstDay + 2)
        #expect(habits.summaries()[0].currentStreak == 2, "counted from yesterday")
    }

    /// Loop's "start of day": with days starting at 04:00, a mark at 02:30 counts for
    /// the day before, and the habit day rolls over at 04:00, not at midnight.
    @Test func aStartOfDayMovesMarksBeforeItToTheDayBefore() async throws {
        let clock = TestClock(date("2026-06-10 02:30"))
        let graph = makeTestApp(clock: clock)
        let habits = graph.app.habitsFeature
        try await habits.add(name: "Read", schedule: .daily, kind: .yesNo)
        #expect(habits.today == DayNumber.from(year: 2026, month: 6, day: 10))
        try await graph.app.settingsFeature.setDayStart("04:00")
        #expect(habits.today == DayNumber.from(year: 2026, month: 6, day: 9))
        let (_, day) = try await habits.mark("Read", as: .done)
        #expect(day == DayNumber.from(year: 2026, month: 6, day: 9))
        clock.now = date("2026-06-10 03:59")
        #expect(habits.today == DayNumber.from(year: 2026, month: 6, day: 9))
        clock.now = date("2026-06-10 04:00")
        #expect(habits.today == DayNumber.from(year: 2026, month: 6, day: 10))
        #expect(habits.summaries()[0].currentStreak == 1 && !habits.summaries()[0].doneToday)
        await #expect(throws: SettingsError.notADayStart("13:00")) { try await graph.app.settingsFeature.setDayStart("13:00") }
    }

    /// Loop's entry notes: a note stays with its day, survives a new graph and a
    /// new mark without a note, goes with the mark, and never holds control characters.
    @Test func aDayKeepsItsNote() async throws {
        let store = LocalDataStore.inMemory()
        let habits = makeTestApp(store: store).app.habitsFeature
        try await habits.add(name: "Read", schedule: .daily, kind: .yesNo)
        let (_, day) = try await habits.mark("Read", as: .done, note: "  first chapter ")
        _ = try await habits.mark("Read", as: .skipped)
        let again = makeTestApp(store: store).app.habitsFeature
        try await again.load()
        #expect(again.habits[0].notes == [day: "first chapter"] && again.habits[0].marks[day] == .skipped)
        await #expect(throws: HabitsError.invalidNote) { try await again.mark("Read", as: .done, note: "bad \u{1B}[2J") }
        _ = try await again.mark("Read", as: nil)
        // Issue 16: clearing a day with no mark says so instead of "cleared".
        await #expect(throws: HabitsError.noMark("Read", day: DayNumber.string(day))) { try await again.mark("Read", as: nil) }
        let third = makeTestApp(store: store).app.habitsFeature
        try await third.load()
        #expect(third.habits[0].notes.isEmpty && third.habits[0].marks.isEmpty)
    }

    @Test func renameArchiveDeleteAndRestore() async throws {
        let store = LocalDataStore.inMemory()
        let habits = makeTestApp(store: store).app.habitsFeature
        try await habits.add(name: "Read", schedule: .daily, kind: .yesNo)
        try await habits.add(name: "Gym", schedule: .timesPerWeek(3), kind: .yesNo)
        _ = try await habits.mark("Gym", as: .done)

        _ = try await habits.rename("read", to: "Reading")
        await #expect(throws: HabitsError.duplicateName("Gym", archived: false)) { try await habits.rename("Reading", to: "gym") }
        _ = try await habits.setArchived("Reading", true)
        #expect(habits.summaries().map(\.habit.name) == ["Gym"])
        await #expect(throws: HabitsError.archived("Reading")) { try await habits.mark("Reading", as: .done) }

        let gone = try await habits.delete("Gym")
        #expect(habits.summaries().isEmpty)
        #expect(try await LocalHabitsRepository(store: store).allHabits().map(\.name) == ["Reading"])
        let back = try await habits.restoreDeleted("gym")
        #expect(back == gone)
        #expect(back.marks.count == 1, "its history comes back too")
        #expect(try await LocalHabitsRepository(store: store).allHabits().first { $0.name == "Gym" }?.marks.count == 1)
        await #expect(throws: HabitsError.nothingToRestore("Gym")) { try await habits.restoreDeleted("Gym") }
    }

    /// `habits all` lists the archived habits after the others; `habit edit NAME target N` on an at-most habit moves its
    /// limit and keeps its direction, where `at least N` turns it.
    @Test func theArchivedComeLastAndANewTargetKeepsAnAtMostHabitAtMost() async throws {
        let habits = makeTestApp(store: LocalDataStore.inMemory()).app.habitsFeature
        try await habits.add(name: "Drinks", schedule: .daily, kind: .atMost(2), unit: "drinks")
        try await habits.add(name: "Read", schedule: .daily, kind: .yesNo)
        try await habits.add(name: "Old", schedule: .daily, kind: .yesNo)
        _ = try await habits.setArchived("Old", true)
        #expect(try habits.summariesIncludingArchived().map(\.habit.name) == ["Drinks", "Read", "Old"])
        #expect(habits.summaries().map(\.habit.name) == ["Drinks", "Read"])

        #expect(try await habits.edit("Drinks", kind: .atLeast(1), keepingDirection: true).kind == .atMost(1))
        #expect(try await habits.edit("Drinks", kind: .atLeast(1)).kind == .atLeast(1))
        #expect(try await habits.edit("Drinks", kind: .atMost(3), keepingDirection: true).kind == .atMost(3))
    }

    @Test func exportWritesLoopsLayoutNewestFirst() async throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let clock = TestClock(date("2026-06-03 09:00"))
        let habits = makeTestApp(clock: clock).app.habitsFeature
        try await habits.add(name: "Read", schedule: .daily, kind: .yesNo)
        try await habits.add(name: "Water, glasses", schedule: .daily, kind: .atLeast(8))
        _ = try await habits.mark("Read", when: .day(year: 2026, month: 6, day: 1), as: .done)
        _ = try await habits.mark("Read", when: .yesterday, as: .skipped)
        _ = try await habits.mark("Water, glasses", as: .value(7.5))
        let file = temp.url.appendingPathComponent("out-habits.csv")
        #expect(try await habits.exportCSV(to: file) == 2)
        let text = try String(contentsOf: file, encoding: .utf8)
        // Loop's integer cells (HabitsCSVExporter.writeMultipleHabits): today back to the oldest original
        // entry, -1 unknown, 3 skip, 2 yes, a numeric amount x 1000; a comma after every cell; LF.
        #expect(text == "Date,Read,\"Water, glasses\",\n2026-06-03,-1,7500,\n2026-06-02,3,-1,\n2026-06-01,2,-1,\n")
    }

    /// Loop's HabitsCSVExporterTest.testExportCSV: the files and folders of an export,
    /// with the per-habit folders named `NNN Name`; a 1-in-3 habit's covered days are 1.
    @Test func exportFolderHoldsWhatLoopsExportHolds() async throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let habits = makeTestApp(clock: TestClock(date("2026-06-10 09:00"))).app.habitsFeature
        try await habits.add(name: "Meditate", schedule: .timesPerDays(times: 1, days: 3), kind: .yesNo)
        try await habits.add(name: "Wake up early", schedule: .daily, kind: .atMost(2))
        _ = try await habits.mark("Meditate", when: .day(year: 2026, month: 6, day: 7), as: .done)
        _ = try await habits.mark("Wake up early", when: .day(year: 2026, month: 6, day: 9), as: .value(3))
        let folder = temp.url.appendingPathComponent("loop")
        #expect(try await habits.exportLoopFolder(to: folder) == 2)
        for path in ["Habits.csv", "001 Meditate/Checkmarks.csv", "001 Meditate/Scores.csv", "002 Wake up early/Checkmarks.csv",
                     "002 Wake up early/Scores.csv", "Checkmarks.csv", "Scores.csv"] {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path), "\(path)")
        }
        let read = { (path: String) in try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8) }
        #expect(try read("Checkmarks.csv") == """
            Date,Meditate,Wake up early,
            2026-06-10,-1,-1,
            2026-06-09,1,3000,
            2026-06-08,1,-1,
            2026-06-07,2,-1,

            """)
        #expect(try read("001 Meditate/Checkmarks.csv") == "2026-06-09,1\n2026-06-08,1\n2026-06-07,2\n")
        #expect(try read("Habits.csv").split(separator: "\n").dropFirst().map(String.init) == [
            "001,Meditate,YES_NO,,,1,3,#37474F,,,,false", "002,Wake up early,NUMERICAL,,,1,1,#37474F,,AT_MOST,2.0,false",
        ])
        let scores = try read("Scores.csv").split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        #expect(scores.count == 5 && scores[1].count == 4 && scores[1][3] == "")
        // The at-most habit starts at 1.0 in Loop and loses strength on the day it went over.
        #expect(Double(scores[1][2]) ?? 0 < 1 && scores[4][2] == "0.0000")
    }

    @Test func aStoredHabitThatCannotBeReadIsReportedByNameNotDropped() async throws {
        let store = LocalDataStore.inMemory()
        let habits = makeTestApp(store: store).app.habitsFeature
        _ = try await habits.add(name: "Read", schedule: .daily, kind: .yesNo)
        // A row written by a newer Trend, or damaged: a schedule this version does not know.
        try store.write { try $0.run("UPDATE habits SET schedule = 'every full moon' WHERE name = 'Read'") }
        let fresh = makeTestApp(store: store).app.habitsFeature
        await #expect(throws: HabitsError.unreadableHabit(name: "Read", detail: "its schedule 'every full moon' is unknown")) {
            try await fresh.load()
        }
    }
}

/// Issue 19: `status` reads only the marks that decide today; what it counts
/// due must equal what the whole history says, for every schedule and kind.
@MainActor
@Suite struct DueTodayReadingLittleTests {
    @Test func theRecentMarksSayWhatTheWholeHistorySays() async throws {
        let store = LocalDataStore.inMemory()
        let start = date("2024-01-01 08:00")
        let writer = makeTestApp(store: store, clock: TestClock(start.addingTimeInterval(400 * 86_400))).app.habitsFeature
        let schedules: [(String, HabitSchedule, HabitKind)] = [
            ("Daily", .daily, .yesNo), ("Weekdays", .weekdays([0, 2, 4]), .yesNo), ("Three a week", .timesPerWeek(3), .yesNo),
            ("Two in ten", .timesPerDays(times: 2, days: 10), .yesNo), ("Monthly", .timesPerDays(times: 1, days: 30), .yesNo),
            ("Water", .daily, .atLeast(8)), ("Soda", .daily, .atMost(1)), ("Runs", .timesPerWeek(2), .atLeast(5)),
        ]
        for (name, schedule, kind) in schedules { try await writer.add(name: name, schedule: schedule, kind: kind) }
        var random = SystemRandomNumberGenerator()
        for offset in 0..<400 {
            let day = Calendar(identifier: .gregorian).date(byAdding: .day, value: offset, to: start)!
            let parts = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: day)
            let when = WhenInput.day(year: parts.year!, month: parts.month!, day: parts.day!)
            for (name, _, kind) in schedules where Int.random(in: 0..<10, using: &random) < 4 {
                let mark: HabitMark = kind.isNumeric ? .value(Double(Int.random(in: 0...10, using: &random)))
                    : [.done, .done, .done, .skipped, .no].randomElement(using: &random)!
                _ = try await writer.mark(name, when: when, as: mark)
            }
        }
        #expect(writer.habits.map(\.marks.count).reduce(0, +) > 1_000)
        for offset in [380, 390, 395, 399, 405, 430] {
            let clock = TestClock(start.addingTimeInterval(Double(offset) * 86_400))
            let full = makeTestApp(store: store, clock: clock).app.habitsFeature
            try await full.load()
            let lean = makeTestApp(store: store, clock: clock).app.habitsFeature
            let counted = try await lean.dueTodayReadingLittle()
            #expect(counted == full.dueToday(), "day \(offset)")
            #expect(!lean.hasLoaded, "nothing was loaded whole")
        }
    }
}

@Suite struct HabitsMigrationTests {
    /// Trend 0.1.0 (schema 5, its own database in Tests/Fixtures) stored a
    /// schedule's words; this Trend turns them into storage codes, and the habits read the same.
    @Test @MainActor func schemaSixTurnsStoredScheduleWordsIntoCodes() async throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        try DatabaseFixture(schemaVersion: 5).copy(into: temp.url)
        let file = temp.url.appendingPathComponent(LocalDataStore.fileName)
        let words = try SQLiteConnection.openUntrusted(path: file.path).query("SELECT schedule FROM habits ORDER BY name") { $0.text(0) }
        #expect(words == ["every day", "every day", "3/week", "mon,wed,fri", "every day"])
        let marks = try DatabaseFixture.storedMarks(in: file)
        let reopened = LocalDataStore(directory: temp.url)
        let stored = try reopened.read { try $0.query("SELECT schedule FROM habits ORDER BY name") { $0.text(0) } }
        #expect(stored == ["daily", "daily", "week:3", "weekdays:mon,wed,fri", "daily"])
        reopened.close()
        #expect(try DatabaseFixture.storedMarks(in: file) == marks, "every day's mark is kept")
        let again = makeTestApp(store: LocalDataStore(directory: temp.url)).app.habitsFeature
        try await again.load()
        #expect(Dictionary(uniqueKeysWithValues: again.habits.map { ($0.name, $0.schedule) })
            == ["Read": .daily, "Drink water": .daily, "Drinks": .daily, "Gym": .timesPerWeek(3), "Piano": .weekdays([0, 2, 4])])
    }

    /// Schema 7 rebuilds the days WITHOUT ROWID and lets a day hold Loop's NO;
    /// a database written by the landing of schema 6 keeps every day it had.
    @Test @MainActor func schemaSevenKeepsEveryDayAndAcceptsAnExplicitNo() async throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        try DatabaseFixture(schemaVersion: 6).copy(into: temp.url)
        let file = temp.url.appendingPathComponent(LocalDataStore.fileName)
        let marks = try DatabaseFixture.storedMarks(in: file)
        #expect(marks.count == 9)
        let reopened = LocalDataStore(directory: temp.url)
        let sql = try reopened.read { try $0.query("SELECT sql FROM sqlite_master WHERE name = 'habit_records'") { $0.text(0) } }
        #expect(sql.first?.contains("WITHOUT ROWID") == true)
        reopened.close()
        #expect(try DatabaseFixture.storedMarks(in: file) == marks)
        let clock = TestClock(date("2026-11-14 09:00"))
        let again = makeTestApp(store: LocalDataStore(directory: temp.url), clock: clock).app.habitsFeature
        try await again.load()
        #expect(again.habits.map(\.marks.count).reduce(0, +) == 9)
        _ = try await again.mark("Read", as: .no)
        let third = makeTestApp(store: LocalDataStore(directory: temp.url), clock: clock).app.habitsFeature
        try await third.load()
        #expect(third.habits.first { $0.name == "Read" }?.marks.values.contains(.no) == true)
    }

    /// Loop's cost case: a century of days loads and reads; a day before 1900 cannot come in from a snapshot.
    @Test func aSnapshotDayBefore1900IsRefused() {
        let row = HabitsTable.Row(id: "h", name: "Old", schedule: "daily", kind: "yesno", target: nil,
                                  createdDay: PlausibleTime.days.lowerBound, archived: false, position: 0)
        let part = HabitsTable.Part(habits: [row], records: [
            HabitsTable.RecordRow(habitID: "h", day: PlausibleTime.days.lowerBound, status: "done", value: nil),
            HabitsTable.RecordRow(habitID: "h", day: PlausibleTime.days.lowerBound - 1, status: "done", value: nil),
            HabitsTable.RecordRow(habitID: "h", day: 0, status: "no", value: nil),
        ])
        let (valid, dropped) = HabitsTable().keepingValid(part)
        #expect(valid.records.map(\.day) == [PlausibleTime.days.lowerBound, 0])
        #expect(dropped == ["a habit day is before 1900 or after 2199"])
        var badUnit = row
        badUnit.unit = String(repeating: "x", count: 200)
        #expect(HabitsTable().keepingValid(HabitsTable.Part(habits: [badUnit])).valid.habits.isEmpty)
        var early = row
        early.createdDay -= 1
        #expect(HabitsTable().keepingValid(HabitsTable.Part(habits: [early])).valid.habits.isEmpty)
    }
}
