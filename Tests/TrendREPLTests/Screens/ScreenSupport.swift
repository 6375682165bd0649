import AppCore
import Foundation
import Testing
import TestSupport
@testable import TrendREPL

/// A REPL session on an isolated graph at a fixed clock, 80 columns, no
/// colour: what a screen test types and reads.
@MainActor
struct Screen {
    let graph: TestGraph
    let session: ReplSession
    let directory: TemporaryDirectory

    init(at time: String = "2026-06-15 08:00", zone: String = "UTC", width: Int = 80) {
        directory = TemporaryDirectory()
        graph = makeTestApp(clock: TestClock(date(time, zone: zone)), calendar: calendar(zone: zone), directory: directory.url)
        session = ReplSession(app: graph.app, json: false, style: TerminalStyle(colors: false, width: width),
                              isInteractive: false)
    }

    /// Runs each line in turn and returns what the last one printed, with
    /// what differs from run to run masked: entry ids (`########`) and the
    /// data directory (`<data>`).
    @discardableResult
    func type(_ lines: String...) async -> String {
        var text = ""
        for line in lines { text = await session.execute(line).text }
        text = text.replacingOccurrences(of: directory.url.path, with: "<data>")
        return text.replacingOccurrences(of: #"\b[0-9a-f]{8}\b"#, with: "########", options: .regularExpression)
    }

    /// Records a weigh-in a day for `weights`, from `first` (YYYY-MM-DD) on, at 07:00.
    func weighDaily(from first: String, _ weights: [Double]) async {
        let start = date(first)
        for (offset, weight) in weights.enumerated() {
            let day = start.addingTimeInterval(Double(offset) * 86_400)
            let stamp = String(ISO8601DateFormatter().string(from: day).prefix(10))
            await type("weigh \(weight) \(stamp) 07:00")
        }
    }
}

/// Compares a screen with `Expected/<name>.txt`, naming the first line that differs.
func expectScreen(_ text: String, matches name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Expected").appendingPathComponent("\(name).txt")
    let expected = try String(contentsOf: file, encoding: .utf8)
    let lines = expected.hasSuffix("\n") ? String(expected.dropLast()) : expected
    let actual = text.components(separatedBy: "\n"), wanted = lines.components(separatedBy: "\n")
    let first = zip(actual, wanted).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(actual.count, wanted.count)
    #expect(actual == wanted, "\(name): first difference at line \(first + 1):\n\(text)", sourceLocation: sourceLocation)
}
