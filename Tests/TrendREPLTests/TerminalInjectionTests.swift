import CommandLanguage
import Foundation
import Testing
import TestSupport
@testable import TrendREPL

/// Issue 16: text from files reaches the terminal only with visible escapes,
/// never as the control sequence it holds (reset, title, OSC 52 clipboard, forged rows).
@Suite struct TerminalInjectionTests {
    @Test func controlsAndBidiOverridesAreShownNotSent() {
        #expect(TerminalText.visible("plain note, café ✓") == "plain note, café ✓")
        #expect(TerminalText.visible("a\u{1B}]52;c;aGk=\u{07}b") == "a\\e]52;c;aGk=\\x07b")
        #expect(TerminalText.visible("\u{1B}[2J\r\u{9B}x\u{7F}") == "\\e[2J\\x0d\\x9bx\\x7f")
        #expect(TerminalText.visible("abc\u{202E}def\u{2066}") == "abc\\u{202E}def\\u{2066}")
    }

    @Test func anImportedNoteCannotDriveTheTerminal() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let file = temp.url.appendingPathComponent("evil.csv")
        try Data("date,weight,note\n2026-01-01,70.1,\"x \u{1B}]52;c;aGk=\u{07} \u{1B}[2J \u{9B}31m \u{202E}abc\"\n".utf8).write(to: file)
        let directory = ["--data-dir", temp.url.path]
        _ = try runTrend(directory + ["-c", "import \(file.path)"])
        let text = try runTrend(directory + ["-c", "entries all"]).standardOutput
        #expect(text.contains("\\e]52;c;aGk=\\x07"), "\(text)")
        #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x9B || $0.value == 0x202E })
        // Storage keeps the characters; JSON escapes them as JSON does.
        let json = try runTrend(directory + ["--json", "-c", "entries all"])
        let note = (try json.documents().first?["entries"] as? [[String: Any]])?.first?["note"] as? String
        #expect(note?.contains("\u{1B}]52") == true)
        #expect(!json.standardOutput.unicodeScalars.contains { $0.value == 0x1B })
    }
}

/// An escape-sequence corpus through every screen that shows text from a
/// file: no raw control character reaches the terminal.
@Suite struct EscapeCorpusTests {
    /// Sequences a hostile file carries: resets, titles, the clipboard, cursor moves that forge rows, C1, bidi.
    static let corpus = ["\u{1B}c", "\u{1B}]0;pwned\u{07}", "\u{1B}]52;c;aGk=\u{1B}\\", "\u{1B}[2J\u{1B}[H", "\r80.0 kg  forged",
                         "\u{1B}[31mred\u{1B}[0m", "\u{9B}6n", "\u{9D}8;;http://x\u{9C}", "\u{202E}txt.exe", "\u{8}\u{7F}", "\u{1B}P1$r\u{1B}\\"]

    static func isRaw(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 && scalar != "\n" || (0x7F...0x9F).contains(scalar.value)
            || [0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069].contains(scalar.value)
    }

    @Test func noScreenSendsARawControlCharacter() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        // The corpus in notes of a CSV import, a Loop-like habit note, and a file name shown in messages.
        var csv = "date,weight,note\n"
        for (index, sequence) in Self.corpus.enumerated() {
            let note = sequence.replacingOccurrences(of: "\"", with: "\"\"")
            csv += "2026-06-\(String(format: "%02d", index + 1)) 07:00,\(70 + Double(index) / 10),\"n\(note)\"\n"
        }
        let file = temp.url.appendingPathComponent("evil\u{1B}]0;t\u{07}.csv")
        try Data(csv.utf8).write(to: file)
        let directory = ["--data-dir", temp.url.appendingPathComponent("data").path]
        let commands = ["import \(file.path) preview", "import \(file.path)", "entries all", "find n", "status", "today",
                        "habit add Read every day", "habit done Read 2026-06-10", "habits", "habit show Read", "settings",
                        "backup now", "backup list", "export \(file.path).csv", "import /nonexistent/\u{1B}[2Jx.csv",
                        "weigh 80 note \u{1B}]52;c;aGk=\u{07}", "bogus\u{1B}[2J"]
        for command in commands {
            let run = try runTrend(directory + ["-c", command], clock: "2026-06-17 08:00:00")
            let raw = (run.standardOutput + run.standardError).unicodeScalars.filter(Self.isRaw)
            #expect(raw.isEmpty, "\(command.debugDescription) sent \(raw.map { String(format: "U+%04X", $0.value) })")
        }
    }
}
