import Foundation
import Testing
import TestSupport

/// Issue 16: `trend | tee log.txt` in a real terminal (tmux): the prompt
/// stays on the terminal, the answers go down the pipe, `quit` ends it.
@Suite struct TerminalPipeTests {
    /// This test's own tmux server (its own socket), so tests running side by
    /// side never share one: a session ended by one test cannot take the
    /// server, and the sessions on it, away from another.
    let socket = "trend-test-\(UUID().uuidString.prefix(8))"

    /// Runs `tmux` on this test's server with arguments, waiting for it to
    /// finish, at most `limit` seconds.
    ///
    /// It is started through Python, with every inherited descriptor closed
    /// and no signal blocked. The first command forks the tmux server, which
    /// would otherwise keep the socket Foundation's `Process` watches for the
    /// client's exit, so the wait for that client lasted as long as the server
    /// (a hung CI run); and it would inherit the test thread's blocked signals,
    /// so `kill-server` left it running.
    func runTmux(_ arguments: [String], limit: Int = 30) throws -> (status: Int32, output: String) {
        let launcher = """
            import signal, subprocess, sys
            signal.pthread_sigmask(signal.SIG_SETMASK, [])
            sys.exit(subprocess.run(sys.argv[1:], close_fds=True).returncode)
            """
        return try runTool("/usr/bin/python3", ["-c", launcher, "/usr/bin/timeout", "\(limit)", "/usr/bin/tmux", "-L", socket] + arguments)
    }

    @discardableResult
    func tmux(_ arguments: [String]) throws -> Int32 {
        try runTmux(arguments).status
    }

    /// Ends this test's server and every session on it.
    func endServer() {
        _ = try? tmux(["kill-server"])  // Already gone when its last session ended; nothing to report.
    }

    /// The terminal's screen now.
    func capture(_ session: String) throws -> String {
        try runTmux(["capture-pane", "-p", "-t", session]).output
    }

    /// Waits (up to 10 s, looking every 50 ms) until the screen holds `text`; returns the screen.
    func waitFor(_ session: String, _ text: String) throws -> String {
        for _ in 0..<200 {
            let screen = try capture(session)
            if screen.contains(text) { return screen }
            usleep(50_000)
        }
        return try capture(session)
    }

    /// Starts the REPL on `data` in a 100 × 30 tmux terminal and waits for its prompt; returns the session's name.
    func startREPL(data: URL) throws -> String {
        let session = "trend-repl"
        let command = "'\(trendExecutable().path)' --data-dir '\(data.path)'"
        #expect(try tmux(["new-session", "-d", "-s", session, "-x", "100", "-y", "30", command]) == 0)
        _ = try waitFor(session, "trend>")
        return session
    }

    /// Issue 15: Ctrl-C inside a Ctrl-R search ends the search and the line:
    /// no half-overwritten line is left behind, and the next command runs.
    @Test func ctrlCInsideAReverseSearchLeavesACleanPrompt() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let session = try startREPL(data: temp.url.appendingPathComponent("data"))
        defer { endServer() }
        try tmux(["send-keys", "-t", session, "weigh 80.4", "Enter"])
        _ = try waitFor(session, "Recorded 80.4")
        // The search is typed once the prompt is back, so Ctrl-C reaches the line editor as a key.
        try tmux(["send-keys", "-t", session, "C-r"])
        try tmux(["send-keys", "-t", session, "-l", "weig"])
        #expect(try waitFor(session, "bck:weig").contains("bck:weig"), "the search is on screen")
        try tmux(["send-keys", "-t", session, "C-c"])
        try tmux(["send-keys", "-t", session, "status", "Enter"])
        let screen = try waitFor(session, "80.4 kg · 1d")
        #expect(screen.contains("80.4 kg · 1d"), "the command after Ctrl-C ran:\n\(screen)")
        #expect(screen.contains("trend> ^C\n"), "the interrupted line ends in ^C:\n\(screen)")
        #expect(!screen.contains("^Ceigh") && !screen.contains("bck:"), "nothing of the search is left:\n\(screen)")
    }

    /// Ctrl-C while an import runs stops it: nothing is written, the progress
    /// bar does not come back over the prompt, and the next command runs.
    @Test func ctrlCStopsARunningImportAndWritesNothing() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        // Enough rows that the import is still reading when Ctrl-C lands (the bar first shows at 65,536).
        let csv = temp.url.appendingPathComponent("many.csv")
        var text = "date,weight\n"
        text.reserveCapacity(600_000 * 24)
        for index in 0..<600_000 {
            text += "\(1_500_000_000 + index * 600),\(70 + index % 30)\n"
        }
        try Data(text.utf8).write(to: csv)
        let data = temp.url.appendingPathComponent("data")
        let session = try startREPL(data: data)
        defer { endServer() }
        try tmux(["send-keys", "-t", session, "import '\(csv.path)'", "Enter"])
        #expect(try waitFor(session, "Importing [").contains("Importing ["), "the import is under way")
        try tmux(["send-keys", "-t", session, "C-c"])
        let stopped = try waitFor(session, "nothing was changed")
        #expect(stopped.contains("nothing was changed"), "\(stopped)")
        try tmux(["send-keys", "-t", session, "status", "Enter"])
        let screen = try waitFor(session, "no weigh-ins")
        #expect(screen.contains("trend> status\nno weigh-ins"), "the next command ran:\n\(screen)")
        #expect(!screen.contains("Importing ["), "no bar is left on the screen:\n\(screen)")
    }

    /// Issue 15: a second Tab lists the choices in their natural order, not libedit's sorted one.
    @Test func rangesAreListedInTheirNaturalOrder() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let session = try startREPL(data: temp.url.appendingPathComponent("data"))
        defer { endServer() }
        try tmux(["send-keys", "-t", session, "progress ", "Tab"])
        try tmux(["send-keys", "-t", session, "Tab"])
        let screen = try waitFor(session, "1y  all")
        #expect(screen.contains("1w  1m  3m  6m  1y  all"), "\(screen)")
    }

    @Test func theREPLWithItsOutputInAPipePromptsOnTheTerminalAndQuits() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let log = temp.url.appendingPathComponent("log.txt")
        let session = "trend-tee"
        let status = temp.url.appendingPathComponent("status")
        // `timeout` ends a REPL that would not quit (status 124), so a failure is a failed test, not a hung run.
        let script = temp.url.appendingPathComponent("run.sh")
        try """
        timeout --foreground 20 '\(trendExecutable().path)' --data-dir '\(temp.url.appendingPathComponent("data").path)' | tee '\(log.path)'
        echo "${PIPESTATUS[0]}" > '\(status.path).part' && mv '\(status.path).part' '\(status.path)'
        """.write(to: script, atomically: true, encoding: .utf8)
        let command = "bash '\(script.path)'"
        #expect(try tmux(["new-session", "-d", "-s", session, "-x", "100", "-y", "30", command]) == 0)
        defer { endServer() }
        // Keys wait in the terminal until trend reads them.
        try tmux(["send-keys", "-t", session, "weigh 80.4", "Enter", "status", "Enter", "quit", "Enter"])
        // The status file appears when the pipeline has ended; the session, and with it the server, ends then too.
        for _ in 0..<600 where !FileManager.default.fileExists(atPath: status.path) { usleep(50_000) }
        #expect(try String(contentsOf: status, encoding: .utf8) == "0\n", "trend ended on quit, with status 0")
        let text = try String(contentsOf: log, encoding: .utf8)
        #expect(text.contains("Recorded 80.4 kg"))
        #expect(text.contains("80.4 kg · 1d"))
        #expect(!text.contains("trend>"), "the prompt is the terminal's, not the log's")
    }
}
