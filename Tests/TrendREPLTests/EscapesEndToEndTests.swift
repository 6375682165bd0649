import Foundation
import Testing
import TestSupport

/// Issue 32, items 11 and 12: what a preview quotes from a file is shown escaped
/// (a right-to-left override printed raw could reorder the line), and
/// `history --json` counts in integers.
@Suite struct EscapesEndToEndTests {
    @Test func aPreviewShowsAFilesControlCharactersEscapedAndHistoryCountsInIntegers() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let csv = temp.url.appendingPathComponent("bad.csv")
        try Data("date,weight\n2026-06-01 07:00,x\u{202E}y\n2026-06-02 07:00,80\n".utf8).write(to: csv)
        let directory = ["--data-dir", temp.url.appendingPathComponent("data").path]
        let preview = try runTrend(directory + ["-c", "import '\(csv.path)' preview"])
        #expect(preview.standardOutput.contains(#"x\u{202E}y"#), "\(preview.standardOutput)")
        #expect(!preview.standardOutput.unicodeScalars.contains("\u{202E}"))
        #expect(try runTrend(directory + ["-c", "import '\(csv.path)'"]).status == 0)
        let history = try runTrend(directory + ["--json", "-c", "history"])
        #expect(history.standardOutput.contains(#""id":1,"#) && history.standardOutput.contains(#""rows":1"#), "\(history.standardOutput)")
    }
}
