import CommandLanguage
import Foundation
import Testing
import TestSupport
@testable import TrendREPL

/// One screen test, read from a file in `Screens/Expected/<ViewModel>/`:
///
/// ```
/// # what the screen shows (optional)
/// @ 2026-06-17 08:00          the clock, UTC (optional; default 2026-06-15 08:00)
/// $ weigh 79.9                commands, typed in turn into one session
/// @ 2026-06-18 07:30          a later @ moves the clock for the commands after it
/// % 60                        the terminal's width (optional; default 80)
/// $ today
/// ---
/// Today, Wed 17 Jun 2026      exactly what the last command prints
/// ```
///
/// `<fixtures>` in a command stands for `Tests/Fixtures`. In the output,
/// entry ids read `########` and the data directory `<data>`. With
/// `TREND_RECORD_SCREENS=1`, each transcript is rewritten with what the
/// screen shows now (and the test fails): review the change with `git diff`.
struct ScreenTranscript: Sendable, CustomTestStringConvertible {
    let name: String
    let file: URL
    var clock = "2026-06-15 08:00"
    var width = 80
    /// The commands, each with the clock it is typed at.
    var commands: [(clock: String, line: String)] = []
    var expected: [String] = []
    var problem: String?

    var testDescription: String { name }

    /// Every transcript in a folder of `Expected`, by name; a missing or empty folder is one failing case.
    static func all(in folder: String) -> [ScreenTranscript] {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Expected").appendingPathComponent(folder)
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])  // Checked below.
            .filter { $0.hasSuffix(".txt") }.sorted()
        guard !names.isEmpty else {
            return [ScreenTranscript(name: folder, file: directory, problem: "no screens in \(directory.path)")]
        }
        return names.map { ScreenTranscript(file: directory.appendingPathComponent($0)) }
    }

    init(name: String, file: URL, problem: String) {
        self.name = name
        self.file = file
        self.problem = problem
    }

    init(file: URL) {
        self.file = file
        name = String(file.lastPathComponent.dropLast(4))
        guard let text = try? String(contentsOf: file, encoding: .utf8) else {  // Reported by check().
            problem = "cannot read \(file.path)"
            return
        }
        var lines = text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        guard let separator = lines.firstIndex(of: "---") else {
            problem = "\(file.lastPathComponent) has no '---' line before the expected screen"
            return
        }
        for line in lines[..<separator] {
            if line.hasPrefix("@ ") {
                let moment = String(line.dropFirst(2))
                if commands.isEmpty { clock = moment }
                commands.append((moment, ""))
            }
            if line.hasPrefix("% "), let columns = Int(line.dropFirst(2)) { width = columns }
            if line.hasPrefix("$ ") {
                let typed = String(line.dropFirst(2)).replacingOccurrences(of: "<fixtures>", with: fixtureURL("").path)
                commands.append((commands.last?.clock ?? clock, typed))
            }
        }
        expected = Array(lines[(separator + 1)...])
    }

    /// Types the commands into a fresh session at the clock and compares the last screen, line by line.
    @MainActor
    func check(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        if let problem { Issue.record(Comment(rawValue: problem), sourceLocation: sourceLocation) }
        try #require(commands.contains { !$0.line.isEmpty }, "\(name) types no command")
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let clock = TestClock(date(self.clock))
        let graph = makeTestApp(clock: clock, calendar: calendar(zone: "UTC"), directory: directory.url)
        // As on a terminal of that width: long lines wrap.
        let session = ReplSession(app: graph.app, json: false, style: TerminalStyle(colors: false, width: width, wraps: true),
                                  isInteractive: false)
        var text = ""
        for command in commands {
            clock.now = date(command.clock)
            // An @ line alone only moves the clock.
            if !command.line.isEmpty { text = await session.execute(command.line).text }
        }
        text = text.replacingOccurrences(of: directory.url.path, with: "<data>")
            .replacingOccurrences(of: #"\b[0-9a-f]{8}\b"#, with: "########", options: .regularExpression)
        if ProcessInfo.processInfo.environment["TREND_RECORD_SCREENS"] == "1" {
            // Record mode: write what the screen shows now, and fail, so a recording never passes for a check.
            let original = try String(contentsOf: file, encoding: .utf8)
            let head = original.components(separatedBy: "\n---\n")[0]
            try (head + "\n---\n" + text + "\n").write(to: file, atomically: true, encoding: .utf8)
            Issue.record("recorded \(file.lastPathComponent); review the change with git diff", sourceLocation: sourceLocation)
            return
        }
        let actual = text.components(separatedBy: "\n")
        for line in actual where TerminalText.columns(line) > width {
            Issue.record("\(name): a line wider than \(width) columns: \(line)", sourceLocation: sourceLocation)
        }
        let first = zip(actual, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(actual.count, expected.count)
        #expect(actual == expected, "\(name): first difference at line \(first + 1):\n\(text)", sourceLocation: sourceLocation)
    }
}
