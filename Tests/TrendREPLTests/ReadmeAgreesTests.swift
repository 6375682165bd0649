import CommandLanguage
import Foundation
import Testing
import TestSupport
@testable import TrendREPL
import WeightLog

/// Issue 63, item 8: the README and the program say the same thing. The test reads the README's own tables and
/// sentences and holds them against the program's declarations: every example of the command table parses as the
/// command's declaration reads it, the verdicts are the words `today` prints, and the colour table is the colours
/// the screens paint.
@MainActor
@Suite struct ReadmeAgreesTests {
    static let readme = (try? String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("README.md"), encoding: .utf8)) ?? ""

    /// The README with every run of white space one space, so a phrase wrapped over two lines is found.
    static var flat: String { readme.split(whereSeparator: \.isWhitespace).joined(separator: " ") }

    /// The rows of the Markdown table whose header row starts with `header`, as cells.
    static func table(startingWith header: String) -> [[String]] {
        let lines = readme.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let start = lines.firstIndex(where: { $0.hasPrefix(header) }) else { return [] }
        return lines[(start + 2)...].prefix { $0.hasPrefix("|") }.map { line in
            // A `\|` inside a cell is a character of the cell, not a border.
            line.replacingOccurrences(of: "\\|", with: "\u{1}").split(separator: "|").map {
                $0.replacingOccurrences(of: "\u{1}", with: "|").trimmingCharacters(in: .whitespaces)
            }
        }
    }

    /// The text between backquotes in `cell`.
    static func quoted(_ cell: String) -> [String] {
        cell.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    @Test func everyExampleOfTheCommandTableIsReadByItsDeclaration() async throws {
        let rows = Self.table(startingWith: "| command | example |")
        #expect(rows.count > 30, "the command table was not found")
        let graph = makeTestApp(clock: TestClock(date("2026-06-15 08:00")))
        let session = ReplSession(app: graph.app, json: false, style: .plain, isInteractive: false)
        for name in ["Read", "Gym", "Water", "Drink water", "Drinks", "Walk"] { _ = await session.execute("habit add \(name) every day") }
        var read = 0
        for row in rows where row.count >= 2 {
            for example in Self.quoted(row[1]) where !example.hasPrefix("trend ") && !example.contains("…") {
                do {
                    _ = try await session.arguments(of: example)
                    read += 1
                } catch let failure as CommandFailure where [.usage, .unknownCommand].contains(failure.code) {
                    Issue.record("the README's example '\(example)' is not read by its declaration: \(failure.message)")
                } catch {
                    read += 1  // Parsed; what it refers to (a backup, a file) is not here, which is not the README's fault.
                }
            }
        }
        #expect(read > 60, "\(read) examples read")
    }

    @Test func theVerdictsAreTheWordsTodayPrints() {
        for verdict in DailyVerdict.allCases {
            let words = TodayViewModel.describe(verdict, style: .plain)
            #expect(Self.flat.contains(words), "the README does not give the verdict '\(words)'")
        }
    }

    /// Each colour the table names for a role is the colour the screens paint that role with.
    @Test func theColourTableIsTheColoursTheScreensPaint() async throws {
        let rows = Self.table(startingWith: "| colour | means |")
        let codes = ["green": "32", "cyan": "36", "magenta": "35", "red": "31"]
        let colourOf = Dictionary(rows.flatMap { row in row[1].split(separator: ",").map { ($0.trimmingCharacters(in: .whitespaces), row[0]) } },
                                  uniquingKeysWith: { first, _ in first })
        let graph = makeTestApp(clock: TestClock(date("2026-06-15 08:00")))
        let style = TerminalStyle(colors: true, width: 100)
        let session = ReplSession(app: graph.app, json: false, style: style, isInteractive: false)
        // Three weeks losing toward a goal just below: a trend, a projection and the goal's line inside the chart.
        for day in 1...21 { _ = await session.execute("weigh \(80.0 - Double(day) * 0.05) 2026-06-\(String(format: "%02d", day)) 07:00") }
        _ = await session.execute("goal 78.8")
        let today = await session.execute("today").text, progress = await session.execute("progress 3w").text
        func painted(_ text: String, _ colour: String) -> String { "\u{1B}[\(codes[colour] ?? "?")m\(text)" }
        // A role, the screen that shows it, and the text that starts right after the colour's code there.
        let probes: [(role: String, screen: String, text: String)] = [
            ("the trend", today, today.components(separatedBy: "trend    \u{1B}[").count > 1 ? "" : "(no trend figure)"),
            ("the trend", progress, "⠤⠤"), ("daily weights", progress, "•"), ("the projection", progress, "··"), ("the goal", progress, "┄┄"),
            ("holding steady", TodayViewModel.describe(.holdingSteady, style: style), "→ holding steady"),
            ("an upward day", TodayViewModel.describe(.needsAttention, style: style), "↑ up since last time"),
        ]
        for probe in probes {
            let colour = try #require(colourOf[probe.role], "the colour table names no colour for '\(probe.role)'")
            let found = probe.text.isEmpty ? probe.screen.contains("trend    " + painted("", colour)) : probe.screen.contains(painted(probe.text, colour))
            #expect(found, "'\(probe.role)' is not \(colour) on the screen:\n\(probe.screen)")
        }
    }
}
