import Foundation

/// A real terminal for a test: a tmux server of the test's own (its own
/// socket), so tests running side by side never share one, and a session
/// ended by one test cannot take the server, and the sessions on it, away
/// from another. End it with `endServer()`.
public struct TmuxTerminal: Sendable {
    public let socket = "trend-test-\(UUID().uuidString.prefix(8))"

    public init() {}

    /// Runs `tmux` on this server with arguments, waiting for it to finish,
    /// at most `limit` seconds.
    ///
    /// It is started through Python, with every inherited descriptor closed
    /// and no signal blocked. The first command forks the tmux server, which
    /// would otherwise keep the socket Foundation's `Process` watches for the
    /// client's exit, so the wait for that client lasted as long as the server
    /// (a hung CI run); and it would inherit the test thread's blocked signals,
    /// so `kill-server` left it running.
    public func runTmux(_ arguments: [String], limit: Int = 30) throws -> (status: Int32, output: String) {
        let launcher = """
            import signal, subprocess, sys
            signal.pthread_sigmask(signal.SIG_SETMASK, [])
            sys.exit(subprocess.run(sys.argv[1:], close_fds=True).returncode)
            """
        return try runTool("/usr/bin/python3", ["-c", launcher, "/usr/bin/timeout", "\(limit)", "/usr/bin/tmux", "-L", socket] + arguments)
    }

    @discardableResult
    public func tmux(_ arguments: [String]) throws -> Int32 {
        try runTmux(arguments).status
    }

    /// Ends this server and every session on it.
    public func endServer() {
        _ = try? tmux(["kill-server"])  // Already gone when its last session ended; nothing to report.
    }

    /// The terminal's screen now.
    public func capture(_ session: String) throws -> String {
        try runTmux(["capture-pane", "-p", "-t", session]).output
    }

    /// Waits (up to 10 s, looking every 50 ms) until the screen holds `text`; returns the screen.
    public func waitFor(_ session: String, _ text: String) throws -> String {
        for _ in 0..<200 {
            let screen = try capture(session)
            if screen.contains(text) { return screen }
            usleep(50_000)
        }
        return try capture(session)
    }

    /// Starts the REPL on `data` in a `width` × 30 terminal and waits for its
    /// prompt; returns the session's name. With `clock` (`YYYY-MM-DD HH:MM:SS`,
    /// UTC) it runs under faketime from that moment; `locale` is its `LANG`.
    public func startREPL(data: URL, width: Int = 100, clock: String? = nil, locale: String = "C.UTF-8",
                          environment: [String: String] = [:]) throws -> String {
        _ = staleFakeTimeFilesRemoved
        let session = "trend-repl"
        let variables = environment.sorted { $0.key < $1.key }.map { "\($0.key)='\($0.value)' " }.joined()
        var command = "\(variables)LANG='\(locale)' TZ=UTC '\(trendExecutable().path)' --data-dir '\(data.path)'"
        if let clock {
            command = "\(variables)FAKETIME_DONT_FAKE_MONOTONIC=1 LANG='\(locale)' TZ=UTC /usr/bin/faketime -f '@\(clock)' '\(trendExecutable().path)' --data-dir '\(data.path)'"
        }
        guard try tmux(["new-session", "-d", "-s", session, "-x", "\(width)", "-y", "30", command]) == 0 else {
            throw CocoaError(.executableLoad)
        }
        _ = try waitFor(session, "trend>")
        return session
    }

    /// Types `text` as it is (every character, none read as a key name), then `keys` (`Enter`, `Tab`).
    public func type(_ session: String, _ text: String, then keys: String...) throws {
        if !text.isEmpty { try tmux(["send-keys", "-t", session, "-l", text]) }
        for key in keys { try tmux(["send-keys", "-t", session, key]) }
    }
}
