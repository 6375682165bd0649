import Foundation
import Testing
import TestSupport

/// Issue 16: `trend | tee log.txt` in a real terminal (tmux): the prompt
/// stays on the terminal, the answers go down the pipe, `quit` ends it.
@Suite struct TerminalPipeTests {
    /// Runs `tmux` with arguments, waiting for it to finish.
    @discardableResult
    func tmux(_ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/tmux")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    @Test func theREPLWithItsOutputInAPipePromptsOnTheTerminalAndQuits() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let log = temp.url.appendingPathComponent("log.txt")
        let session = "trend-tee-\(UUID().uuidString.prefix(8))"
        let channel = session + "-done"
        let status = temp.url.appendingPathComponent("status")
        // `timeout` ends a REPL that would not quit (status 124), so a failure is a failed test, not a hung run.
        let script = temp.url.appendingPathComponent("run.sh")
        try """
        timeout --foreground 20 '\(trendExecutable().path)' --data-dir '\(temp.url.appendingPathComponent("data").path)' | tee '\(log.path)'
        echo "${PIPESTATUS[0]}" > '\(status.path)'
        tmux wait-for -S \(channel)
        """.write(to: script, atomically: true, encoding: .utf8)
        let command = "bash '\(script.path)'"
        #expect(try tmux(["new-session", "-d", "-s", session, "-x", "100", "-y", "30", command]) == 0)
        defer { _ = try? tmux(["kill-session", "-t", session]) }  // Already gone when the test passes.
        // Keys wait in the terminal until trend reads them.
        try tmux(["send-keys", "-t", session, "weigh 80.4", "Enter", "status", "Enter", "quit", "Enter"])
        // Returns when the pipeline has ended.
        #expect(try tmux(["wait-for", channel]) == 0)
        #expect(try String(contentsOf: status, encoding: .utf8) == "0\n", "trend ended on quit, with status 0")
        let text = try String(contentsOf: log, encoding: .utf8)
        #expect(text.contains("Recorded 80.4 kg"))
        #expect(text.contains("80.4 kg · 1d"))
        #expect(!text.contains("trend>"), "the prompt is the terminal's, not the log's")
    }
}
