import Foundation
import Testing
import TestSupport
@testable import TrendREPL

/// The exact text of `today`: TodayViewModel. At a fixed clock, 80 columns, no colour.
@MainActor
@Suite struct TodayScreenTests {
    /// A new installation on a Monday: no weigh-in yet, the tip and the week-ahead note.
    @Test func aFirstMondayWithNoWeighInsSaysHowToStart() async throws {
        let s = Screen()
        let text = await s.type("today")
        expectScreen(text, [
            "Today, Mon 15 Jun 2026",
            "  No weigh-ins yet. Record one with 'weigh 82.4'.",
            "  streak   0 days",
            "",
            "Tip (sleep): Leave your phone to charge outside the bedroom tonight.",
            "",
            "The week ahead: pick three days for a longer walk and put them in your calendar now.",
        ])
    }

    @Test func aCheckInShowsTheWeightTrendVerdictAndStreak() async throws {
        let s = Screen(at: "2026-06-17 08:00")
        await s.weighDaily(from: "2026-06-03", [82.4, 82.1, 81.9, 82.0, 81.6, 81.5, 81.2, 81.3, 80.9, 80.8, 80.7, 80.9, 80.4, 80.2])
        let text = await s.type("weigh 79.9", "today")
        expectScreen(text, [
            "Today, Wed 17 Jun 2026",
            "  weight   79.9 kg  −0.3 kg since the weigh-in before",
            "  trend    81.2 kg",
            "  verdict  ↓ moving downward",
            "  streak   15 days",
            "",
            "Tip (sleep): Leave your phone to charge outside the bedroom tonight.",
        ])
    }
}
