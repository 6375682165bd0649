import Desktop
import Foundation
import Storage
import Testing
import TestSupport
@testable import Habits
import Vocabulary

/// Issue 60: reminders on a real desktop, with the desktop held by the test (`InMemoryDesktop`, the in-memory form
/// of `NotificationClient`), real SQLite and a clock the test moves. A reminder is sent when the desktop took it;
/// Done and Skip count only from the server that showed it, for a notification this installation sent; a
/// notification goes once its habit's day asks nothing more; the times of the DST nights are the first that exist.
@MainActor
@Suite struct ReminderDesktopTests {
    let clock = TestClock(date("2026-06-15 06:00"))  // A Monday.

    func graph(desktop: InMemoryDesktop?, store: LocalDataStore = .inMemory(), zone: String = "UTC") -> TestGraph {
        makeTestApp(store: store, clock: clock, calendar: calendar(zone: zone), notifications: desktop.map { .inMemory($0) } ?? .nowhere)
    }

    func habits(_ app: TestGraph) async throws {
        try await app.app.habitsFeature.add(name: "Read", schedule: .daily, kind: .yesNo)
        try await app.app.habitsFeature.add(name: "Water", schedule: .daily, kind: .atLeast(8), unit: "glasses")
        _ = try await app.app.habitsFeature.setReminders("Read", at: try TimeOfDay.list(["7:00"]))
        _ = try await app.app.habitsFeature.setReminders("Water", at: try TimeOfDay.list(["7:30"]))
    }

    @Test func aNotificationReadsAsLoopsWithTheNameAsTitleAndWhatIsDueInWords() async throws {
        let desktop = InMemoryDesktop()
        let app = graph(desktop: desktop)
        try await habits(app)
        _ = try await app.app.habitsFeature.mark("Water", as: .value(3))
        clock.now = date("2026-06-15 08:00")
        let sent = try await app.app.remindersFeature.sendDue(terminal: false)
        #expect(sent.notified.map(\.reminder.habit.name) == ["Read", "Water"])
        #expect(desktop.shown.map(\.summary) == ["Read", "Water"])
        #expect(desktop.shown.map(\.body) == ["Not done yet today", "8 glasses, 3 so far"])
        #expect(desktop.shown.allSatisfy { $0.actions == ["done", "skip"] })
        let open = try await app.app.habitsFeature.storage.openNotifications()
        #expect(open.map(\.notification.id) == [1, 2] && open.allSatisfy { $0.notification.server == InMemoryDesktop.server })
    }

    /// Issue 60, item 3: with no desktop and no terminal nothing reached anyone, so nothing is recorded and the
    /// reminders go when the desktop is there.
    @Test func remindersThatReachNoOneStayDueAndGoWhenTheDesktopComes() async throws {
        let desktop = InMemoryDesktop()
        desktop.setAway(NotificationFailure(.unreachable, "the session bus could not be reached"))
        let app = graph(desktop: desktop)
        try await habits(app)
        clock.now = date("2026-06-15 08:00")
        let away = try await app.app.remindersFeature.sendDue(terminal: false)
        #expect(away.reached.isEmpty && away.undelivered.map(\.habit.name) == ["Read", "Water"] && away.noService?.kind == .unreachable)
        #expect(try await app.app.remindersFeature.due().count == 2, "still due")
        desktop.setAway(nil)
        let back = try await app.app.remindersFeature.sendDue(terminal: false)
        #expect(back.notified.count == 2 && desktop.shown.count == 2)
        #expect(try await app.app.remindersFeature.due().isEmpty)
    }

    /// Issue 60, item 3: a batch half sent says which went and which did not; the one that went is recorded.
    @Test func aHalfSentBatchNamesWhatWentAndWhatStaysDue() async throws {
        let desktop = InMemoryDesktop()
        desktop.refuse(after: 1)
        let app = graph(desktop: desktop)
        try await habits(app)
        clock.now = date("2026-06-15 08:00")
        do {
            try await app.app.remindersFeature.sendDue(terminal: false)
            Issue.record("a refusal must be said")
        } catch let refused as RemindersRefused {
            #expect(refused.sent.notified.map(\.reminder.habit.name) == ["Read"] && refused.sent.undelivered.map(\.habit.name) == ["Water"])
            #expect(refused.description.contains("did not take Water (07:30)") && refused.description.contains("sent Read (07:00)"),
                    "\(refused.description)")
            #expect(!refused.description.contains("nothing was recorded"))
        }
        #expect(try await app.app.remindersFeature.due().map(\.habit.name) == ["Water"])
    }

    /// Issue 60, item 5: a server that reads markup gets the body escaped; the title is plain text by the spec.
    @Test func markupInAUnitReachesTheServerAsText() async throws {
        let desktop = InMemoryDesktop(readsMarkup: true)
        let app = graph(desktop: desktop)
        try await app.app.habitsFeature.add(name: "Tea <b>", schedule: .daily, kind: .atLeast(2), unit: "<a href=x>y</a>")
        _ = try await app.app.habitsFeature.setReminders("Tea <b>", at: try TimeOfDay.list(["7:00"]))
        clock.now = date("2026-06-15 08:00")
        try await app.app.remindersFeature.sendDue(terminal: false)
        #expect(desktop.shown.first?.body == "2 &lt;a href=x&gt;y&lt;/a&gt;, none yet")
        #expect(desktop.shown.first?.summary == "Tea <b>")
        #expect(DesktopNotification.escapedForMarkup("Tom & Jerry's <i>") == "Tom &amp; Jerry's &lt;i&gt;")
    }

    /// Issue 60, item 2: Done from the server that showed it marks the habit and closes the notification; a
    /// number's Done fills its target; Skip skips.
    @Test func doneAndSkipFromTheServerMarkTheHabitAndCloseTheNotification() async throws {
        let desktop = InMemoryDesktop()
        let app = graph(desktop: desktop)
        try await habits(app)
        clock.now = date("2026-06-15 08:00")
        try await app.app.remindersFeature.sendDue(terminal: false)
        let bus = try NotificationClient.inMemory(desktop).connect()
        desktop.invoke(2, "done")
        let acted = try await events(app.app.remindersFeature, on: bus)
        #expect(acted == [RemindersFeature.Acted(habit: "Water", action: "done", day: DayNumber.from(year: 2026, month: 6, day: 15))])
        #expect(try app.app.habitsFeature.habit(named: "Water").marks[DayNumber.from(year: 2026, month: 6, day: 15)] == .value(8))
        #expect(desktop.closed == [2])
        desktop.invoke(1, "skip")
        _ = try await events(app.app.remindersFeature, on: bus)
        #expect(try app.app.habitsFeature.habit(named: "Read").marks[DayNumber.from(year: 2026, month: 6, day: 15)] == .skipped)
        #expect(try await app.app.habitsFeature.storage.openNotifications().isEmpty)
    }

    /// Issue 60, item 2: any other client on the bus may emit `ActionInvoked`; it counts for nothing, nor does an
    /// action on a notification this installation did not send, or an action it did not offer.
    @Test func anActionFromAnotherSenderOrForAnotherNotificationCountsForNothing() async throws {
        let desktop = InMemoryDesktop()
        let app = graph(desktop: desktop)
        try await habits(app)
        clock.now = date("2026-06-15 08:00")
        try await app.app.remindersFeature.sendDue(terminal: false)
        let bus = try NotificationClient.inMemory(desktop).connect()
        desktop.invoke(1, "skip", sender: "memory/:1.99")
        desktop.invoke(7, "done")
        desktop.invoke(1, "default")
        #expect(try await events(app.app.remindersFeature, on: bus).isEmpty)
        #expect(try app.app.habitsFeature.habit(named: "Read").marks.isEmpty && desktop.closed.isEmpty)
        #expect(try await app.app.habitsFeature.storage.openNotifications().count == 1, "the person's own close of 1 forgets it; 2 stays")
    }

    /// Issue 60, item 2: a habit done another way (the prompt, `-c`, another device) closes its notification at the
    /// watcher's next look; so does the end of the day.
    @Test func aHabitDoneAnotherWayOrADayEndedClosesItsNotification() async throws {
        let desktop = InMemoryDesktop()
        let app = graph(desktop: desktop)
        try await habits(app)
        clock.now = date("2026-06-15 08:00")
        try await app.app.remindersFeature.sendDue(terminal: false)
        let bus = try NotificationClient.inMemory(desktop).connect()
        // Read is marked done by `habit done` (the end-to-end test does it from another process).
        _ = try await app.app.habitsFeature.mark("Read", as: .done)
        try await app.app.remindersFeature.closeFinished(on: bus)
        #expect(desktop.closed == [1])
        clock.now = date("2026-06-16 06:00")
        try await app.app.remindersFeature.closeFinished(on: bus)
        let open = try await app.app.habitsFeature.storage.openNotifications()
        #expect(desktop.closed == [1, 2] && open.isEmpty)
    }

    /// Issue 60, item 3: the open prompt shows each reminder once, and the desktop still gets it, whichever
    /// process sent it first.
    @Test func thePromptShowsEachReminderOnceAndTheDesktopStillGetsIt() async throws {
        let desktop = InMemoryDesktop()
        let store = LocalDataStore.inMemory()
        let app = graph(desktop: desktop, store: store)
        let watcher = graph(desktop: desktop, store: store).app
        try await habits(app)
        let opened = date("2026-06-15 06:30")
        clock.now = date("2026-06-15 07:00")
        #expect(try await app.app.remindersFeature.promptReminders(openedAt: opened).map(\.habit.name) == ["Read"])
        #expect(desktop.shown.map(\.summary) == ["Read"], "the line above the prompt does not stop the desktop's notification")
        clock.now = date("2026-06-15 07:30")
        try await watcher.remindersFeature.sendDue(terminal: false)  // The watcher is first this time.
        #expect(try await app.app.remindersFeature.promptReminders(openedAt: opened).map(\.habit.name) == ["Water"])
        #expect(try await app.app.remindersFeature.promptReminders(openedAt: opened).isEmpty)
        #expect(desktop.shown.map(\.summary) == ["Read", "Water"], "once each")
    }

    /// Issue 60, item 4: on the fall-back night a time that happens twice is due at its first occurrence, once; on
    /// the spring-forward night a time that does not exist is due at the first minute after the gap. `hour` is the
    /// hour the fall-back night repeats; the UTC instants are those of its first HH:10 and of 03:00 after the gap.
    @Test(arguments: [
        ("Europe/Berlin", 2, "2026-10-25 00:10", "2026-03-29 01:00"),
        ("America/New_York", 1, "2026-11-01 05:10", "2026-03-08 07:00"),
    ])
    func theDSTNightsDueEachTimeOnceAtTheFirstMinuteThatExists(zone: String, hour: Int, firstUTC: String, afterGapUTC: String) async throws {
        let desktop = InMemoryDesktop()
        let app = graph(desktop: desktop, zone: zone)
        let repeated = ["\(hour - 1):10", "\(hour):10", "\(hour):30", "\(hour):59"]
        clock.now = date("2026-03-01 12:00")
        try await app.app.habitsFeature.add(name: "Night", schedule: .daily, kind: .yesNo)
        // Spring forward: 02:10, 02:30 and 02:59 do not exist; each is due at 03:00, the first minute after the gap.
        _ = try await app.app.habitsFeature.setReminders("Night", at: try TimeOfDay.list(["1:10", "2:10", "2:30", "2:59"]))
        let gap = date(afterGapUTC)
        clock.now = gap.addingTimeInterval(-1)
        #expect(try await app.app.remindersFeature.due().map(\.time.description) == ["01:10"], "\(zone)")
        clock.now = gap
        let dueAtGap = try await app.app.remindersFeature.due()
        #expect(dueAtGap.map(\.time.description) == ["01:10", "02:10", "02:30", "02:59"], "\(zone) \(dueAtGap.map(\.dueAt))")
        #expect(try await app.app.remindersFeature.sendDue(terminal: false).notified.count == 4)
        clock.now = gap.addingTimeInterval(3_600)
        #expect(try await app.app.remindersFeature.due().isEmpty, "once")
        // Fall back: HH:10 is due at its first occurrence, not before, and nothing comes twice in the repeated hour.
        _ = try await app.app.habitsFeature.setReminders("Night", at: try TimeOfDay.list(repeated))
        let words = try TimeOfDay.list(repeated).map(\.description)
        let first = date(firstUTC)
        clock.now = first.addingTimeInterval(-1)
        #expect(try await app.app.remindersFeature.due().map(\.time.description) == [words[0]], "\(zone)")
        clock.now = first
        #expect(try await app.app.remindersFeature.due().map(\.time.description) == Array(words[0...1]), "\(zone)")
        clock.now = first.addingTimeInterval(50 * 60)
        #expect(try await app.app.remindersFeature.sendDue(terminal: false).notified.map(\.reminder.time.description) == words)
        clock.now = first.addingTimeInterval(3_600 + 30 * 60)  // The repeated hour, second time round: nothing twice.
        #expect(try await app.app.remindersFeature.sendDue(terminal: false).reached.isEmpty)
        #expect(desktop.shown.count == 8)
    }

    /// Reads the events the desktop has queued, as the watcher does, acting on each; what was done.
    func events(_ feature: RemindersFeature, on bus: any NotificationConnection) async throws -> [RemindersFeature.Acted] {
        var acted: [RemindersFeature.Acted] = []
        while let event = try bus.nextEvent(waitingAtMost: 0) {
            if let done = try await feature.handle(event, on: bus) { acted.append(done) }
        }
        return acted
    }
}
