import CommandLanguage
import Foundation
import Testing
import TestSupport
@testable import TrendREPL
import Vocabulary

/// Every screen fits its terminal: at 60, 80 and 120 columns no line of any
/// command's answer is wider than the terminal, with two years of weigh-ins
/// in stones (the widest labels), a goal far below, notes, and habits of
/// every kind with long names.
@MainActor
@Suite struct ScreenWidthTests {
    static let commands = ["today", "progress 1w", "progress 1m", "progress 3m", "progress 6m", "progress 1y", "progress all",
                           "habits", "habit show \"Drink enough water every day\"", "summary", "summary month", "summary year",
                           "streak", "help", "help habit", "help restore", "entries 2w", "entries 2025-01", "history", "settings", "tip", "status",
                           "find stairs", "backup status"]

    @Test(arguments: [60, 80, 120])
    func noLineIsWiderThanTheTerminal(width: Int) async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let clock = TestClock(date("2024-12-01 07:00"))
        let graph = makeTestApp(clock: clock, calendar: calendar(zone: "UTC"), directory: directory.url)
        let session = ReplSession(app: graph.app, json: false, style: TerminalStyle(colors: false, width: width, wraps: true),
                                  isInteractive: false)
        _ = await session.execute("set unit st")
        _ = await session.execute("habit add \"Drink enough water every day\" every day at least 8 glasses")
        _ = await session.execute("habit add Read mon,wed,fri")
        var random = SplitMix64(seed: 11)
        for day in 0..<730 where day % 9 != 4 {
            clock.now = date("2024-12-01 07:00").addingTimeInterval(Double(day) * 86_400)
            let kilograms = 96 - Double(day) * 0.02 + Double.random(in: -0.8...0.8, using: &random)
            let note = day % 17 == 0 ? " note took the stairs all the way up to the eleventh floor, twice, with the shopping" : ""
            _ = await session.execute(String(format: "weigh %.1f kg", kilograms) + note)
            if day % 3 == 0 { _ = await session.execute("habit done \"Drink enough water every day\" 9") }
        }
        _ = await session.execute("goal 60 kg")
        for command in Self.commands {
            let result = await session.execute(command)
            #expect(result.succeeded, "\(command): \(result.text)")
            for line in (result.text + "\n" + result.warnings.joined(separator: "\n")).split(separator: "\n") {
                #expect(TerminalText.columns(String(line)) <= width, "\(command) at \(width): \(line)")
            }
        }
    }
}
