import Foundation
import Settings
import Storage
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
