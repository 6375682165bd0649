import Dispatch
import Foundation
import Testing
import TestSupport

/// Two `trend` processes on one data directory (a shell loop beside another, DESIGN §5 and §8): every
/// read-modify-write is one transaction, so neither loses the other's update.
@Suite struct SeveralProcessesTests {
    @Test func twoLoopsOfIncrementsOnOneDataDirectoryAddUpToEveryIncrement() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let data = temp.url.appendingPathComponent("data").path
        let made = try runTrend(["--data-dir", data, "-c", "habit add Water 8 glasses"])
        #expect(made.status == 0, "\(made.standardError)")
        // Two loops side by side, 20 processes each, two increments a process: 80 in all.
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            for _ in 0..<20 {
                do {
                    let run = try runTrend(["--data-dir", data, "-c", "habit done Water +1", "-c", "habit done Water +1"])
                    if run.status != 0 { failures.add(run.standardError) }
                } catch {
                    failures.add("\(error)")
                }
            }
        }
        #expect(failures.all.isEmpty, "\(failures.all)")
        let shown = try runTrend(["--data-dir", data, "--json", "-c", "habits"])
        let habits = try #require(try shown.documents().first?["habits"] as? [[String: Any]])
        #expect(habits.first?["todayValue"] as? Double == 80)
    }

    /// Issue 59, item 1: with a sync folder, two loops of `habit done` beside a loop of the reminder timer sync at
    /// once on one data directory. They sync one at a time, so none takes the other's file for a copy of itself:
    /// one installation id, one device folder, no fork note, and the peer gets every increment.
    @Test func processesSyncingAtOnceNeverForkTheInstallation() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let sync = temp.url.appendingPathComponent("Sync")
        try FileManager.default.createDirectory(at: sync, withIntermediateDirectories: true)
        let laptop = temp.url.appendingPathComponent("laptop").path, desktop = temp.url.appendingPathComponent("desktop").path
        let made = try runTrend(["--data-dir", laptop, "-c", "set sync-folder \(sync.path)", "-c", "set device-name laptop",
                                 "-c", "habit add Water 8 glasses"])
        #expect(made.status == 0, "\(made.standardError)")
        _ = try runTrend(["--data-dir", desktop, "-c", "set sync-folder \(sync.path)", "-c", "set device-name desktop"])
        try joinSync(desktop, from: laptop, folder: sync)
        let failures = Failures()
        let said = Failures()
        DispatchQueue.concurrentPerform(iterations: 3) { loop in
            for _ in 0..<(loop == 2 ? 10 : 20) {
                do {
                    let run = try runTrend(["--data-dir", laptop, "-c", loop == 2 ? "remind" : "habit done Water +1"])
                    if run.status != 0 { failures.add(run.standardError) }
                    said.add(run.standardOutput + run.standardError)
                } catch {
                    failures.add("\(error)")
                }
            }
        }
        #expect(failures.all.isEmpty, "\(failures.all)")
        #expect(!said.all.contains { $0.contains("copied") }, "\(said.all.filter { $0.contains("copied") })")
        _ = try runTrend(["--data-dir", laptop, "-c", "sync now"])
        let peer = try runTrend(["--data-dir", desktop, "-c", "sync now"])
        #expect(!peer.standardOutput.contains("not the folder's"), "\(peer.standardOutput)")
        for data in [laptop, desktop] {
            let shown = try runTrend(["--data-dir", data, "--json", "-c", "habits"])
            let habits = try #require(try shown.documents().first?["habits"] as? [[String: Any]])
            #expect(habits.first?["todayValue"] as? Double == 40, "\(data): \(habits)")
        }
        // One folder an installation (beside the private folder's marker).
        let folders = try FileManager.default.contentsOfDirectory(atPath: sync.appendingPathComponent("trend").path).filter { $0 != "private" }
        #expect(folders.count == 2, "\(folders)")
    }

    /// What the loops' processes said went wrong, from either thread.
    final class Failures: @unchecked Sendable {
        // @unchecked: every access holds the lock.
        private let lock = NSLock()
        private var said: [String] = []

        func add(_ failure: String) {
            lock.lock()
            said.append(failure)
            lock.unlock()
        }

        var all: [String] {
            lock.lock()
            defer { lock.unlock() }
            return said
        }
    }
}

extension SyncCommandTests {
    /// What the sync before a command did is kept until it is shown: `sync now` right after reports the changes
    /// that sync brought, in words and in JSON, and the next `sync now` no longer does.
    @Test func syncNowReportsWhatTheSyncBeforeItReceived() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let (sync, laptop, desktop) = try twoDevices(in: temp)
        _ = try runTrend(["--data-dir", desktop, "-c", "set sync-folder \(sync.path)"])
        try joinSync(laptop, from: desktop, folder: sync)
        let first = try runTrend(["--data-dir", laptop, "-c", "set sync-folder \(sync.path)", "-c", "set device-name laptop",
                                  "-c", "weigh 82.4", "-c", "weigh 82.1 yesterday"])
        #expect(first.status == 0, "\(first.standardError)")
        let now = try runTrend(["--data-dir", desktop, "--json", "-c", "sync now"])
        let report = try #require(try now.documents().first?["sync"] as? [String: Any])
        #expect(report["received"] as? Int == 2, "\(report)")
        #expect(report["from"] as? [String] == ["laptop"])
        #expect(report["leftOut"] as? Int == 0)
        let again = try runTrend(["--data-dir", desktop, "-c", "sync now"])
        #expect(again.standardOutput.contains("0 received"), "\(again.standardOutput)")
    }
}
