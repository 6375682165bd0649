import Foundation
import Testing
import TestSupport

/// Issue 32, item 2: nothing Trend reads can block it. A FIFO under a file's
/// name held `import` forever (and a folder holding a FIFO `Checkmarks.csv`
/// failed with a raw NSError dump); now it is refused at once, naming the file.
@Suite struct UntrustedFileEndToEndTests {
    /// Runs trend bounded by `timeout`, so a hang fails the test (status 124) instead of holding the run.
    func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try runTool("/usr/bin/timeout", ["20", trendExecutable().path] + arguments, mergingErrors: true)
    }

    @Test(arguments: ["x.csv", "export.xml", "loop/Checkmarks.csv"])
    func aFIFOIsRefusedAtOnceNamingTheFile(name: String) throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let fifo = temp.url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: fifo.deletingLastPathComponent(), withIntermediateDirectories: true)
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let target = name.hasPrefix("loop/") ? fifo.deletingLastPathComponent() : fifo
        if name.hasPrefix("loop/") {
            try "Position,Name,Question\n001,Read,\n".write(to: target.appendingPathComponent("Habits.csv"), atomically: true, encoding: .utf8)
        }
        let data = temp.url.appendingPathComponent("data").path
        for command in ["import '\(target.path)'", "import '\(target.path)' preview"] {
            let result = try run(["--data-dir", data, "-c", command])
            #expect(result.status == 1, "\(command): \(result.output)")
            #expect(result.output.contains("FIFO"), "\(result.output)")
            #expect(result.output.contains(fifo.lastPathComponent), "\(result.output)")
            #expect(!result.output.contains("NSError") && !result.output.contains("Domain="), "\(result.output)")
        }
        let after = try run(["--data-dir", data, "--json", "-c", "entries all", "-c", "habits"])
        #expect(after.output.contains(#""entries":[]"#) && after.output.contains(#""habits":[]"#), "nothing changed: \(after.output)")
    }
}
