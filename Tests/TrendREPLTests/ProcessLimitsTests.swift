import Foundation
import Testing
import TestSupport

/// Issue 32, item 12: with few files allowed (`ulimit -n`), Trend raises its soft limit toward the hard
/// one, and refuses in a sentence when even that is too few; before, the Swift runtime stopped the process
/// (SIGILL in libdispatch's epoll set-up) below about five, and the database said "check the permissions".
@Suite struct ProcessLimitsTests {
    @Test func aLowSoftLimitIsRaisedAndAHardOneIsRefusedInASentence() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let data = temp.url.appendingPathComponent("data").path
        // A soft limit of 8 under a generous hard one: raised, and the command runs.
        let raised = try runTool("/usr/bin/prlimit", ["--nofile=8:4096", "--", trendExecutable().path, "--data-dir", data, "-c", "weigh 80.4"],
                                 mergingErrors: true)
        #expect(raised.status == 0 && raised.output.contains("Recorded 80.4 kg"), "\(raised.output)")
        for limit in [4, 20] {
            let refused = try runTool("/usr/bin/prlimit", ["--nofile=\(limit)", "--", trendExecutable().path, "--data-dir", data, "-c", "today"],
                                      mergingErrors: true)
            #expect(refused.status == 1, "\(limit): \(refused.output)")
            #expect(refused.output == "trend: only \(limit) open files are allowed (ulimit -n) and trend needs 64; raise the limit and run it again\n")
        }
    }

    /// Under a limit on address space (`ulimit -v`), a command works or is refused in a sentence; before,
    /// an import hung at 300 MB (its reader waited for a writer no thread was left for) and aborted at 400 MB
    /// (glibc reserves 64 MB of address space per thread's malloc arena).
    @Test func anAddressSpaceLimitIsWorkedWithOrRefusedNeverWaitedOn() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let data = temp.url.appendingPathComponent("data").path
        let csv = temp.url.appendingPathComponent("weights.csv")
        let start = Date(timeIntervalSince1970: 1_600_000_000)
        let rows = (0..<20_000).map { "\(ISO8601DateFormatter().string(from: start.addingTimeInterval(Double($0) * 3_000))),\(80 + Double($0 % 20) / 10),kg" }
        try Data(("date,weight,unit\n" + rows.joined(separator: "\n") + "\n").utf8).write(to: csv)
        func run(_ kilobytes: Int, _ command: String) throws -> (status: Int32, output: String) {
            try runTool("/usr/bin/timeout", ["-s", "KILL", "30", "prlimit", "--as=\(kilobytes << 10)", "--", trendExecutable().path,
                                             "--data-dir", data, "-c", command], mergingErrors: true)
        }
        let refused = try run(150_000, "today")
        #expect(refused.status == 1, "\(refused.output)")
        #expect(refused.output.hasPrefix("trend: only 146 MB of address space is allowed (ulimit -v) and trend needs 256 MB"), "\(refused.output)")
        let imported = try run(400_000, "import \(csv.path)")
        #expect(imported.status == 0 && imported.output.contains("Imported 20000 weigh-ins"), "\(imported.output)")
    }

    /// Under a limit on processes (`ulimit -u`, held to users other than root), a command works or is
    /// refused in a sentence; before, every database command waited forever for a thread never started.
    @Test func aProcessLimitIsWorkedWithOrRefusedNeverWaitedOn() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        // Run as nobody, from a copy every user may run, on a folder every user may write.
        let binary = temp.url.appendingPathComponent("trend")
        try FileManager.default.copyItem(at: trendExecutable(), to: binary)
        for path in [temp.url.path, binary.path] { chmod(path, 0o777) }
        let data = temp.url.appendingPathComponent("data").path
        func run(_ limit: String, _ command: String) throws -> (status: Int32, output: String) {
            try runTool("/usr/bin/timeout", ["-s", "KILL", "30", "setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                                             "prlimit", "--nproc=\(limit)", "--", binary.path, "--data-dir", data, "-c", command],
                        mergingErrors: true)
        }
        let refused = try run("3", "today")
        #expect(refused.status == 1, "\(refused.output)")
        #expect(refused.output == "trend: only 3 processes and threads are allowed (ulimit -u) and trend needs 5; raise the limit and run it again\n")
        let worked = try run("64", "weigh 80.4")
        #expect(worked.status == 0 && worked.output.contains("Recorded 80.4 kg"), "\(worked.output)")
    }
}
