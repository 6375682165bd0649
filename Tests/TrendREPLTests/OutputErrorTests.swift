import Foundation
import Testing
import TestSupport

/// Issue 16: a closed, full or broken standard output or error is handled,
/// never fatal: the commands still run, the data is written, the exit backup
/// check runs, and the status says whether the output could be written.
@Suite struct OutputErrorTests {
    @Test(arguments: [
        (">&-", Int32(1), "standard output is closed"),
        (">/dev/full", Int32(1), "the disk is full"),
        ("2>&- >/dev/null", Int32(0), ""),
        ("| head -1", Int32(0), ""),
    ])
    func brokenOutputIsAnAnswerNotACrash(redirections: String, status: Int32, message: String) throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let directory = ["--data-dir", temp.url.path]
        // Enough output that `head -1` closes the pipe while trend still writes.
        let history = (1...400).map { "weigh \(70 + Double($0 % 50) / 10) 2025-\(String(format: "%02d", $0 % 12 + 1))-\(String(format: "%02d", $0 % 28 + 1)) 07:\(String(format: "%02d", $0 % 60))" }
        _ = try runTrend(directory, input: history.joined(separator: "\n"))
        let run = try runTrendInShell(directory + ["-c", "entries all", "-c", "weigh 81.5", "-c", "entries all"], redirections: redirections)
        #expect(run.status == status, "\(redirections): \(run.errors)")
        #expect(!run.errors.contains("Fatal error"), "\(run.errors)")
        if !message.isEmpty { #expect(run.errors.contains(message), "\(run.errors)") }
        // The weigh-in after the broken output was still made, and the exit backup holds it.
        let entries = try runTrend(directory + ["--json", "-c", "entries 1w"]).documents().first?["entries"] as? [[String: Any]]
        #expect(entries?.contains { $0["kilograms"] as? Double == 81.5 } == true)
        let latest = try String(contentsOf: temp.url.appendingPathComponent("Backups/Latest.json"), encoding: .utf8)
        #expect(latest.contains("81.5"))
    }
}

/// Issue 15: colours follow the convention of ls and grep, and NO_COLOR wins.
@Suite struct ColorOptionTests {
    @Test func colourIsAskedForOrLeftOutAndNoColorWins() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let directory = ["--data-dir", temp.url.path]
        _ = try runTrend(directory + ["-c", "weigh 80"])
        func escapes(_ arguments: [String], _ environment: [String: String] = [:]) throws -> Bool {
            try runTrend(directory + arguments, environment: environment).standardOutput.contains("\u{1B}[")
        }
        #expect(try !escapes(["-c", "today"]), "a pipe gets no colour by default")
        #expect(try escapes(["--color", "always", "-c", "today"]))
        #expect(try !escapes(["--color", "always", "-c", "today"], ["NO_COLOR": "1"]), "NO_COLOR wins")
        #expect(try !escapes(["--color", "never", "-c", "today"]))
    }
}
