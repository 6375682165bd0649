import AppCore
import Backup
import Foundation
import Synchronization
import Storage
import Testing
import TestSupport

/// Faults a person's machine can throw at Trend: killed processes, two
/// processes at once, a full disk, a permissive umask.
@Suite(.serialized) struct ReliabilityTests {
    static func weights(_ count: Int, base: Double) -> SnapshotContent {
        CrashSafetyTests.content(weights: count, base: base)
    }

    /// A CSV of `rows` weigh-ins, some of whose moments repeat (the import keeps one of each).
    static func writeCSV(rows: Int, to file: URL) throws {
        var text = "date,weight\n"
        for index in 0..<rows {
            text += String(format: "%04d-%02d-%02d %02d:%02d,%d\n", 2001 + index / 8_000, 1 + (index / 600) % 12,
                           1 + (index / 24) % 25, index % 24, index % 60, 70 + index % 30)
        }
        try Data(text.utf8).write(to: file)
    }

    /// Runs `trend` with `arguments`, kills it after each fraction of an
    /// undisturbed run's time, and hands each outcome to `check`.
    static func killAtManyMoments(data: URL, arguments: [String], fractions: [Double], reset: () throws -> Void,
                                  check: (Int) throws -> Void) throws -> [String: Int] {
        func start() throws -> Process {
            try reset()
            let process = Process()
            process.executableURL = trendExecutable()
            process.arguments = ["--data-dir", data.path] + arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }
        let clock = ContinuousClock()
        let began = clock.now
        let full = try start()
        full.waitUntilExit()
        let duration = began.duration(to: clock.now)
        try check(-1)
        var outcomes: [String: Int] = [:]
        for (attempt, fraction) in fractions.enumerated() {
            let process = try start()
            let (seconds, attoseconds) = (duration * fraction).components
            usleep(UInt32(Double(seconds) * 1_000_000 + Double(attoseconds) / 1e12))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let store = LocalDataStore(directory: data)
            #expect(try store.read { try $0.query("PRAGMA integrity_check") { $0.text(0) } } == ["ok"], "attempt \(attempt)")
            try check(attempt)
            outcomes[process.terminationReason == .uncaughtSignal ? "killed" : "finished", default: 0] += 1
        }
        return outcomes
    }

    @Test func anImportKilledAtAnyMomentIsAllOrNothing() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let data = temp.url.appendingPathComponent("data")
        let csv = temp.url.appendingPathComponent("rows.csv")
        try Self.writeCSV(rows: 60_000, to: csv)
        let before = Self.weights(40, base: 60)
        var counts = Set<Int>()
        let outcomes = try Self.killAtManyMoments(
            data: data, arguments: ["-c", "import \(csv.path)"], fractions: [0.05, 0.3, 0.5, 0.65, 0.8, 0.9, 0.97],
            reset: { try LocalDataStore(directory: data).replaceContent(with: before) },
            check: { _ in
                let count = try LocalDataStore(directory: data).readContent().weights.count
                counts.insert(count)
                #expect(count == 40 || count > 40 + 50_000, "\(count) weights: between before and after")
            })
        #expect(counts.count <= 2, "only the state before and the state after were seen: \(counts)")
        #expect(outcomes["killed", default: 0] >= 1, "\(outcomes)")
    }

    /// Issue 29: `sync now` killed at any moment while it applies another
    /// device's long history leaves none of it or all of it, and the next
    /// sync converges to the other device's rows.
    @Test func aSyncKilledAtAnyMomentIsAllOrNothingAndThenConverges() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let source = temp.url.appendingPathComponent("laptop"), data = temp.url.appendingPathComponent("desktop")
        let sync = temp.url.appendingPathComponent("Sync")
        try FileManager.default.createDirectory(at: sync, withIntermediateDirectories: true)
        let csv = temp.url.appendingPathComponent("rows.csv")
        try Self.writeCSV(rows: 30_000, to: csv)
        func trend(_ directory: URL, _ commands: String...) throws -> String {
            let run = try runTool(trendExecutable().path, ["--data-dir", directory.path] + commands.flatMap { ["-c", $0] })
            #expect(run.status == 0, "\(commands): \(run.output)")
            return run.output
        }
        // A plain folder, as Trend 0.3 wrote (both ends set it in the database: no `set sync-folder` makes it private).
        _ = try trend(source, "import \(csv.path)", "set device-name laptop")
        try LocalDataStore(directory: source).write { try $0.run("INSERT INTO settings(key, value) VALUES('syncFolder', ?)", [.text(sync.path)]) }
        _ = try trend(source, "sync now")
        func weighIns(_ directory: URL) throws -> Int {
            try LocalDataStore(directory: directory).read { try $0.scalarInt("SELECT count(*) FROM weight_entries") ?? -1 }
        }
        // The import leaves out the file's repeated moments: what the laptop holds is what must arrive.
        let all = try weighIns(source)
        #expect(all > 20_000)
        var counts = Set<Int>()
        let outcomes = try Self.killAtManyMoments(
            data: data, arguments: ["-c", "sync now"], fractions: [0.1, 0.3, 0.5, 0.7, 0.85, 0.95],
            reset: {
                try? FileManager.default.removeItem(at: data)
                // Set in the database, not by a run of `trend`, which would sync at its exit.
                try LocalDataStore(directory: data).write {
                    try $0.run("INSERT INTO settings(key, value) VALUES('syncFolder', ?), ('deviceName', 'desktop')", [.text(sync.path)])
                }
            },
            check: { _ in
                let count = try weighIns(data)
                counts.insert(count)
                #expect(count == 0 || count == all, "\(count) weigh-ins: between before and after")
                // The next sync, whole, brings the rest.
                _ = try trend(data, "sync now")
                #expect(try weighIns(data) == all)
            })
        #expect(counts.isSubset(of: [0, all]), "only none or all of the history was seen: \(counts)")
        #expect(outcomes["killed", default: 0] >= 1, "\(outcomes)")
        #expect(try trend(data, "entries all") == trend(source, "entries all"))
    }

    @Test func aBackupKilledAtAnyMomentLeavesWholeFilesOnly() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let data = temp.url.appendingPathComponent("data")
        try LocalDataStore(directory: data).replaceContent(with: Self.weights(150_000, base: 70))
        let latest = data.appendingPathComponent("Backups/Latest.json")
        _ = try Self.killAtManyMoments(
            data: data, arguments: ["-c", "backup now"], fractions: [0.1, 0.4, 0.7, 0.85, 0.95],
            reset: {},
            check: { _ in
                // Whatever moment the kill came, every snapshot file there reads back whole.
                for name in ["Latest.json", "Previous.json"] {
                    let url = data.appendingPathComponent("Backups/\(name)")
                    guard FileManager.default.fileExists(atPath: url.path) else { continue }
                    #expect(throws: Never.self) { _ = try RecoverySnapshot.decode(Data(contentsOf: url), name: name, schema: .trend) }
                }
            })
        #expect(FileManager.default.fileExists(atPath: latest.path))
    }

    @Test func aSettingChangeKilledAtAnyMomentIsOneOrTheOther() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let data = temp.url.appendingPathComponent("data")
        _ = try Self.killAtManyMoments(
            data: data, arguments: ["-c", "set unit lb"], fractions: [0.2, 0.5, 0.8, 0.95],
            reset: { _ = try LocalDataStore(directory: data).write { try $0.run("DELETE FROM settings") } },
            check: { _ in
                let units = try LocalDataStore(directory: data).read { try $0.query("SELECT value FROM settings WHERE key = 'unit'") { $0.text(0) } }
                #expect(units == [] || units == ["lb"])
            })
    }

    @Test func twoProcessesWritingAtOnceLoseNothing() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let data = temp.url.appendingPathComponent("data")
        try LocalDataStore(directory: data).open()
        func script(_ hour: Int) -> String {
            (0..<120).map { "weigh \(70 + $0 % 20) 2026-01-\(String(format: "%02d", 1 + $0 / 10)) \(String(format: "%02d", hour)):\(String(format: "%02d", $0 % 10))\nhabit done Read 2026-01-\(String(format: "%02d", 1 + $0 / 10))" }.joined(separator: "\n")
        }
        _ = try runTrend(["--data-dir", data.path, "-c", "habit add Read every day"])
        let processes = try [8, 20].map { hour -> (Process, Pipe) in
            let process = Process()
            process.executableURL = trendExecutable()
            process.arguments = ["--data-dir", data.path]
            let input = Pipe()
            process.standardInput = input
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return (process, input)
        }
        for (index, (_, input)) in processes.enumerated() {
            input.fileHandleForWriting.write(Data(script([8, 20][index]).utf8))
            try input.fileHandleForWriting.close()
        }
        for (process, _) in processes {
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
        let content = try LocalDataStore(directory: data).readContent()
        #expect(content.weights.count == 240, "every weigh-in of both processes")
        #expect(content.habitRecords.count == 12, "12 distinct days marked")
    }

    /// Two imports of the same file at once, 30 times: the duplicate check
    /// runs inside the writing transaction, so the second finds the first's
    /// rows and adds none (before, 8 of 30 trials doubled rows).
    @Test func twoImportsOfOneFileAtOnceNeverDuplicateARow() throws {
        let rows = (0..<300).map { (index: Int) -> String in
            let month = 1 + index / 28 % 12, day = 1 + index % 28, minute = index / 28 / 12
            // 2025: every row before the clock the runs are at (a later one is refused as in the future).
            return String(format: "2025-%02d-%02d 07:%02d,%.2f", month, day, minute, 70 + Double(index % 40) / 4)
        }
        try importTwiceAtOnce(rows, trials: 30)
    }

    /// The same with a file long enough to be written while it is read (several
    /// batches): whichever import takes the write lock second sorts its rows
    /// against the first one's, read inside its own transaction.
    @Test func twoLargeImportsAtOnceNeverDuplicateARow() throws {
        try importTwiceAtOnce((0..<25_000).map { String(format: "%d,%.1f", 1_600_000_000 + $0 * 3_600, 70 + Double($0 % 40) / 10) }, trials: 3)
    }

    /// Imports a CSV of `rows` (`date,weight`, all distinct) by two `trend` processes at once, `trials` times.
    private func importTwiceAtOnce(_ rows: [String], trials: Int) throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let csv = temp.url.appendingPathComponent("same.csv")
        try Data(("date,weight\n" + rows.joined(separator: "\n") + "\n").utf8).write(to: csv)
        for trial in 0..<trials {
            let data = temp.url.appendingPathComponent("data-\(trial)")
            try LocalDataStore(directory: data).open()
            let statuses = Mutex<[Int32]>([])
            DispatchQueue.concurrentPerform(iterations: 2) { _ in
                // A run that cannot start counts as a failed import (-1), which the expectation below reports.
                let status = (try? runTrend(["--data-dir", data.path, "-c", "import \(csv.path)"]).status) ?? -1
                statuses.withLock { $0.append(status) }
            }
            #expect(statuses.withLock { $0 } == [0, 0], "trial \(trial)")
            let stored = try LocalDataStore(directory: data).read { try $0.scalarInt("SELECT count(*) FROM weight_entries") }
            #expect(stored == rows.count, "trial \(trial)")
        }
    }

    @Test func aFileSizeLimitMidImportIsReportedAndChangesNothing() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let data = temp.url.appendingPathComponent("data")
        try LocalDataStore(directory: data).replaceContent(with: Self.weights(10, base: 70))
        let csv = temp.url.appendingPathComponent("rows.csv")
        var text = "date,weight\n"
        for index in 0..<40_000 { text += String(format: "%04d-%02d-%02d %02d:%02d,%d\n", 1990 + index / 2_000, 1 + (index / 150) % 12, 1 + (index / 6) % 25, index % 24, index % 60, 60 + index % 40) }
        try Data(text.utf8).write(to: csv)
        // A file may not grow past 1 MB: the database (or its journal) hits the limit halfway through.
        let (status, message) = try runTrendWithFileSizeLimit(1_000_000, ["--data-dir", data.path, "-c", "import \(csv.path)"])
        #expect(status == 1, "\(message)")
        #expect(message.contains("nothing was changed"), "\(message)")
        let store = LocalDataStore(directory: data)
        #expect(try store.read { try $0.query("PRAGMA integrity_check") { $0.text(0) } } == ["ok"])
        #expect(try store.readContent().weights.count == 10)
    }

    @Test func filesArePrivateEvenWithAPermissiveUmask() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let data = temp.url.appendingPathComponent("data")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "umask 000; exec \"$0\" --data-dir \"$1\" -c \"$2\" -c \"$3\"", trendExecutable().path, data.path,
                             "weigh 80", "export \(data.path)/out.csv"]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        func mode(_ path: String) -> Int? {
            (try? FileManager.default.attributesOfItem(atPath: data.appendingPathComponent(path).path)[.posixPermissions]) as? Int
        }
        #expect(mode("") == 0o700)
        #expect(mode("trend.sqlite") == 0o600)
        #expect(mode("trend.sqlite-wal") == nil || mode("trend.sqlite-wal") == 0o600)
        #expect(mode("Backups") == 0o700)
        #expect(mode("Backups/Latest.json") == 0o600)
        #expect(mode("Backups/Weekly") == 0o700)
        #expect(mode("out.csv") == 0o600)
    }
}

/// Needs a read-only bind mount, which only root (as on CI) may make.
@Suite(.serialized, .enabled(if: ReadOnlyMount.available)) struct ReadOnlyDataDirectoryTests {
    @Test func aReadOnlyDataDirectoryRefusesChangesWithAMessageAndKeepsReading() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let data = temp.url.appendingPathComponent("data")
        #expect(try runTrend(["--data-dir", data.path, "-c", "weigh 80"]).status == 0)
        try ReadOnlyMount.mount(data)
        defer { ReadOnlyMount.unmount(data) }
        let run = try runTrend(["--data-dir", data.path, "-c", "weigh 81", "-c", "today", "-c", "set unit lb"])
        #expect(run.status == 1)
        #expect(run.standardError.contains("read-only; nothing was changed"), "\(run.standardError)")
        #expect(run.standardOutput.contains("80.0 kg"), "today still reads")
        // A range that cannot be kept is shown all the same, with a word; the habits list writes no checkpoint and says nothing.
        let reads = try runTrend(["--data-dir", data.path, "-c", "progress 1m", "-c", "habits"])
        #expect(reads.status == 0, "\(reads.standardError)")
        #expect(reads.standardOutput.contains("Progress, "), "\(reads.standardOutput)")
        #expect(reads.standardError.contains("shown but not kept for next time") && reads.standardError.contains("read-only"),
                "\(reads.standardError)")
        ReadOnlyMount.unmount(data)
        let entries = try #require(try runTrend(["--data-dir", data.path, "--json", "-c", "entries all"]).documents().first?["entries"] as? [Any])
        #expect(entries.count == 1)
    }
}

enum ReadOnlyMount {
    static func run(_ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/mount")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    static func mount(_ folder: URL) throws {
        guard run(["--bind", folder.path, folder.path]), run(["-o", "remount,ro,bind", folder.path]) else {
            throw CocoaError(.fileWriteNoPermission)
        }
    }

    static func unmount(_ folder: URL) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/umount")
        process.arguments = [folder.path]
        process.standardError = FileHandle.nullDevice
        try? process.run()
        process.waitUntilExit()
    }

    /// Whether this machine lets the tests make a read-only bind mount.
    static let available: Bool = {
        let probe = FileManager.default.temporaryDirectory.appendingPathComponent("trend-ro-probe-\(getpid())")
        try? FileManager.default.createDirectory(at: probe, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: probe) }
        guard (try? mount(probe)) != nil else { return false }
        let writable = FileManager.default.createFile(atPath: probe.appendingPathComponent("x").path, contents: Data())
        unmount(probe)
        return !writable
    }()
}
