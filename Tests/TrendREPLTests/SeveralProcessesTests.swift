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
