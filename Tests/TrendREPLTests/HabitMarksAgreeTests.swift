import CommandLanguage
import Foundation
import Testing
import TestSupport
@testable import TrendREPL

/// Issue 28, item 5: the habit screens agree, and every mark they draw is in their legend.
@MainActor
@Suite struct HabitMarksAgreeTests {
    @Test func overLimitAndPartDoneDaysHaveMarksOfTheirOwn() async throws {
        let clock = TestClock(date("2026-03-10 21:00"))
        let session = ReplSession(app: makeTestApp(clock: clock).app, json: false, style: .plain, isInteractive: false)
        _ = await session.execute("habit add Drinks every day at-most 2")
        _ = await session.execute("habit add Water every day target 8")
        for (day, drinks, water) in [(10, 1, 8), (11, 3, 6), (12, 0, 9)] {
            clock.now = date("2026-03-\(day) 21:00")
            _ = await session.execute("habit done Drinks \(drinks)")
            _ = await session.execute("habit done Water \(water)")
        }
        clock.now = date("2026-03-13 09:00")
        let drinks = await session.execute("habit show Drinks")
        #expect(drinks.text.contains("▲11") && drinks.text.contains("▲\u{00A0}over\u{00A0}the\u{00A0}limit") && !drinks.text.contains("○ no"), "\(drinks.text)")
        #expect(drinks.text.contains("amounts  Mar 10 1 · Mar 11 3 · Mar 12 0"))
        let water = await session.execute("habit show Water")
        #expect(water.text.contains("◐11") && water.text.contains("◐\u{00A0}part\u{00A0}done"), "\(water.text)")
        // Nothing logged today is within an at-most limit: ✓ and not due, on the list and in status alike.
        let list = await session.execute("habits")
        let row = list.text.split(separator: "\n").first { $0.contains("Drinks") } ?? ""
        #expect(row.hasPrefix("  ✓"), "\(list.text)")
        let status = await session.execute("status")
        #expect(status.text.hasSuffix("1 due"), "\(status.text)")
        for mark in ["✓", "○", "–", "·", "◐", "▲"] where list.text.split(separator: "\n").dropLast().contains(where: { $0.hasPrefix("  \(mark)") }) {
            #expect(list.text.split(separator: "\n").last?.contains(mark) == true, "\(mark) is not in the legend")
        }
    }
}

/// Issue 28, item 10: at 40 and 50 columns no habit row wraps.
@MainActor
@Suite struct NarrowHabitRowsTests {
    @Test(arguments: [40, 50, 60])
    func noHabitRowWraps(width: Int) async throws {
        let session = ReplSession(app: makeTestApp(clock: TestClock(date("2026-03-10 21:00"))).app, json: false,
                                  style: TerminalStyle(colors: false, width: width, wraps: true), isInteractive: false)
        _ = await session.execute("habit add \"Drink enough water every day\" every day at least 8 glasses")
        _ = await session.execute("habit add Drinks every day at-most 2")
        _ = await session.execute("habit add Read mon,wed,fri")
        _ = await session.execute("habit done \"Drink enough water every day\" 5")
        let lines = await session.execute("habits").text.split(separator: "\n").map(String.init)
        let rows = lines.dropFirst().prefix(3)
        #expect(rows.allSatisfy { row in ["✓", "○", "◐", "▲", "–", "·"].contains { row.hasPrefix("  " + $0) } }, "\(lines)")
        #expect(rows.allSatisfy { TerminalText.columns($0) <= width }, "\(lines)")
        // The target is kept when the plan is cut short.
        #expect(rows.first?.contains("≥ 8") == true || rows.first?.contains("at least 8") == true, "\(lines)")
    }
}
