import Foundation
import Testing
import TestSupport

/// Issue 28, item 1: every character a person types at the prompt is kept,
/// completes with Tab and lines up, in a real terminal (tmux) with libedit.
/// Before, `habit add Café ☕` stored 'Caf', and Tab on an emoji erased the line.
@Suite struct TypedTextTerminalTests {
    let terminal = TmuxTerminal()

    /// The habits as stored, read back through `-c` (no terminal in between).
    func storedNames(_ data: URL) throws -> [String] {
        let run = try runTrend(["--data-dir", data.path, "--json", "-c", "habits"])
        let document = try #require(try run.documents().first)
        return (document["habits"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
    }

    @Test(arguments: ["C.UTF-8", "C"])
    func accentsEmojiAndCJKTypedAtThePromptAreStoredAndComplete(locale: String) throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let data = temp.url.appendingPathComponent("data")
        // A habit added through -c before the prompt opens: Tab must know it from the first key.
        #expect(try runTrend(["--data-dir", data.path, "-c", "habit add 読書 daily"]).status == 0)
        let session = try terminal.startREPL(data: data, locale: locale)
        defer { terminal.endServer() }
        try terminal.type(session, "habit add Café ☕ daily", then: "Enter")
        _ = try terminal.waitFor(session, "Added 'Café ☕'")
        try terminal.type(session, "habit add Müsli daily", then: "Enter")
        _ = try terminal.waitFor(session, "Added 'Müsli'")
        try terminal.type(session, "habit add 📚 Read daily", then: "Enter")
        _ = try terminal.waitFor(session, "Added '📚 Read'")

        // Tab completes a name from its first character, whatever it is, and in an open quote.
        try terminal.type(session, "habit done 読", then: "Tab", "Enter")
        _ = try terminal.waitFor(session, "'読書' done today")
        try terminal.type(session, "habit done 📚", then: "Tab", "Enter")
        _ = try terminal.waitFor(session, "'📚 Read' done today")
        try terminal.type(session, "habit done \"Caf", then: "Tab", "Enter")
        _ = try terminal.waitFor(session, "'Café ☕' done today")
        try terminal.type(session, "habit done mü", then: "Tab", "Enter")
        let marked = try terminal.waitFor(session, "'Müsli' done today")
        #expect(!marked.contains("error"), "\(marked)")

        try terminal.type(session, "habits", then: "Enter")
        let screen = try terminal.waitFor(session, "not due today")
        // Each name takes its terminal width (☕, 📚 and each of 読書 two columns), so the plans line up.
        let rows = screen.split(separator: "\n").map(String.init).filter { $0.contains("every day") && $0.contains("streak") }
        #expect(rows.count == 4, "\(screen)")
        let planColumns = Set(rows.map { row in TerminalColumns.of(String(row[..<row.range(of: "every day")!.lowerBound])) })
        #expect(planColumns.count == 1, "the plans start in one column:\n\(screen)")
        try terminal.type(session, "quit", then: "Enter")

        #expect(try storedNames(data).sorted() == ["Café ☕", "Müsli", "読書", "📚 Read"].sorted())
    }

    /// Issue 28, item 2, at the prompt: at 02:30 with days starting at 04:00, a mark is the day before's.
    @Test func theDayStartHoldsAtThePromptFromTheFirstCommand() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let data = temp.url.appendingPathComponent("data")
        let setup = try runTrend(["--data-dir", data.path, "-c", "habit add Read daily", "-c", "set day-starts-at 04:00"],
                                 clock: "2026-03-23 12:00:00")
        #expect(setup.status == 0, "\(setup.standardError)")
        let session = try terminal.startREPL(data: data, clock: "2026-03-24 02:30:00")
        defer { terminal.endServer() }
        try terminal.type(session, "habit done Read", then: "Enter")
        _ = try terminal.waitFor(session, "done today")
        try terminal.type(session, "habits", then: "Enter")
        let screen = try terminal.waitFor(session, "Habits, ")
        #expect(screen.contains("Habits, Mon 23 Mar 2026"), "\(screen)")
    }
}

/// The columns a terminal gives a line, counted independently of Trend's own
/// code: Python's `unicodedata` (East Asian Width W/F two, combining marks none).
enum TerminalColumns {
    static func of(_ text: String) -> Int {
        let script = """
            import sys, unicodedata
            text = sys.argv[1]
            print(sum(0 if unicodedata.combining(c) or c in '\\u200d\\ufe0f' else 2 if unicodedata.east_asian_width(c) in 'WF' else 1 for c in text))
            """
        let run = try? runTool("/usr/bin/python3", ["-c", script, text])
        return Int(run?.output.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? -1
    }
}
