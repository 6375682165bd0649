import Foundation
import Testing
import TestSupport
@testable import Habits
import Vocabulary

/// Loop's CSV export in both layouts (Tests/Fixtures/loop), and Trend's own
/// export read back: the days a person recorded come in, Loop's computed
/// days (covered, unknown) are recomputed rather than stored.
@MainActor
@Suite struct LoopCSVTests {
    let today = DayNumber.from(year: 2026, month: 6, day: 10)

    @Test func theIntegerLayoutWithTheOlderHabitColumns() throws {
        let export = try LoopCSV.read(folder: fixtureURL("loop/csv-v2.2"), today: today)
        #expect(export.habits.map(\.name) == ["Meditate", "Wake up early"])
        #expect(export.habits.map(\.schedule) == [.daily, .timesPerDays(times: 2, days: 3)])
        let day = { DayNumber.from(year: 2015, month: 1, day: $0) }
        #expect(export.habits[0].marks == [day(25): .done, day(24): .no, day(23): .skipped, day(22): .done, day(20): .done])
        // 1 (covered) and -1 (unknown) are Loop's computation, not marks.
        #expect(export.habits[1].marks == [day(24): .done, day(22): .done])
        #expect(export.problems.isEmpty)
    }

    @Test func theLabelLayoutWithUnitsTargetsAndArchived() throws {
        let export = try LoopCSV.read(folder: fixtureURL("loop/csv-labels"), today: today)
        #expect(export.habits.map(\.name) == ["Meditate", "Water", "Old habit"])
        #expect(export.habits[1].kind == .atLeast(8) && export.habits[1].unit == "glasses")
        #expect(export.habits[2].archived && export.habits[2].schedule == .timesPerWeek(3))
        let day = { DayNumber.from(year: 2024, month: 3, day: $0) }
        #expect(export.habits[1].marks == [day(3): .value(8.5), day(2): .value(6)])
        #expect(export.habits[0].marks == [day(3): .done, day(2): .skipped, day(1): .no])
        #expect(export.problems == ["Checkmarks.csv line 5: '2024-02-30' is not a date (yyyy-MM-dd, from 1900)"])
    }

    /// Two habits of one name, as Loop allows (its ImportTest.testLoopDB has three such pairs): both come
    /// in, the second as "Name (2)", and the second Checkmarks.csv column of that name is its days.
    @Test func twoHabitsOfOneNameBothComeInWithTheirOwnDays() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        try Data("""
            Position,Name,Question,Description,NumRepetitions,Interval,Color
            001,Vegan,,,1,1,#FF8F00
            002,Vegan,,,3,7,#AFB42B

            """.utf8).write(to: temp.url.appendingPathComponent("Habits.csv"))
        try Data("Date,Vegan,Vegan,\n2015-01-25,2,0,\n2015-01-24,0,2,\n".utf8).write(to: temp.url.appendingPathComponent("Checkmarks.csv"))
        let export = try LoopCSV.read(folder: temp.url, today: today)
        #expect(export.habits.map(\.name) == ["Vegan", "Vegan (2)"] && export.problems.isEmpty)
        #expect(export.habits[1].schedule == .timesPerWeek(3))
        let day = { DayNumber.from(year: 2015, month: 1, day: $0) }
        #expect(export.habits[0].marks == [day(25): .done, day(24): .no])
        #expect(export.habits[1].marks == [day(25): .no, day(24): .done])
        #expect(export.assumptions == ["Habits.csv line 3: a second habit named 'Vegan' comes in as 'Vegan (2)'"])
    }

    /// The third of one name is "(3)", case aside; a long name is shortened so "(2)" fits the limit.
    @Test func aDistinctNameFitsTheLimit() {
        var taken = Set<String>()
        #expect(["Read", "read", "READ"].map { HabitName.distinct($0, taken: &taken) } == ["Read", "read (2)", "READ (3)"])
        let long = String(repeating: "x", count: HabitName.maximumLength)
        let second = [long, long].map { HabitName.distinct($0, taken: &taken) }[1]
        #expect(second.count == HabitName.maximumLength && second.hasSuffix("x (2)") && HabitName.isAcceptable(second))
    }

    /// Issue 13: exporting and importing into an empty data directory gives back the same computed values.
    @Test func exportThenImportGivesTheSameNumbers() async throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let clock = TestClock(date("2026-06-10 09:00"))
        let source = makeTestApp(clock: clock).app.habitsFeature
        _ = try await source.importLoopBackup(fixtureURL("loop/loop-backup.db"), preview: false)
        _ = try await source.edit("Water", unit: "glasses")
        let folder = temp.url.appendingPathComponent("export")
        _ = try await source.exportLoopFolder(to: folder)
        let target = makeTestApp(clock: clock).app.habitsFeature
        let summary = try await target.importLoopCSV(folder: folder, preview: false)
        #expect(summary.imported && summary.problems.isEmpty)
        #expect(target.habits.map(\.name) == source.habits.map(\.name))
        #expect(target.habits.map(\.unit) == source.habits.map(\.unit) && target.habits.map(\.archived) == source.habits.map(\.archived))
        let numbers = { (feature: HabitsFeature) in
            feature.habits.map { habit in
                let statistics = HabitStatistics(habit: habit, today: feature.today)
                let computed = statistics.computedEntries()
                return [statistics.strengths(computed: computed).last ?? -1, Double(statistics.bestStreak(computed: computed))]
                    + computed.sorted { $0.key < $1.key }.map { Double($0.key * 10 + $0.value) }
            }
        }
        #expect(numbers(target) == numbers(source))
    }
}

/// Issue 28, item 6: a combined Checkmarks.csv on its own, Loop's or the one
/// `habit export FILE.csv` writes, under any name, is Loop's habits and not a
/// weight file without a weight column.
@MainActor
@Suite struct LoneCheckmarksTests {
    let today = DayNumber.from(year: 2026, month: 6, day: 10)

    /// Loop's integer layout (Tests/Fixtures/loop/csv-v2.2, `HabitsCSVExporter`) without its Habits.csv.
    @Test func loopsIntegerLayoutAloneGivesEveryDayHabitsWithTheirMarks() throws {
        let url = fixtureURL("loop/csv-v2.2/Checkmarks.csv")
        #expect(LoopCSV.isCheckmarks(url))
        let export = try LoopCSV.read(checkmarks: url, today: today, known: [:])
        #expect(export.habits.map(\.name) == ["Meditate", "Wake up early"])
        #expect(export.habits.map(\.schedule) == [.daily, .daily] && export.habits.map(\.kind) == [.yesNo, .yesNo])
        let day = { DayNumber.from(year: 2015, month: 1, day: $0) }
        #expect(export.habits[0].marks == [day(25): .done, day(24): .no, day(23): .skipped, day(22): .done, day(20): .done])
        #expect(export.habits[1].marks == [day(24): .done, day(22): .done])
        #expect(export.assumptions.count == 2 && export.assumptions[0].contains("every day"))
    }

    /// Amounts (× 1000 in the integer layout) make a number-a-day habit; one already here keeps its own kind.
    @Test func amountsMakeANumericHabitAndAHabitHereKeepsItsKind() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let url = temp.url.appendingPathComponent("my-habits.csv")
        try Data("Date,Water,Drinks,\n2026-06-10,8000,1000,\n2026-06-09,6000,-1,\n2026-06-08,9500,0,\n".utf8).write(to: url)
        #expect(LoopCSV.isCheckmarks(url))
        let export = try LoopCSV.read(checkmarks: url, today: today, known: ["drinks": .atMost(2)])
        #expect(export.habits.map(\.kind) == [.atLeast(8), .atMost(2)])
        #expect(export.habits[0].marks == [today: .value(8), today - 1: .value(6), today - 2: .value(9.5)])
        #expect(export.habits[1].marks == [today: .value(1), today - 2: .value(0)])
        #expect(export.assumptions.count == 1 && export.assumptions[0].hasPrefix("'Water' is new"))
    }

    /// Every weight file of the app fixtures stays the weight import's.
    @Test func noWeightFileLooksLikeCheckmarks() throws {
        let folder = fixtureURL("apps")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".csv") || $0.hasSuffix(".tsv") }
        #expect(files.count >= 10)
        for file in files { #expect(!LoopCSV.isCheckmarks(folder.appendingPathComponent(file)), "\(file)") }
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let plain = temp.url.appendingPathComponent("weights.csv")
        try Data("Date,Weight (kg)\n2026-06-10,82\n".utf8).write(to: plain)
        #expect(!LoopCSV.isCheckmarks(plain))
        #expect(LoopCSV.namesAWeight("lbs") && !LoopCSV.namesAWeight("Climb") && !LoopCSV.namesAWeight("Breakfast"))
    }

    /// `habit export FILE.csv`, then `import FILE.csv` in an empty data directory: the same days, and the same file again.
    @Test func trendsOwnExportComesBack() async throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let clock = TestClock(date("2026-06-10 09:00"))
        let source = makeTestApp(clock: clock).app.habitsFeature
        _ = try await source.add(name: "Read", schedule: .daily, kind: .yesNo)
        _ = try await source.add(name: "Glasses", schedule: .daily, kind: .atLeast(8))
        _ = try await source.mark("Read", when: .relative(.daysAgo(2), hour: nil, minute: nil), as: .done)
        _ = try await source.mark("Read", when: .yesterday, as: .skipped)
        _ = try await source.mark("Glasses", as: .value(9))
        _ = try await source.mark("Glasses", when: .relative(.daysAgo(2), hour: nil, minute: nil), as: .value(6))
        let url = temp.url.appendingPathComponent("my-habits.csv")
        _ = try await source.exportCSV(to: url)
        let target = makeTestApp(clock: clock).app.habitsFeature
        guard case .checkmarks? = target.loopSource(at: url) else { Issue.record("not read as Checkmarks.csv"); return }
        let summary = try await target.importCheckmarks(url, preview: false)
        #expect(summary.imported && summary.newHabits == ["Read", "Glasses"] && summary.newDays == 4 && summary.problems.isEmpty)
        #expect(target.habits.map(\.marks) == source.habits.map(\.marks))
        let again = temp.url.appendingPathComponent("again.csv")
        _ = try await target.exportCSV(to: again)
        #expect(try Data(contentsOf: again) == Data(contentsOf: url))
        let twice = try await target.importCheckmarks(url, preview: false)
        #expect(!twice.imported && twice.newDays == 0 && twice.existingDays == 4)
    }
}
