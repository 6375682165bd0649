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
