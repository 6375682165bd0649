import Desktop
import Foundation
import Storage
import Testing
import TestSupport
@testable import Habits

/// Issue 60, item 1: `remind install` puts one watcher per login in place, started with the graphical session: a
/// systemd user service bound to `graphical-session.target` where a user manager runs, else an XDG autostart entry.
/// The files are real (a scratch home); `systemctl` and the crontab are the in-memory service manager's. The unit
/// is checked by `systemd-analyze verify`, and the entry is launched by GLib's own reader (`gio launch`), which is
/// what a desktop does at login, with a data directory holding `%`, spaces, quotes, `$` and a backslash.
@MainActor
@Suite struct ReminderInstallTests {
    let temp = TemporaryDirectory()

    /// A data directory whose path every startup file must quote and escape.
    var awkward: URL { temp.url.appendingPathComponent("data 100% \"mine\" $HOME \\ 'x'") }

    func graph(manager: InMemoryServiceManager, data: URL? = nil, executable: String = "/usr/local/bin/trend") -> TestGraph {
        makeTestApp(store: LocalDataStore(directory: data ?? awkward), directory: temp.url.appendingPathComponent("graph"),
                    serviceManager: manager, executablePath: executable)
    }

    @Test func withAUserManagerItWritesAServiceBoundToTheGraphicalSessionThatSystemdAccepts() async throws {
        defer { temp.remove() }
        let home = temp.url.appendingPathComponent("home")
        let manager = InMemoryServiceManager(home: home, runsUserManager: true)
        let app = graph(manager: manager, executable: "/bin/true").app
        let setup = try app.remindersFeature.watcherSetup()
        #expect(setup.way == .systemd && setup.file.lastPathComponent == "trend-remind.service")
        #expect(setup.text.contains("PartOf=graphical-session.target") && setup.text.contains("WantedBy=graphical-session.target"))
        #expect(!setup.text.contains("DBUS_SESSION_BUS_ADDRESS"), "no bus address is frozen")
        #expect(setup.text.contains("100%% \\\"mine\\\" $$HOME \\\\ 'x'"), "\(setup.text)")
        #expect(!FileManager.default.fileExists(atPath: setup.file.path), "nothing is written before the yes")
        let done = try app.remindersFeature.install(setup)
        #expect(done.first == "Wrote \(setup.file.path).")
        #expect(manager.systemctlCalls == [["daemon-reload"], ["enable", "--now", "trend-remind.service"]])
        let runtime = temp.url.appendingPathComponent("runtime")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let verified = try runTool("/usr/bin/systemd-analyze", ["--user", "verify", setup.file.path],
                                   environment: ["XDG_RUNTIME_DIR": runtime.path, "HOME": home.path, "PATH": "/usr/bin:/bin"], mergingErrors: true)
        #expect(verified.status == 0 && verified.output.isEmpty, "\(verified.output)")
    }

    @Test func withoutAUserManagerItWritesAnAutostartEntryThatGLibRunsWithEveryWordIntact() async throws {
        defer { temp.remove() }
        let home = temp.url.appendingPathComponent("home")
        // A stand-in for trend that writes the words it was started with, one a line.
        let program = temp.url.appendingPathComponent("bin dir/trend")
        let record = temp.url.appendingPathComponent("words.txt")
        try FileManager.default.createDirectory(at: program.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("#!/bin/sh\nprintf '%s\\n' \"$@\" > '\(record.path)'\n".utf8).write(to: program)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: program.path)
        let manager = InMemoryServiceManager(home: home, runsUserManager: false)
        let app = graph(manager: manager, executable: program.path).app
        let setup = try app.remindersFeature.watcherSetup()
        #expect(setup.way == .autostart && setup.file.path == home.appendingPathComponent(".config/autostart/trend-remind.desktop").path)
        _ = try app.remindersFeature.install(setup)
        #expect(manager.systemctlCalls.isEmpty)
        let launched = try runTool("/usr/bin/gio", ["launch", setup.file.path], environment: ["HOME": home.path, "PATH": "/usr/bin:/bin"],
                                   mergingErrors: true)
        #expect(launched.status == 0, "\(launched.output)")
        #expect(SessionBus.waitFor(seconds: 10) { FileManager.default.fileExists(atPath: record.path) })
        let words = try String(contentsOf: record, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(Array(words) == ["--data-dir", Substring(awkward.path), "remind", "--watch"], "\(words)")
    }

    @Test func aPathWithALineBreakIsRefusedInWordsAndNothingIsWritten() async throws {
        defer { temp.remove() }
        let manager = InMemoryServiceManager(home: temp.url.appendingPathComponent("home"), runsUserManager: true)
        let app = graph(manager: manager, data: temp.url.appendingPathComponent("two\nlines")).app
        do {
            _ = try app.remindersFeature.watcherSetup()
            Issue.record("a line break must be refused")
        } catch let error as WatcherSetupError {
            #expect("\(error)".contains("The data directory's path holds a control character (U+000A)") && "\(error)".contains("nothing was written"))
        }
        #expect(!FileManager.default.fileExists(atPath: manager.userUnitFolder.path) && manager.systemctlCalls.isEmpty)
    }

    /// An older Trend's every-minute timer and crontab line are replaced, and the person is told; `uninstall`
    /// removes whichever is there.
    @Test func anOlderTimerAndCrontabLineAreReplacedAndUninstallRemovesEverything() async throws {
        defer { temp.remove() }
        let home = temp.url.appendingPathComponent("home")
        let manager = InMemoryServiceManager(home: home, runsUserManager: true,
                                             crontab: ["MAILTO=me", "* * * * * DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/1000/bus /usr/bin/trend remind >/dev/null 2>&1 # trend remind"])
        let timer = manager.userUnitFolder.appendingPathComponent("trend-remind.timer")
        try manager.write("[Timer]\nOnCalendar=*-*-* *:*:00\n", to: timer)
        let app = graph(manager: manager).app
        let setup = try app.remindersFeature.watcherSetup()
        #expect(setup.plan.contains("It replaces the older every-minute timer") && setup.plan.contains("the older every-minute line in your crontab"))
        let done = try app.remindersFeature.install(setup)
        #expect(done.prefix(2).allSatisfy { $0.hasPrefix("Removed the older") }, "\(done)")
        let crontab = try manager.crontabLines()
        #expect(!FileManager.default.fileExists(atPath: timer.path) && crontab == ["MAILTO=me"])
        #expect(manager.systemctlCalls.first == ["disable", "--now", "trend-remind.timer"])
        let removed = try app.remindersFeature.uninstall()
        #expect(removed.contains { $0.hasPrefix("Stopped the watcher and removed") } && !FileManager.default.fileExists(atPath: setup.file.path))
        #expect(try app.remindersFeature.uninstall() == ["No reminder watcher was installed."])
    }
}
