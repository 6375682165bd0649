import CommandLanguage
import Foundation
import Testing
import TestSupport
import Vocabulary
@testable import TrendREPL

/// Issue 28, item 7: the x axis never says a label twice, and names the finest unit that differs.
@MainActor
@Suite struct ChartLabelTests {
    func axisLabels(days: Int) async -> [String] {
        let clock = TestClock(date("2026-12-02 09:00"))
        let session = ReplSession(app: makeTestApp(clock: clock).app, json: false, style: TerminalStyle(colors: false, width: 80), isInteractive: false)
        for offset in stride(from: days - 1, through: 0, by: -1) {
            let day = date("2026-12-02 07:00").addingTimeInterval(-Double(offset) * 86_400)
            _ = await session.execute("weigh \(80 + Double(offset % 5) * 0.2) \(LocalDays(timeZone: TimeZone(identifier: "UTC")!).localMinute(day))")
        }
        let chart = await session.execute("progress all").text.split(separator: "\n").map(String.init)
        guard let axis = chart.firstIndex(where: { $0.contains("└") }), axis + 1 < chart.count else { return [] }
        // Labels are separated by two spaces or more.
        return chart[axis + 1].components(separatedBy: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    @Test(arguments: [1, 5, 30])
    func noLabelRepeats(days: Int) async throws {
        let labels = await axisLabels(days: days)
        #expect(labels.count >= 2, "\(labels)")
        #expect(Set(labels).count == labels.count, "\(labels)")
        // Within two months, the days are named, not the month again.
        #expect(!labels.contains("Dec 2026") || labels.count == 1, "\(labels)")
    }
}
