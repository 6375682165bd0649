import Foundation
import Storage
import Testing
import TestSupport
@testable import Habits
import Vocabulary

/// Issue 50: which reminders come due (DESIGN §9). A reminder is due at its time, on a day its habit is due by
/// its schedule and the day start, while the day is not done, met, skipped or answered no; an at-most habit is
/// reminded of nothing; each is sent once, on every device. Real SQLite, a clock the test moves.
@MainActor
@Suite struct RemindersTests {
    let clock = TestClock(date("2026-06-15 06:00"))  // A Monday.

    func graph(store: LocalDataStore = .inMemory()) -> TestGraph {
        makeTestApp(store: store, clock: clock)
    }

    func times(_ words: String...) throws -> [TimeOfDay] { try TimeOfDay.list(words) }

    func dueNames(_ reminders: RemindersFeature) async throws -> [String] {
        try await reminders.due().map { "\($0.habit.name) \($0.time)" }
    }

    @Test func aReminderComesDueAtItsTimeOnItsDaysAndNotBefore() async throws {
        let app = graph().app
        let habits = app.habitsFeature
        try await habits.add(name: "Read", schedule: .daily, kind: .yesNo)
        try await habits.add(name: "Gym", schedule: .weekdays([0, 2, 4]), kind: .yesNo)
        _ = try await habits.setReminders("Read", at: try times("21:00"))
        _ = try await habits.setReminders("gym", at: try times("7am", "18:00"))
        #expect(try await dueNames(app.remindersFeature).isEmpty, "nothing at 06:00")
        #expect(try await app.remindersFeature.nextDue() == date("2026-06-15 07:00"))
        clock.advance(by: 3_600)
        #expect(try await dueNames(app.remindersFeature) == ["Gym 07:00"])
        clock.advance(by: 15 * 3_600)  // 22:00
        #expect(try await dueNames(app.remindersFeature) == ["Gym 07:00", "Gym 18:00", "Read 21:00"])
        // Tuesday: Gym is not due.
        clock.advance(by: 24 * 3_600)
        #expect(try await dueNames(app.remindersFeature) == ["Read 21:00"])
    }

    @Test func aDayDoneSkippedAnsweredNoOrMetIsRemindedOfNothing() async throws {
        clock.now = date("2026-06-15 22:00")
        let app = graph().app
        let habits = app.habitsFeature
        for name in ["Done", "Skipped", "No", "Open"] { try await habits.add(name: name, schedule: .daily, kind: .yesNo) }
        try await habits.add(name: "Water", schedule: .daily, kind: .atLeast(8))
        try await habits.add(name: "Sip", schedule: .daily, kind: .atLeast(8))
        try await habits.add(name: "Drinks", schedule: .daily, kind: .atMost(2))
        for name in ["Done", "Skipped", "No", "Open", "Water", "Sip", "Drinks"] {
            _ = try await habits.setReminders(name, at: try times("20:00"))
        }
        _ = try await habits.mark("Done", as: .done)
        _ = try await habits.mark("Skipped", as: .skipped)
        _ = try await habits.mark("No", as: .no)
        _ = try await habits.mark("Water", as: .value(8))
        _ = try await habits.mark("Sip", as: .value(3))
        let due = try await app.remindersFeature.due()
        #expect(due.map(\.habit.name) == ["Open", "Sip"])
        #expect(due.last?.what == "8, 3 so far")
        #expect(due.first?.notification.body == "Not done yet today")
    }

    @Test func aQuotaMetForItsWeekRemindsOfNothingUntilTheNextWeek() async throws {
        let app = graph().app
        let habits = app.habitsFeature
        try await habits.add(name: "Run", schedule: .timesPerWeek(2), kind: .yesNo)
        _ = try await habits.setReminders("Run", at: try times("05:00"))
        _ = try await habits.mark("Run", as: .done)
        clock.advance(by: 24 * 3_600)
        _ = try await habits.mark("Run", as: .done)
        clock.advance(by: 24 * 3_600)  // Wednesday: two of two done.
        #expect(try await dueNames(app.remindersFeature).isEmpty)
        clock.now = date("2026-06-22 06:00")  // The next Monday.
        #expect(try await dueNames(app.remindersFeature) == ["Run 05:00"])
    }

    /// A time before the day start belongs to the habit day it ends: at 01:30 with days starting at 04:00,
    /// the 01:00 reminder is Monday's, due in the night after it.
    @Test func aTimeBeforeTheDayStartBelongsToTheDayItEnds() async throws {
        let app = graph().app
        try await app.settingsFeature.setDayStart("04:00")
        try await app.habitsFeature.add(name: "Journal", schedule: .daily, kind: .yesNo)
        _ = try await app.habitsFeature.setReminders("Journal", at: try times("01:00"))
        clock.now = date("2026-06-15 23:00")
        #expect(try await dueNames(app.remindersFeature).isEmpty)
        clock.now = date("2026-06-16 01:30")
        let due = try await app.remindersFeature.due()
        #expect(due.map(\.day) == [DayNumber.from(year: 2026, month: 6, day: 15)])
    }

    /// Without a desktop the reminders are printed on a terminal, and recorded: none is sent twice, on this device or
    /// on another reading the same database (as after a sync).
    @Test func remindersGoOnceAndAreRecordedWhereverTheyWent() async throws {
        let store = LocalDataStore.inMemory()
        let app = graph(store: store).app
        try await app.habitsFeature.add(name: "Read", schedule: .daily, kind: .yesNo)
        _ = try await app.habitsFeature.setReminders("Read", at: try times("05:30"))
        let first = try await app.remindersFeature.sendDue(terminal: true)
        #expect(first.printed.map(\.habit.name) == ["Read"] && first.notified.isEmpty && first.noService?.kind == .noSessionBus)
        #expect(try await app.remindersFeature.sendDue(terminal: true).reached.isEmpty, "sent once")
        let other = graph(store: store).app
        #expect(try await other.remindersFeature.due().isEmpty, "another reader of the same history sees it sent")
        // Bookkeeping: the history lists the reminder times set, not the reminder sent, and undo passes it by.
        let history = try await app.changeHistoryFeature.recent(10).map { $0.summary }
        #expect(history.first == "habit remind Read at 05:30", "\(history)")
        _ = try await app.changeHistoryFeature.undo()
        try await app.habitsFeature.load()
        #expect(try app.habitsFeature.habit(named: "Read").reminders.isEmpty)
    }

    @Test func reminderTimesAreReadAsStoredOnlyInTheirOwnForm() throws {
        #expect(HabitReminderTimes.read("09:30 21:00")?.map(\.minutes) == [570, 1260])
        #expect(HabitReminderTimes.read("") == [])
        for bad in ["9:30", "24:00", "21:00 21:00", "noon", "21:00;", String(repeating: "01:00 ", count: 13)] {
            #expect(HabitReminderTimes.read(bad) == nil, "\(bad)")
        }
        #expect(HabitReminderTimes.stored(try TimeOfDay.list(["9pm", "7:05am"])) == "07:05 21:00")
    }
}
