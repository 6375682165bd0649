import Foundation
import Testing
import TestSupport

/// Issue 32, item 12: with few files allowed (`ulimit -n`), Trend raises its soft limit toward the hard
/// one, and refuses in a sentence when even that is too few; before, the Swift runtime stopped the process
/// (SIGILL in libdispatch's epoll set-up) below about five, and the database said "check the permissions".
@Suite struct OpenFileLimitTests {
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
}
