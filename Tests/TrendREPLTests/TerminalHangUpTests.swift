import Foundation
import Testing
import TestSupport

/// Issue 65: the prompt ends when its terminal goes away, as on Ctrl-D, even under a parent that ignores SIGHUP
/// (make, `nohup`, `trap "" HUP`): what was entered is kept, the history is written, and no process is left
/// reading a closed terminal. Run on a real pty (tmux), never a pipe.
@Suite struct TerminalHangUpTests {
    /// The processes whose command line names `marker`, by pid.
    func processes(naming marker: String) -> [Int32] {
        let own = ProcessInfo.processInfo.processIdentifier
        return ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { name in
            guard let pid = Int32(name), pid != own,
                  let line = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(name)/cmdline")) else { return nil }
            return String(decoding: line, as: UTF8.self).contains(marker) ? pid : nil
        }
    }

    /// Waits (up to 10 s, looking every 50 ms) until no process names `marker`; whether none does.
    func ended(_ marker: String) -> Bool {
        for _ in 0..<200 {
            if processes(naming: marker).isEmpty { return true }
            usleep(50_000)
        }
        return processes(naming: marker).isEmpty
    }

    @Test func closingTheTerminalUnderAParentThatIgnoresHangUpEndsThePromptAndKeepsWhatWasEntered() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let data = temp.url.appendingPathComponent("data-\(UUID().uuidString.prefix(8))")
        let terminal = TmuxTerminal()
        defer { terminal.endServer() }
        let command = "trap '' HUP; LANG=C.UTF-8 TZ=UTC '\(trendExecutable().path)' --data-dir '\(data.path)'"
        #expect(try terminal.tmux(["new-session", "-d", "-s", "hup", "-x", "100", "-y", "30", "bash", "-c", command]) == 0)
        _ = try terminal.waitFor("hup", "trend>")
        try terminal.type("hup", "weigh 82.4", then: "Enter")
        _ = try terminal.waitFor("hup", "82.4 kg")
        try terminal.type("hup", "weigh 99")  // Typed, not entered: dropped, as Ctrl-D drops it.
        #expect(processes(naming: data.path).count >= 1)
        terminal.endServer()  // The window closes: the pty's other end goes.
        #expect(ended(data.path), "the prompt is still running")
        let entries = try runTrend(["--data-dir", data.path, "--json", "-c", "entries"])
        let kept = try #require(try entries.documents().first?["entries"] as? [[String: Any]])
        #expect(kept.map { $0["kilograms"] as? Double } == [82.4])
        let history = try String(contentsOf: data.appendingPathComponent("history"), encoding: .utf8)
            .replacingOccurrences(of: "\\040", with: " ")  // libedit's history file writes a space so.
        #expect(history.contains("weigh 82.4"))
        #expect(!history.contains("weigh 99"))
    }

    @Test func sigtermEndsThePromptAsCtrlDDoes() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let data = temp.url.appendingPathComponent("data-\(UUID().uuidString.prefix(8))")
        let status = temp.url.appendingPathComponent("status")
        let terminal = TmuxTerminal()
        defer { terminal.endServer() }
        // libedit hands a signal on to the process group once it has set the terminal back: the wrapper that records
        // the prompt's exit status ignores it, as an interactive shell's job control keeps it out of the group.
        let command = "trap '' TERM; LANG=C.UTF-8 TZ=UTC '\(trendExecutable().path)' --data-dir '\(data.path)'; echo $? > '\(status.path)'; sleep 30"
        #expect(try terminal.tmux(["new-session", "-d", "-s", "term", "-x", "100", "-y", "30", "bash", "-c", command]) == 0)
        _ = try terminal.waitFor("term", "trend>")
        try terminal.type("term", "weigh 81.9", then: "Enter")
        _ = try terminal.waitFor("term", "81.9 kg")
        let prompt = try #require(processes(naming: "\(trendExecutable().path)\u{0}--data-dir\u{0}\(data.path)").first)
        kill(prompt, SIGTERM)
        #expect(ended("\(trendExecutable().path)\u{0}--data-dir\u{0}\(data.path)"), "the prompt is still running")
        // Ended as Ctrl-D ends it (status 0), not killed by the signal (143).
        var said = ""
        for _ in 0..<100 where said.isEmpty {
            said = ((try? String(contentsOf: status, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            if said.isEmpty { usleep(50_000) }
        }
        #expect(said == "0")
        let history = try String(contentsOf: data.appendingPathComponent("history"), encoding: .utf8)
            .replacingOccurrences(of: "\\040", with: " ")
        #expect(history.contains("weigh 81.9"))
    }
}
