import Foundation
import Testing
import TestSupport

/// The prompt as a new user met it (issue 48), in a real terminal (tmux): Tab keeps what was typed when
/// candidates need quotes or differ, and no key of a search ends the program.
@Suite struct TerminalPromptTests {
    let terminal = TmuxTerminal()

    @Test func tabKeepsWhatWasTypedWhenTheHabitsNeedQuotesOrDiffer() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let data = temp.url.appendingPathComponent("data")
        _ = try runTrend(["--data-dir", data.path, "-c", "habit add Walk 10k steps 5 times a week", "-c", "habit add Water 8 glasses",
                          "-c", "habit add Gym mon,wed,fri"])
        let session = try terminal.startREPL(data: data)
        defer { terminal.endServer() }
        // `W` is the start of two names, one needing quotes: Tab completes what they share, and the W stays.
        try terminal.tmux(["send-keys", "-t", session, "-l", "habit done W"])
        try terminal.tmux(["send-keys", "-t", session, "Tab"])
        let shared = try terminal.waitFor(session, "habit done Wa")
        #expect(shared.contains("trend> habit done Wa"), "\(shared)")
        // A Tab that can add nothing lists the two names, and Gym is not among them.
        try terminal.tmux(["send-keys", "-t", session, "Tab"])
        let listed = try terminal.waitFor(session, "Water")
        #expect(listed.contains("\"Walk 10k steps\"  Water") && !listed.contains("Gym"), "\(listed)")
        // One more letter and Tab: the quoted name, whole.
        try terminal.tmux(["send-keys", "-t", session, "-l", "l"])
        try terminal.tmux(["send-keys", "-t", session, "Tab"])
        let whole = try terminal.waitFor(session, "habit done \"Walk 10k steps\"")
        #expect(whole.contains("trend> habit done \"Walk 10k steps\""), "\(whole)")
    }

    @Test func ctrlGAfterASearchThatRanALineLeavesThePromptRunning() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let session = try terminal.startREPL(data: temp.url.appendingPathComponent("data"))
        defer { terminal.endServer() }
        try terminal.tmux(["send-keys", "-t", session, "status", "Enter"])
        _ = try terminal.waitFor(session, "no weigh-ins")
        // Ctrl-R stat Enter runs it; Ctrl-R stat Ctrl-G on an empty line ended the program three times out of three.
        for _ in 0..<3 {
            try terminal.tmux(["send-keys", "-t", session, "C-r"])
            try terminal.tmux(["send-keys", "-t", session, "-l", "stat"])
            _ = try terminal.waitFor(session, "search 'stat': status")
            try terminal.tmux(["send-keys", "-t", session, "Enter"])
            try terminal.tmux(["send-keys", "-t", session, "C-r"])
            try terminal.tmux(["send-keys", "-t", session, "-l", "stat"])
            _ = try terminal.waitFor(session, "search 'stat': status")
            try terminal.tmux(["send-keys", "-t", session, "C-g"])
        }
        try terminal.tmux(["send-keys", "-t", session, "-l", "tip"])
        try terminal.tmux(["send-keys", "-t", session, "Enter"])
        let tip = try terminal.waitFor(session, "Tip (")
        #expect(tip.contains("trend> tip\n"), "the program still reads lines:\n\(tip)")
        // Left during a search keeps the line found, to edit, as any other key does (the key is spent: the cursor stays at its end).
        try terminal.tmux(["send-keys", "-t", session, "C-r"])
        try terminal.tmux(["send-keys", "-t", session, "-l", "stat"])
        _ = try terminal.waitFor(session, "search 'stat': status")
        try terminal.tmux(["send-keys", "-t", session, "Left"])
        try terminal.tmux(["send-keys", "-t", session, "-l", "x"])
        let edited = try terminal.waitFor(session, "trend> statusx")
        #expect(edited.contains("trend> statusx"), "\(edited)")
    }
}
