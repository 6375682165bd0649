import Foundation
import Storage
import Testing
import TestSupport
import WeightLog
@testable import Backup

/// Undo, redo and history through the real graph: each Feature's change is
/// journaled in its own transaction, and an undo refreshes every Feature.
@MainActor
@Suite struct ChangeHistoryFeatureTests {
    let temp = TemporaryDirectory()

    func graph(_ clock: TestClock = TestClock(date("2026-06-10 08:00"))) -> TestGraph {
        let directory = temp.url.appendingPathComponent("data")
        return makeTestApp(store: LocalDataStore(directory: directory), clock: clock, directory: directory)
    }

    @Test func weighInsEditsAndDeletesAreUndoneNewestFirstAndRedone() async throws {
        defer { temp.remove() }
        let clock = TestClock(date("2026-06-10 08:00"))
        let g = graph(clock)
        let weights = g.app.weightEntryFeature, history = g.app.changeHistoryFeature
        let first = try await weights.record(kilograms: 80)
        clock.advance(by: 60)
        let second = try await weights.record(kilograms: 81)
        _ = try await weights.edit(id: String(first.id.prefix(6)), kilograms: 79.45)
        _ = try await weights.delete(id: second.id)
        #expect(try await weights.allEntries().map(\.kilograms) == [79.45])
        #expect(try await history.recent(10).map(\.summary) == [
            "delete of \(second.shortID): 81.0 kg at 2026-06-10 08:01",
            "edit of \(first.shortID): 80.0 kg at 2026-06-10 08:00 → 79.45 kg at 2026-06-10 08:00",
            "weigh-in 81.0 kg at 2026-06-10 08:01",
            "weigh-in 80.0 kg at 2026-06-10 08:00",
        ])

        #expect(try await history.undo().action == "delete")
        #expect(try await weights.allEntries().map(\.kilograms) == [79.45, 81])
        #expect(try await history.undo().action == "edit")
        #expect(try await weights.allEntries().map(\.kilograms) == [80, 81])
        #expect(weights.checkIn().latestKilograms == 81, "the Features read again after an undo")
        #expect(try await history.redo().action == "edit")
        #expect(try await weights.allEntries().map(\.kilograms) == [79.45, 81])
        _ = try await history.undo()
        _ = try await history.undo()
        _ = try await history.undo()
        #expect(try await weights.allEntries().isEmpty)
        await #expect(throws: JournalError.nothingToUndo) { try await history.undo() }
        #expect(try await LocalWeightRepository(store: g.store).allEntries().isEmpty)
    }

    @Test func habitsSettingsAndTheGoalAreInTheHistoryButTheProgressRangeIsNot() async throws {
        defer { temp.remove() }
        let g = graph()
        let habits = g.app.habitsFeature, history = g.app.changeHistoryFeature
        try await habits.add(name: "Read", schedule: .daily, kind: .yesNo)
        _ = try await habits.mark("Read", as: .done)
        try await g.app.settingsFeature.setUnit(named: "lb")
        try await g.app.progressFeature.setGoal(kilograms: 75)
        try await g.app.progressFeature.selectProgressRange(.halfYear)
        #expect(try await history.recent(10).map(\.summary) == ["goal 165.3 lb", "set units lb", "habit done Read on 2026-06-10", "habit add Read"])

        _ = try await history.undo()
        #expect(g.app.settingsFeature.current.goalKilograms == nil)
        #expect(g.app.settingsFeature.current.progressRange == "6m", "what undo did not touch stays")
        _ = try await history.undo()
        #expect(g.app.settingsFeature.current.unit == .kilograms)
        _ = try await history.undo()
        #expect(try habits.detail(of: "Read").summary.doneToday == false)
        _ = try await history.undo()
        #expect(habits.habits.isEmpty)
        _ = try await history.redo()
        #expect(habits.habits.map(\.name) == ["Read"])
    }

    @Test func undoingAnImportRemovesExactlyItsRowsAndAnEditSinceIsAConflict() async throws {
        defer { temp.remove() }
        let clock = TestClock(date("2026-06-10 08:00"))
        let g = graph(clock)
        let weights = g.app.weightEntryFeature, history = g.app.changeHistoryFeature
        try await weights.record(kilograms: 82, when: .dayTime(year: 2026, month: 6, day: 1, hour: 7, minute: 0))
        let csv = temp.url.appendingPathComponent("old.csv")
        try Data("date,weight\n2026-06-01 07:00,82\n2026-06-02 07:00,81.5\n2026-06-03 07:00,81.2\n".utf8).write(to: csv)
        let result = try await g.app.weightImportFeature.importFile(csv)
        #expect(result.imported == 2)
        #expect(try await history.recent(1).first?.summary == "import of old.csv (2 new weigh-ins)")

        // A later edit of an imported row: undoing the edit first is fine, and then the import.
        let imported = try await weights.allEntries().first { $0.kilograms == 81.5 }!
        _ = try await weights.edit(id: imported.id, kilograms: 81.4)
        _ = try await history.undo()
        _ = try await history.undo()
        #expect(try await weights.allEntries().map(\.kilograms) == [82], "the import's rows are gone; the weigh-in before it stays")

        // Redo, then change a row behind the journal's back: the import can no longer be undone.
        _ = try await history.redo()
        try g.store.write { try $0.run("UPDATE weight_entries SET kilograms = 90 WHERE kilograms = 81.2") }
        await #expect(throws: JournalError.self) { try await history.undo() }
        #expect(try await LocalWeightRepository(store: g.store).allEntries().map(\.kilograms) == [82, 81.5, 90])
    }

    @Test func undoingARestoreOrDeleteAllDataReturnsToTheStateBefore() async throws {
        defer { temp.remove() }
        let clock = TestClock(date("2026-06-10 08:00"))
        let g = graph(clock)
        let weights = g.app.weightEntryFeature, history = g.app.changeHistoryFeature
        try await weights.record(kilograms: 80)
        try await g.app.habitsFeature.add(name: "Walk", schedule: .daily, kind: .yesNo)
        _ = try await g.app.backupFeature.backupNow()
        clock.advance(by: 3600)
        try await weights.record(kilograms: 79)

        let plan = try await g.app.backupFeature.prepareRestore(from: .latest)
        _ = try await g.app.backupFeature.restore(plan)
        #expect(try await weights.allEntries().map(\.kilograms) == [80])
        #expect(try await history.undo().action == "restore")
        #expect(try await weights.allEntries().map(\.kilograms) == [80, 79])

        _ = try await g.app.backupFeature.deleteAllData()
        #expect(try await weights.allEntries().isEmpty)
        #expect(g.app.habitsFeature.habits.isEmpty)
        #expect(try await history.undo().summary == "delete all data")
        #expect(try await weights.allEntries().map(\.kilograms) == [80, 79])
        #expect(g.app.habitsFeature.habits.map(\.name) == ["Walk"])
    }

    @Test func theJournalIsNotPartOfABackup() async throws {
        defer { temp.remove() }
        let g = graph()
        try await g.app.weightEntryFeature.record(kilograms: 80, note: "marker")
        let listing = try await g.app.backupFeature.backupNow()
        let text = try String(contentsOf: listing.url, encoding: .utf8)
        #expect(!text.contains("weigh-in 80.0 kg"))
        #expect(!text.contains("journal"))
    }
}
