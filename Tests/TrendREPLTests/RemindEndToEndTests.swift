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
        #expect(shown[1]["body"] as? String == "8 glasses, 3 so far" && shown[0]["body"] as? String == "Not done yet today")
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

    /// Issue 60, item 3: with no bus and no terminal (a timer's run) nothing reached anyone: the reminders stay due
    /// and go when the bus is there; a bus without a desktop on it is the same.
    @Test func withoutABusOrATerminalTheRemindersStayDueUntilTheDesktopIsThere() throws {
        defer { temp.remove() }
        try setUp()
        let folder = SessionBus.newFolder()
        let unreachable = try runTrend(directory + ["remind"], environment: ["DBUS_SESSION_BUS_ADDRESS": SessionBus.address(in: folder)],
                                       clock: "2026-06-15 10:30:00")
        #expect(unreachable.status == 0 && unreachable.standardOutput.contains("Not delivered, so still due: Gym (07:00), Water (10:00)."),
                "\(unreachable.standardOutput)")
        let none = try SessionBus(withNotificationServer: false)
        defer { none.stop() }
        let noServer = try trend(["--json", "remind"], at: "2026-06-15 10:31:00", bus: none).documents().first
        #expect((noServer?["undelivered"] as? [[String: Any]])?.count == 2 && (noServer?["sent"] as? [Any])?.isEmpty == true)
        let bus = try SessionBus(folder: folder)
        defer { bus.stop() }
        let reachable = try trend(["remind"], at: "2026-06-15 10:32:00", bus: bus)
        #expect(reachable.standardOutput.contains("Sent 2 reminders to the desktop: Gym (07:00), Water (10:00)."), "\(reachable.standardOutput)")
        #expect(bus.notifications.map { $0["summary"] as? String } == ["Gym", "Water"])
    }

    /// Issue 60, item 5: a server that reads markup is sent the body escaped, whatever the unit holds.
    @Test func markupInAUnitReachesTheServerAsText() throws {
        defer { temp.remove() }
        let bus = try SessionBus(markup: true)
        defer { bus.stop() }
        let setup = try trend(["-c", "habit add Tea every day target 2 \"<a href=x>y</a>\"", "-c", "habit remind Tea at 9:00"],
                              at: "2026-06-15 08:00:00", bus: nil)
        #expect(setup.status == 0, "\(setup.standardError)")
        _ = try trend(["remind"], at: "2026-06-15 09:01:00", bus: bus)
        #expect(bus.notifications.first?["body"] as? String == "2 &lt;a href=x&gt;y&lt;/a&gt;, none yet", "\(bus.notifications)")
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

    /// `trend remind --watch`: the notification's "Done" marks the habit through the habits, as `habit done`, and the
    /// notification is closed; an `ActionInvoked` from another client on the bus counts for nothing; a habit done
    /// by `-c` closes its notification; SIGTERM ends it cleanly (exit 0).
    @Test func theWatchActsOnDoneFromTheServerOnlyClosesWhatIsDoneAndEndsOnSigterm() throws {
        defer { temp.remove() }
        let bus = try SessionBus()
        defer { bus.stop() }
        try setUp()
        let log = temp.url.appendingPathComponent("watch.log")
        let watch = try startWatch(at: "2026-06-15 20:59:58", bus: bus.address, log: log)
        defer { if watch.isRunning { watch.terminate() } }
        // The reminders of the day that have passed go at once; Read's 21:00 two seconds later.
        #expect(bus.waitForNotifications(5, seconds: 20), "\(bus.notifications)")
        let read = try #require(bus.notifications.first { $0["summary"] as? String == "Read" }?["id"] as? Int)
        let gym = try #require(bus.notifications.first { $0["summary"] as? String == "Gym" }?["id"] as? Int)
        try bus.forgeAction(read, "skip")
        bus.invoke(read, "done")
        #expect(SessionBus.waitFor(seconds: 20) { ((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains("done: Read") })
        #expect(!((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains("skip: Read"), "the forged skip counts for nothing")
        #expect(SessionBus.waitFor(seconds: 10) { bus.closed.contains(read) }, "\(bus.closed)")
        // Gym is done at the prompt's `-c`: its notifications go at the watcher's next look.
        _ = try trend(["-c", "habit done Gym"], at: "2026-06-15 21:00:05", bus: nil)
        #expect(SessionBus.waitFor(seconds: 20) { bus.closed.contains(gym) }, "\(bus.closed)")
        // A second watcher on the same data directory says so and ends.
        let second = try trend(["remind", "--watch"], at: "2026-06-15 21:00:10", bus: bus)
        #expect(second.status == 0 && second.standardOutput.contains("already runs"), "\(second.standardOutput)")
        try stop(watch)
        #expect(watch.terminationStatus == 0)
        let habits = try trend(["--json", "-c", "habits"], at: "2026-06-15 21:10:00", bus: nil).documents()
        let marked = (habits.first?["habits"] as? [[String: Any]])?.first { $0["name"] as? String == "Read" }
        #expect(marked?["doneToday"] as? Bool == true, "\(habits)")
    }

    /// Issue 60, item 3: a watcher started before its session's bus is there waits for it, and sends once it is.
    @Test func theWatchWaitsForABusThatComesLater() throws {
        defer { temp.remove() }
        try setUp()
        let folder = SessionBus.newFolder()
        let log = temp.url.appendingPathComponent("watch.log")
        let watch = try startWatch(at: "2026-06-15 08:00:00", bus: SessionBus.address(in: folder), log: log)
        defer { if watch.isRunning { watch.terminate() } }
        #expect(SessionBus.waitFor(seconds: 20) { ((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains("waiting for the desktop") })
        let bus = try SessionBus(folder: folder)
        defer { bus.stop() }
        #expect(bus.waitForNotifications(1, seconds: 20), "\((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
        #expect(bus.notifications.map { $0["summary"] as? String } == ["Gym"])
        try stop(watch)
    }

    /// Issue 60, item 1: `remind install` (no user manager here: an autostart entry in a scratch home), then the
    /// watcher started the way a desktop starts it at login (`gio launch`, GLib's reader), on a data directory whose
    /// path holds `%` and a space; Done pressed on its notification marks the habit there.
    @Test func installThenLoginStartsTheWatcherAndDoneWorks() throws {
        defer { temp.remove() }
        let bus = try SessionBus()
        defer { bus.stop() }
        let data = temp.url.appendingPathComponent("my 100% data")
        let home = temp.url.appendingPathComponent("home")
        let session = ["HOME": home.path, "XDG_RUNTIME_DIR": temp.url.appendingPathComponent("runtime").path]
        // The real clock: a reminder at 00:00 is due whenever the test runs.
        let setup = try runTool(trendExecutable().path, ["--data-dir", data.path, "-c", "habit add Read every day", "-c", "habit remind Read at 0:00",
                                                         "-c", "remind install"],
                                environment: session.merging(["PATH": "/usr/bin:/bin", "TZ": "UTC"]) { $1 }, mergingErrors: true)
        #expect(setup.status == 0 && setup.output.contains("trend-remind.desktop"), "\(setup.output)")
        let entry = home.appendingPathComponent(".config/autostart/trend-remind.desktop")
        #expect(FileManager.default.fileExists(atPath: entry.path))
        // The watcher outlives gio and keeps what it inherits: no pipe of the test's is handed to it.
        let gio = Process()
        gio.executableURL = URL(fileURLWithPath: "/usr/bin/gio")
        gio.arguments = ["launch", entry.path]
        gio.environment = session.merging(["PATH": "/usr/bin:/bin", "TZ": "UTC", "DBUS_SESSION_BUS_ADDRESS": bus.address]) { $1 }
        gio.standardOutput = FileHandle.nullDevice
        gio.standardError = FileHandle.nullDevice
        try gio.run()
        gio.waitUntilExit()
        #expect(gio.terminationStatus == 0)
        defer { _ = try? runTool("/usr/bin/pkill", ["-TERM", "-f", data.path]) }  // The watcher, whatever the test's outcome.
        #expect(bus.waitForNotifications(1, seconds: 20), "\(bus.notifications)")
        let read = try #require(bus.notifications.first?["id"] as? Int)
        bus.invoke(read, "done")
        #expect(SessionBus.waitFor(seconds: 20) { bus.closed.contains(read) }, "\(bus.closed)")
        let habits = try runTool(trendExecutable().path, ["--data-dir", data.path, "--json", "-c", "habits"],
                                 environment: ["PATH": "/usr/bin:/bin", "TZ": "UTC", "HOME": home.path])
        #expect(habits.output.contains("\"doneToday\":true"), "\(habits.output)")
        let removed = try runTool(trendExecutable().path, ["--data-dir", data.path, "-c", "remind uninstall"],
                                  environment: session.merging(["PATH": "/usr/bin:/bin"]) { $1 })
        #expect(removed.status == 0 && !FileManager.default.fileExists(atPath: entry.path), "\(removed.output)")
    }

    /// Issue 60, item 1: a data directory whose path holds a line break is refused in words, and nothing is written.
    @Test func aLineBreakInThePathIsRefusedAndNothingIsWritten() throws {
        defer { temp.remove() }
        let home = temp.url.appendingPathComponent("home")
        let run = try runTool(trendExecutable().path, ["--data-dir", temp.url.appendingPathComponent("a\nb").path, "-c", "remind install"],
                              environment: ["HOME": home.path, "PATH": "/usr/bin:/bin"], mergingErrors: true)
        #expect(run.status == 1 && run.output.contains("holds a control character (U+000A)") && run.output.contains("nothing was written"),
                "\(run.output)")
        #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent(".config").path))
    }

    /// `trend remind --watch` under faketime from `clock`, its lines into `log`.
    func startWatch(at clock: String, bus address: String, log: URL) throws -> Process {
        #expect(FileManager.default.createFile(atPath: log.path, contents: nil))
        let watch = Process()
        watch.executableURL = URL(fileURLWithPath: "/usr/bin/faketime")
        watch.arguments = ["-f", "@" + clock, trendExecutable().path] + directory + ["remind", "--watch"]
        watch.environment = ["PATH": "/usr/bin:/bin", "TZ": "UTC", "FAKETIME_DONT_FAKE_MONOTONIC": "1",
                             "HOME": temp.url.path, "DBUS_SESSION_BUS_ADDRESS": address]
        watch.standardOutput = try FileHandle(forWritingTo: log)
        watch.standardError = FileHandle.nullDevice
        try watch.run()
        return watch
    }

    /// SIGTERM to the watcher itself (it runs under faketime's wrapper), then waits for it.
    func stop(_ watch: Process) throws {
        let child = try runTool("/usr/bin/pgrep", ["-P", String(watch.processIdentifier)]).output
        let pid = try #require(Int32(child.trimmingCharacters(in: .whitespacesAndNewlines)))
        kill(pid, SIGTERM)
        watch.waitUntilExit()
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
        // Issue 60: the desktop's notification is still sent, once, with a watcher beside the prompt.
        let bus = try SessionBus()
        defer { bus.stop() }
        let watch = Process()
        watch.executableURL = URL(fileURLWithPath: "/usr/bin/faketime")
        watch.arguments = ["-f", "@2026-06-15 20:59:55", trendExecutable().path, "--data-dir", data.path, "remind", "--watch"]
        watch.environment = ["PATH": "/usr/bin:/bin", "TZ": "UTC", "FAKETIME_DONT_FAKE_MONOTONIC": "1", "DBUS_SESSION_BUS_ADDRESS": bus.address]
        watch.standardOutput = FileHandle.nullDevice
        watch.standardError = FileHandle.nullDevice
        try watch.run()
        defer { _ = try? runTool("/usr/bin/pkill", ["-TERM", "-P", String(watch.processIdentifier)]); watch.waitUntilExit() }
        let session = try terminal.startREPL(data: data, clock: "2026-06-15 20:59:55", environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        defer { terminal.endServer() }
        try terminal.type(session, "habit do")
        let screen = try terminal.waitFor(session, "Reminder: Read")
        #expect(screen.contains("Reminder: Read, not done yet today (21:00). 'habit done Read' marks it."), "\(screen)")
        let lines = screen.split(separator: "\n").map(String.init)
        let reminder = try #require(lines.firstIndex { $0.hasPrefix("Reminder: Read") })
        #expect(lines.dropFirst(reminder + 1).first { !$0.isEmpty } == "trend> habit do", "the typed line stays:\n\(screen)")
        #expect(bus.waitForNotifications(1, seconds: 10) && bus.notifications.map { $0["summary"] as? String } == ["Read"], "\(bus.notifications)")
        try terminal.type(session, "ne Read", then: "Enter")
        #expect(try terminal.waitFor(session, "'Read' done today").contains("'Read' done today"))
    }
}

/// Issue 60, item 1: `trend remind install` typed at a terminal shows what it would write and writes only on a yes
/// (tmux, a real terminal; a scratch home without a user manager, so an autostart entry).
@Suite struct RemindInstallAsksTests {
    let terminal = TmuxTerminal()

    @Test func typedAtATerminalItShowsThePlanAndWritesNothingOnANo() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let home = temp.url.appendingPathComponent("home")
        let entry = home.appendingPathComponent(".config/autostart/trend-remind.desktop")
        let command = "HOME='\(home.path)' XDG_RUNTIME_DIR='\(temp.url.path)' '\(trendExecutable().path)' --data-dir '\(temp.url.appendingPathComponent("data").path)' remind install; echo exit=$?; sleep 30"
        guard try terminal.tmux(["new-session", "-d", "-s", "install", "-x", "100", "-y", "40", command]) == 0 else { throw CocoaError(.executableLoad) }
        defer { terminal.endServer() }
        let asked = try terminal.waitFor("install", "Write it? [y/N]")
        #expect(asked.contains("trend-remind.desktop:") && asked.contains("Exec="), "\(asked)")
        #expect(!FileManager.default.fileExists(atPath: entry.path), "nothing before the answer")
        try terminal.type("install", "n", then: "Enter")
        let answered = try terminal.waitFor("install", "exit=")
        #expect(answered.contains("Nothing was written.") && answered.contains("exit=0"), "\(answered)")
        #expect(!FileManager.default.fileExists(atPath: entry.path))
    }
}
