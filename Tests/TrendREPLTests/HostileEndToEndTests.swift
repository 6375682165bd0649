import Foundation
@testable import Storage
import Testing
import TestSupport

/// The attacks on a data directory that only the whole program meets: a
/// history that is a FIFO or a link, a `-wal` left from another database, a
/// full disk under the backups, a clock far in the future.
@Suite(.serialized) struct HostileEndToEndTests {
    /// Runs `trend` on a pseudo-terminal (util-linux `script`), typing `input`; gives up after 20 seconds.
    func runOnTerminal(_ data: URL, input: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["20", "/usr/bin/script", "-qec", "\(trendExecutable().path) --data-dir \(data.path)", "/dev/null"]
        process.environment = ["PATH": "/usr/bin:/bin", "TERM": "dumb", "HOME": data.path, "TZ": "UTC"]
        let output = Pipe(), stdin = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = stdin
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    @Test func aHistoryFIFONeverBlocksThePromptAndAHistoryLinkIsNeverWrittenThrough() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let data = temp.url.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        #expect(mkfifo(data.appendingPathComponent("history").path, 0o600) == 0)
        let fifo = try runOnTerminal(data, input: "quit\n")
        #expect(fifo.status == 0, "124 means it hung: \(fifo.output)")
        #expect(fifo.output.contains("is not a regular file"), "\(fifo.output)")
        #expect(fifo.output.contains("trend> "))

        try FileManager.default.removeItem(at: data.appendingPathComponent("history"))
        let victim = temp.url.appendingPathComponent("victim.txt")
        try Data("precious\n".utf8).write(to: victim)
        try FileManager.default.createSymbolicLink(at: data.appendingPathComponent("history"), withDestinationURL: victim)
        let link = try runOnTerminal(data, input: "settings\nquit\n")
        #expect(link.status == 0, "\(link.output)")
        #expect(try String(contentsOf: victim, encoding: .utf8) == "precious\n")
    }

    @Test func aWALLeftBesideAnotherDatabaseIsSetAsideNotApplied() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let first = temp.url.appendingPathComponent("first"), second = temp.url.appendingPathComponent("second")
        // The first database with a write still in its WAL, as a killed process leaves it.
        let open = LocalDataStore(directory: first)
        try open.open()
        try open.write { try $0.run("INSERT INTO weight_entries(id, instant, kilograms) VALUES('from-first', 1780000000, 90)") }
        let wal = LocalDataStore.walURL(first.appendingPathComponent(LocalDataStore.fileName))
        #expect(FileManager.default.fileExists(atPath: wal.path))
        #expect(try runTrend(["--data-dir", second.path, "-c", "weigh 70"]).status == 0)
        // The second database is copied in over the first; the first's -wal stays.
        try expectOnlyTheSecond(second, besideTheLog: wal, named: "trend.sqlite-wal", of: first, in: temp)
    }

    /// Copies `second`'s database into a new folder beside `log` (the first
    /// database's, as `name`) and its owner file, as a `trend.sqlite` copied in
    /// over the first leaves them; the log must be set aside, not applied.
    func expectOnlyTheSecond(_ second: URL, besideTheLog log: URL, named name: String, of first: URL,
                             in temp: TemporaryDirectory) throws {
        let target = temp.url.appendingPathComponent("target")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: second.appendingPathComponent(LocalDataStore.fileName),
                                         to: target.appendingPathComponent(LocalDataStore.fileName))
        try FileManager.default.copyItem(at: log, to: target.appendingPathComponent(name))
        try FileManager.default.copyItem(at: LocalDataStore.walOwnerURL(first.appendingPathComponent(LocalDataStore.fileName)),
                                         to: target.appendingPathComponent("trend.sqlite-walid"))

        let run = try runTrend(["--data-dir", target.path, "--json", "-c", "entries all"])
        #expect(run.standardError.contains("belonged to another database"), "\(run.standardError)")
        let entries = try #require(try run.documents().first?["entries"] as? [[String: Any]])
        #expect(entries.map { $0["kilograms"] as? Double } == [70], "the second database's own data, nothing of the first")
        let names = try FileManager.default.contentsOfDirectory(atPath: target.path)
        #expect(names.contains { $0.hasPrefix("\(name).foreign-") })
        #expect(try LocalDataStore(directory: target).read { try $0.query("PRAGMA integrity_check") { $0.text(0) } } == ["ok"])
    }

    /// A bulk import goes through the rollback journal: a killed one leaves a
    /// hot `-journal`. Beside another database (copied in over the first) it
    /// would write the first one's pages into it; it is set aside instead.
    @Test func aHotJournalLeftBesideAnotherDatabaseIsSetAsideNotRolledBack() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let first = temp.url.appendingPathComponent("first"), second = temp.url.appendingPathComponent("second")
        let csv = temp.url.appendingPathComponent("rows.csv")
        let rows = (0..<20_000).map { "\(1_600_000_000 + $0 * 600),\(60 + $0 % 40)\n" }.joined()
        try Data(("date,weight\n" + rows).utf8).write(to: csv)
        #expect(try runTrend(["--data-dir", first.path, "-c", "import \(csv.path)"]).status == 0)
        #expect(try runTrend(["--data-dir", second.path, "-c", "weigh 70"]).status == 0)
        // A write to the first database killed after its journal and some pages were written, as a killed bulk import leaves it.
        let database = first.appendingPathComponent(LocalDataStore.fileName)
        let killed = """
            import os, sqlite3, sys
            c = sqlite3.connect(sys.argv[1], isolation_level=None)
            c.execute("PRAGMA journal_mode=DELETE"); c.execute("PRAGMA cache_size=1")
            c.execute("BEGIN IMMEDIATE"); c.execute("UPDATE weight_entries SET kilograms = kilograms + 1")
            os._exit(0)
            """
        #expect(try runTool("/usr/bin/python3", ["-c", killed, database.path]).status == 0)
        let journal = LocalDataStore.journalURL(database)
        #expect(FileManager.default.fileExists(atPath: journal.path), "a hot journal is left")
        try expectOnlyTheSecond(second, besideTheLog: journal, named: "trend.sqlite-journal", of: first, in: temp)
    }

    @Test func theDatabaseIsClosedAtExitWithNoWALLeft() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let data = temp.url.appendingPathComponent("data")
        #expect(try runTrend(["--data-dir", data.path, "-c", "weigh 80", "-c", "habit add Read every day"]).status == 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: data.path)
        #expect(!names.contains("trend.sqlite-wal") && !names.contains("trend.sqlite-shm"), "\(names)")
    }

    @Test func aFullBackupDiskIsReportedAsAFailureUntilASnapshotSucceeds() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let data = temp.url.appendingPathComponent("data")
        // 3,000 weigh-ins, one a second: a snapshot of about 300 KB.
        let rows = (0..<3_000).map { String(format: "2020-01-01 %02d:%02d:%02d,%d", $0 / 3600, $0 / 60 % 60, $0 % 60, 60 + $0 % 40) }
        let csv = temp.url.appendingPathComponent("rows.csv")
        try Data((["date,weight"] + rows).joined(separator: "\n").utf8).write(to: csv)
        #expect(try runTrend(["--data-dir", data.path, "-c", "import \(csv.path)"]).status == 0)
        try FileManager.default.removeItem(at: data.appendingPathComponent("Backups"))

        // No file may grow past 160 KB: the snapshot (about 300 KB) cannot be written, while the WAL
        // still has room for the few 16 KB pages that record the failure.
        let full = try runTrendWithFileSizeLimit(163_840, ["--data-dir", data.path, "-c", "backup now"])
        #expect(full.status == 1, "\(full.errors)")

        // Three days on, the next automatic snapshot is late.
        let later = "2026-06-18 08:00:00"
        let status = try runTrend(["--data-dir", data.path, "--json", "-c", "backup status"], clock: later)
        #expect(status.standardError.contains("warning: the last backup snapshot could not be written"), "\(status.standardError)")
        let document = try #require(try status.documents().first)
        #expect(document["lastFailure"] is [String: Any], "\(document)")
        #expect(document["overdue"] as? Bool == true)
        let quiet = try runTrend(["--data-dir", data.path, "-c", "settings"], clock: later)
        #expect(!quiet.standardError.contains("warning:"), "said once a day, not at every command")

        #expect(try runTrend(["--data-dir", data.path, "-c", "backup now"], clock: later).status == 0)
        let after = try #require(try runTrend(["--data-dir", data.path, "--json", "-c", "backup status"], clock: later).documents().first)
        #expect(after["lastFailure"] is NSNull && after["overdue"] as? Bool == false, "\(after)")
    }

    @Test func aClockPast2200IsNamedAndChangesNothing() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let data = temp.url.appendingPathComponent("data")
        let run = try runTrend(["--data-dir", data.path, "-c", "weigh 80", "-c", "backup now"], clock: "2301-01-01 08:00:00")
        #expect(run.status == 1)
        #expect(run.standardError.contains("the system clock reads 2301-01-01"), "\(run.standardError)")
        let entries = try #require(try runTrend(["--data-dir", data.path, "--json", "-c", "entries all"]).documents().first?["entries"] as? [Any])
        #expect(entries.isEmpty)
    }
}
