import Foundation
import Testing
import TestSupport

/// Issue 50: reminders through the built `trend`, on a real session bus (`dbus-daemon`) where a recording
/// notification server plays the desktop, at a fixed clock (`faketime`). Monday 15 June 2026, UTC.
@Suite(.serialized) struct RemindEndToEndTests {
    let temp = TemporaryDirectory()

    var directory: [String] { ["--data-dir", temp.url.appendingPathComponent("data").path] }

    func trend(_ arguments: [String], at clock: String, bus: SessionBus?) throws -> TrendRun {
        try runTrend(directory + arguments, environment: bus.map { ["DBUS_SESSION_BUS_ADDRESS": $0.address] } ?? [:], clock: clock)
    }

    /// An every-day habit, a mon,wed,fri one and a numeric one, each with reminders, and an at-most one.
    func setUp() throws {
        let setup = try trend(["-c", "habit add Read every day", "-c", "habit add Gym mon,wed,fri", "-c", "habit add Water every day target 8 glasses",
                               "-c", "habit add Drinks every day at-most 2",
                               "-c", "habit remind Read at 21:00", "-c", "habit remind Gym at 7am 18:00", "-c", "habit remind Water at 10:00 15:00",
                               "-c", "habit remind Drinks at 9:00", "-c", "habit done Water 3"],
                              at: "2026-06-15 06:00:00", bus: nil)
        #expect(setup.status == 0, "\(setup.standardError)")
    }

    @Test func eachPassedTimeIsOneNotificationNamingItsHabitWithDoneAndNothingGoesTwice() throws {
        defer { temp.remove() }
        let bus = try SessionBus()
        defer { bus.stop() }
        try setUp()
        let first = try trend(["--json", "remind"], at: "2026-06-15 16:00:00", bus: bus)
        #expect(first.status == 0, "\(first.standardError)")
        let shown = bus.notifications
        #expect(shown.map { $0["summary"] as? String } == ["Gym", "Water", "Water"], "\(shown)")
        #expect(shown.allSatisfy { ($0["actions"] as? [String])?.contains("done") == true && $0["app"] as? String == "Trend" })
        #expect(shown[1]["body"] as? String == "8 glasses, 3 so far · 10:00")
        let sent = try first.documents().first?["sent"] as? [[String: Any]]
        #expect(sent?.map { $0["time"] as? String } == ["07:00", "10:00", "15:00"])
        // Again a minute later: nothing twice. Then Gym is done: its 18:00 is not sent; Read's 21:00 is.
        #expect(try trend(["remind"], at: "2026-06-15 16:01:00", bus: bus).standardOutput.contains("No reminder has come due"))
        _ = try trend(["-c", "habit done Gym"], at: "2026-06-15 17:00:00", bus: nil)
        _ = try trend(["remind"], at: "2026-06-15 21:05:00", bus: bus)
        #expect(bus.notifications.dropFirst(3).map { $0["summary"] as? String } == ["Read"])
        // Tuesday: Gym is not due, and Drinks (at most 2) never is.
        _ = try trend(["remind"], at: "2026-06-16 23:00:00", bus: bus)
        let tuesday = bus.notifications.dropFirst(4).compactMap { $0["summary"] as? String }
        #expect(tuesday == ["Water", "Water", "Read"], "\(tuesday)")
    }

    @Test func withoutABusTheRemindersArePrintedAndTheRunSucceeds() throws {
        defer { temp.remove() }
        try setUp()
        let run = try trend(["remind"], at: "2026-06-15 10:30:00", bus: nil)
        #expect(run.status == 0)
        #expect(run.standardOutput.contains("Reminder: Gym, due today (07:00)") && run.standardOutput.contains("Reminder: Water, 8 glasses, 3 so far (10:00)"),
                "\(run.standardOutput)")
        // A bus with no notification service on it is the same: printed, recorded, exit 0.
        let bus = try SessionBus(withNotificationServer: false)
        defer { bus.stop() }
        let later = try trend(["remind"], at: "2026-06-15 15:30:00", bus: bus)
        #expect(later.status == 0 && later.standardOutput.contains("Reminder: Water, 8 glasses, 3 so far (15:00)"), "\(later.standardOutput)")
        #expect(!later.standardOutput.contains("07:00"), "sent once")
    }

    @Test func aTimeThatCannotBeReadOrAHabitThatIsNotThereChangesNothing() throws {
        defer { temp.remove() }
        try setUp()
        let bad = try trend(["-c", "habit remind Read at 25:00"], at: "2026-06-15 08:00:00", bus: nil)
        #expect(bad.status == 1 && bad.standardError.contains("'25:00' is not a time of day"), "\(bad.standardError)")
        let missing = try trend(["-c", "habit remind Reading at 21:00"], at: "2026-06-15 08:00:00", bus: nil)
        #expect(missing.status == 1 && missing.standardError.contains("no habit named"), "\(missing.standardError)")
        let json = try trend(["--json", "-c", "habits"], at: "2026-06-15 08:00:00", bus: nil).documents()
        let read = (json.first?["habits"] as? [[String: Any]])?.first { $0["name"] as? String == "Read" }
        #expect(read?["reminders"] as? [String] == ["21:00"])
        let off = try trend(["-c", "habit remind Read off", "-c", "habit show Read"], at: "2026-06-15 08:00:00", bus: nil)
        #expect(off.standardOutput.contains("reminds you of nothing") && !off.standardOutput.contains("reminds   at"))
    }

    /// `trend remind --watch`: the notification's "done" marks the habit through the habits, as `habit done`;
    /// SIGTERM ends it cleanly (exit 0).
    @Test func theWatchActsOnDoneAndEndsOnSigterm() throws {
        defer { temp.remove() }
        let bus = try SessionBus()
        defer { bus.stop() }
        try setUp()
        let log = temp.url.appendingPathComponent("watch.log")
        #expect(FileManager.default.createFile(atPath: log.path, contents: nil))
        let watch = Process()
        watch.executableURL = URL(fileURLWithPath: "/usr/bin/faketime")
        watch.arguments = ["-f", "@2026-06-15 20:59:58", trendExecutable().path] + directory + ["remind", "--watch"]
        watch.environment = ["PATH": "/usr/bin:/bin", "TZ": "UTC", "FAKETIME_DONT_FAKE_MONOTONIC": "1",
                             "HOME": temp.url.path, "DBUS_SESSION_BUS_ADDRESS": bus.address]
        watch.standardOutput = try FileHandle(forWritingTo: log)
        watch.standardError = FileHandle.nullDevice
        try watch.run()
        defer { if watch.isRunning { watch.terminate() } }
        // The reminders of the day that have passed go at once; Read's 21:00 two seconds later.
        #expect(bus.waitForNotifications(5, seconds: 20), "\(bus.notifications)")
        let read = try #require(bus.notifications.first { $0["summary"] as? String == "Read" })
        bus.invoke(try #require(read["id"] as? Int), "done")
        #expect(SessionBus.waitFor(seconds: 20) { ((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains("done: Read") })
        // The watch runs under faketime's wrapper: the signal goes to trend itself.
        let child = try runTool("/usr/bin/pgrep", ["-P", String(watch.processIdentifier)]).output
        let pid = try #require(Int32(child.trimmingCharacters(in: .whitespacesAndNewlines)))
        kill(pid, SIGTERM)
        watch.waitUntilExit()
        #expect(watch.terminationStatus == 0)
        let habits = try trend(["--json", "-c", "habits"], at: "2026-06-15 21:10:00", bus: nil).documents()
        let marked = (habits.first?["habits"] as? [[String: Any]])?.first { $0["name"] as? String == "Read" }
        #expect(marked?["doneToday"] as? Bool == true, "\(habits)")
    }
}

/// Issue 50, item 5: in the open REPL a reminder that comes due is one line above the prompt, and the line being
/// typed stays as it was (tmux, a real terminal; the clock is faketime's, moving on from 20:59:55).
@Suite struct RemindPromptTests {
    let terminal = TmuxTerminal()

    @Test func aReminderThatComesDueIsALineAboveThePromptAndTheTypedLineStays() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let data = temp.url.appendingPathComponent("data")
        let setup = try runTrend(["--data-dir", data.path, "-c", "habit add Read every day", "-c", "habit remind Read at 21:00"],
                                 clock: "2026-06-15 20:00:00")
        #expect(setup.status == 0, "\(setup.standardError)")
        let session = try terminal.startREPL(data: data, clock: "2026-06-15 20:59:55")
        defer { terminal.endServer() }
        try terminal.type(session, "habit do")
        let screen = try terminal.waitFor(session, "Reminder: Read")
        #expect(screen.contains("Reminder: Read, due today (21:00). 'habit done Read' marks it."), "\(screen)")
        let lines = screen.split(separator: "\n").map(String.init)
        let reminder = try #require(lines.firstIndex { $0.hasPrefix("Reminder: Read") })
        #expect(lines.dropFirst(reminder + 1).first { !$0.isEmpty } == "trend> habit do", "the typed line stays:\n\(screen)")
        try terminal.type(session, "ne Read", then: "Enter")
        #expect(try terminal.waitFor(session, "'Read' done today").contains("'Read' done today"))
    }
}
