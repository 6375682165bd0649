import Foundation
import Testing
import TestSupport

/// Issue 16: `trend | tee log.txt` in a real terminal (tmux): the prompt
/// stays on the terminal, the answers go down the pipe, `quit` ends it.
@Suite struct TerminalPipeTests {
    let terminal = TmuxTerminal()

    /// Issue 15: Ctrl-C inside a Ctrl-R search ends the search and the line:
    /// no half-overwritten line is left behind, and the next command runs.
    @Test func ctrlCInsideAReverseSearchLeavesACleanPrompt() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let session = try terminal.startREPL(data: temp.url.appendingPathComponent("data"))
        defer { terminal.endServer() }
        try terminal.tmux(["send-keys", "-t", session, "weigh 80.4", "Enter"])
        _ = try terminal.waitFor(session, "Recorded 80.4")
        // The search is typed once the prompt is back, so Ctrl-C reaches the line editor as a key.
        try terminal.tmux(["send-keys", "-t", session, "C-r"])
        try terminal.tmux(["send-keys", "-t", session, "-l", "weig"])
        #expect(try terminal.waitFor(session, "search 'weig': weigh 80.4").contains("search 'weig': weigh 80.4"), "the search is on screen")
        try terminal.tmux(["send-keys", "-t", session, "C-c"])
        try terminal.tmux(["send-keys", "-t", session, "status", "Enter"])
        let screen = try terminal.waitFor(session, "80.4 kg · 1d")
        #expect(screen.contains("80.4 kg · 1d"), "the command after Ctrl-C ran:\n\(screen)")
        #expect(screen.contains("trend> ^C\n"), "the interrupted line ends in ^C:\n\(screen)")
        #expect(!screen.contains("^Ceigh") && !screen.contains("search '"), "nothing of the search is left:\n\(screen)")
    }

    /// Issue 28, item 9: Ctrl-R shows the line it found and runs it on one Enter; Ctrl-R again goes further
    /// back, Ctrl-G puts back what was typed, and another key leaves the line found to edit.
    @Test func ctrlRShowsTheLineItFoundAndRunsItOnOneEnter() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let session = try terminal.startREPL(data: temp.url.appendingPathComponent("data"))
        defer { terminal.endServer() }
        for line in ["goal 75", "habit add Café ☕ daily", "goal 74", "settings"] {
            try terminal.tmux(["send-keys", "-t", session, "-l", line])
            try terminal.tmux(["send-keys", "-t", session, "Enter"])
            _ = try terminal.waitFor(session, line == "settings" ? "data directory" : (line.hasPrefix("goal") ? "Goal: \(line.dropFirst(5))" : "Added"))
        }
        try terminal.tmux(["send-keys", "-t", session, "C-l"])
        try terminal.tmux(["send-keys", "-t", session, "C-r"])
        try terminal.tmux(["send-keys", "-t", session, "-l", "goa"])
        #expect(try terminal.waitFor(session, "search 'goa': goal 74").contains("trend> search 'goa': goal 74"), "the newest line holding it")
        try terminal.tmux(["send-keys", "-t", session, "C-r"])
        _ = try terminal.waitFor(session, "search 'goa': goal 75")
        try terminal.tmux(["send-keys", "-t", session, "Enter"])
        let ran = try terminal.waitFor(session, "Goal: 75.0 kg.")
        #expect(ran.contains("trend> goal 75\nGoal: 75.0 kg.\ntrend>"), "one Enter ran it:\n\(ran)")
        // Accents and emoji are searched as typed; an arrow-less control key leaves the line to edit.
        try terminal.tmux(["send-keys", "-t", session, "C-r"])
        try terminal.tmux(["send-keys", "-t", session, "-l", "☕"])
        _ = try terminal.waitFor(session, "search '☕': habit add Café ☕ daily")
        try terminal.tmux(["send-keys", "-t", session, "C-e"])
        try terminal.tmux(["send-keys", "-t", session, "-l", " x"])
        #expect(try terminal.waitFor(session, "trend> habit add Café ☕ daily x").contains("trend> habit add Café ☕ daily x"))
        try terminal.tmux(["send-keys", "-t", session, "C-u"])
        // Ctrl-G puts back what was typed before the search.
        try terminal.tmux(["send-keys", "-t", session, "-l", "tip"])
        try terminal.tmux(["send-keys", "-t", session, "C-r"])
        try terminal.tmux(["send-keys", "-t", session, "-l", "zzz"])
        _ = try terminal.waitFor(session, "search 'zzz': (nothing found)")
        try terminal.tmux(["send-keys", "-t", session, "C-g"])
        try terminal.tmux(["send-keys", "-t", session, "Enter"])
        let tip = try terminal.waitFor(session, "Tip (")
        #expect(tip.contains("trend> tip\n"), "the line typed before the search ran:\n\(tip)")
    }

    /// Ctrl-C while an import runs stops it: nothing is written, the progress
    /// bar does not come back over the prompt, and the next command runs.
    @Test func ctrlCStopsARunningImportAndWritesNothing() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        // Enough rows that the import is still reading when Ctrl-C lands (the bar first shows at 65,536).
        let csv = temp.url.appendingPathComponent("many.csv")
        var text = "date,weight\n"
        text.reserveCapacity(2_000_000 * 24)
        for index in 0..<2_000_000 {
            text += "\(1_500_000_000 + index * 60),\(70 + index % 30)\n"
        }
        try Data(text.utf8).write(to: csv)
        let data = temp.url.appendingPathComponent("data")
        let session = try terminal.startREPL(data: data)
        defer { terminal.endServer() }
        try terminal.tmux(["send-keys", "-t", session, "import '\(csv.path)'", "Enter"])
        #expect(try terminal.waitFor(session, "Importing [").contains("Importing ["), "the import is under way")
        try terminal.tmux(["send-keys", "-t", session, "C-c"])
        let stopped = try terminal.waitFor(session, "nothing was changed")
        #expect(stopped.contains("nothing was changed"), "\(stopped)")
        try terminal.tmux(["send-keys", "-t", session, "status", "Enter"])
        let screen = try terminal.waitFor(session, "no weigh-ins")
        #expect(screen.contains("trend> status\nno weigh-ins"), "the next command ran:\n\(screen)")
        #expect(!screen.contains("Importing ["), "no bar is left on the screen:\n\(screen)")
    }

    /// Issue 28, item 9: the first launch, with no data yet, says in two lines how to begin; later ones do not.
    @Test func aFirstLaunchSaysHowToBegin() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let data = temp.url.appendingPathComponent("data")
        let session = try terminal.startREPL(data: data, width: 80)
        let screen = try terminal.waitFor(session, "Welcome")
        #expect(screen.contains("Welcome to Trend. Start with a weigh-in: weigh 82.4"), "\(screen)")
        #expect(screen.contains("'today' shows the check-in"), "\(screen)")
        try terminal.type(session, "weigh 80.4", then: "Enter")
        _ = try terminal.waitFor(session, "Recorded 80.4")
        try terminal.type(session, "quit", then: "Enter")
        // The session (and with it the server) ends once trend has quit.
        for _ in 0..<200 where !((try? terminal.capture(session)) ?? "").isEmpty { usleep(50_000) }
        let again = try terminal.startREPL(data: data, width: 80)
        #expect(!(try terminal.capture(again)).contains("Welcome"), "only the first launch")
        terminal.endServer()
    }

    /// Issue 15: a second Tab lists the choices in their natural order, not libedit's sorted one.
    @Test func rangesAreListedInTheirNaturalOrder() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let session = try terminal.startREPL(data: temp.url.appendingPathComponent("data"))
        defer { terminal.endServer() }
        try terminal.tmux(["send-keys", "-t", session, "progress ", "Tab"])
        try terminal.tmux(["send-keys", "-t", session, "Tab"])
        let screen = try terminal.waitFor(session, "1y  all")
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
        #expect(try terminal.tmux(["new-session", "-d", "-s", session, "-x", "100", "-y", "30", command]) == 0)
        defer { terminal.endServer() }
        // Keys wait in the terminal until trend reads them.
        try terminal.tmux(["send-keys", "-t", session, "weigh 80.4", "Enter", "status", "Enter", "quit", "Enter"])
        // The status file appears when the pipeline has ended; the session, and with it the server, ends then too.
        for _ in 0..<600 where !FileManager.default.fileExists(atPath: status.path) { usleep(50_000) }
        #expect(try String(contentsOf: status, encoding: .utf8) == "0\n", "trend ended on quit, with status 0")
        let text = try String(contentsOf: log, encoding: .utf8)
        #expect(text.contains("Recorded 80.4 kg"))
        #expect(text.contains("80.4 kg · 1d"))
        #expect(!text.contains("trend>"), "the prompt is the terminal's, not the log's")
    }
}

/// Issue 28, item 11: `trend -c "weigh 29.8"` typed at a terminal asks about a
/// weight far from the trend as the prompt does, one question, and "n" records nothing.
@Suite struct CommandAtATerminalTests {
    let terminal = TmuxTerminal()

    @Test func aFarOffWeightIsAskedAboutAndNoRecordsNothing() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let data = temp.url.appendingPathComponent("data")
        for day in 10...14 {
            #expect(try runTrend(["--data-dir", data.path, "-c", "weigh 89.\(day - 10) 2026-06-\(day) 07:00"], clock: "2026-06-15 08:00:00").status == 0)
        }
        let command = "TZ=UTC '\(trendExecutable().path)' --data-dir '\(data.path)' -c 'weigh 29.8'; echo EXIT=$?; sleep 30"
        #expect(try terminal.tmux(["new-session", "-d", "-s", "c", "-x", "100", "-y", "20", command]) == 0)
        defer { terminal.endServer() }
        let asked = try terminal.waitFor("c", "[y/N]")
        #expect(asked.contains("29.8 kg is far from your trend") && asked.contains("Record 29.8 kg anyway? [y/N]"), "\(asked)")
        try terminal.type("c", "n", then: "Enter")
        let after = try terminal.waitFor("c", "EXIT=")
        #expect(after.contains("Nothing was recorded."), "\(after)")
        let entries = try runTrend(["--data-dir", data.path, "--json", "-c", "entries all"], clock: "2026-06-15 08:00:00").documents()
        #expect((entries.first?["entries"] as? [Any])?.count == 5)
    }

    /// At 40 columns the question wraps at its spaces: its words and numbers stay whole (issue 28, item 10).
    @Test func aQuestionAtFortyColumnsBreaksNoWord() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let data = temp.url.appendingPathComponent("data")
        for day in 10...14 {
            #expect(try runTrend(["--data-dir", data.path, "-c", "weigh 89.\(day - 10) 2026-06-\(day) 07:00"], clock: "2026-06-15 08:00:00").status == 0)
        }
        let session = try terminal.startREPL(data: data, width: 40)
        defer { terminal.endServer() }
        try terminal.type(session, "weigh 29.8", then: "Enter")
        let screen = try terminal.waitFor(session, "[y/N]")
        let lines = screen.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let question = lines.drop { !$0.hasPrefix("29.8 kg is far") }.prefix(3)
        // Joined at the breaks with a space, the lines are the sentence: every break was at a space.
        let sentence = question.joined(separator: " ")
        #expect(sentence.range(of: #"^29\.8 kg is far from your trend of 89\.\d kg\. Record 29\.8 kg anyway\? \[y/N\]"#, options: .regularExpression) != nil,
                "\(screen)")
        #expect(question.allSatisfy { $0.count <= 40 }, "\(screen)")
        try terminal.type(session, "n", then: "Enter")
        #expect(try terminal.waitFor(session, "Nothing was recorded.").contains("Nothing was recorded."))
    }
}
