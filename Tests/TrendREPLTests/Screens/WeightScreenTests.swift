import Foundation
import Testing
import TestSupport
@testable import TrendREPL

/// The exact text of `weigh`, `entries`, `streak`, `undo`: WeightViewModel. At a fixed clock, 80 columns, no colour.
@MainActor
@Suite struct WeightScreenTests {
    @Test func weighRecordsAndShowsTheCheckIn() async throws {
        let s = Screen(at: "2026-06-17 08:00")
        await s.weighDaily(from: "2026-06-14", [80.6, 80.4, 80.5])
        let text = await s.type("weigh 80.1 note after the run")
        expectScreen(text, [
            "Recorded 80.1 kg at 2026-06-17 08:00 (id ########). Note: after the run",
            "Today, Wed 17 Jun 2026",
            "  weight   80.1 kg  −0.4 kg since the weigh-in before",
            "  trend    80.5 kg",
            "  verdict  ↓ moving downward",
            "  streak   4 days",
            "",
            "Tip (sleep): Leave your phone to charge outside the bedroom tonight.",
        ])
    }

    @Test func entriesListsANewestFirstTableWithNotes() async throws {
        let s = Screen(at: "2026-06-17 08:00")
        await s.weighDaily(from: "2026-06-08", [81.0, 80.9, 80.7, 80.8, 80.6, 80.4, 80.5, 80.3, 80.2, 80.0])
        let text = await s.type("weigh 79.9 note morning", "entries 1w")
        expectScreen(text, [
            "id        when              weight",
            "########  2026-06-17 08:00       79.9 kg  morning",
            "########  2026-06-17 07:00       80.0 kg",
            "########  2026-06-16 07:00       80.2 kg",
            "########  2026-06-15 07:00       80.3 kg",
            "########  2026-06-14 07:00       80.5 kg",
            "########  2026-06-13 07:00       80.4 kg",
            "########  2026-06-12 07:00       80.6 kg",
            "########  2026-06-11 07:00       80.8 kg",
            "8 weigh-ins in 1 week, newest first",
        ])
    }

    @Test func streakShowsThisWeekMondayToSunday() async throws {
        let s = Screen(at: "2026-06-17 08:00")
        await s.weighDaily(from: "2026-06-10", [81.0, 80.9, 80.7, 80.9, 80.6, 80.4, 80.5, 80.3])
        let text = await s.type("streak")
        expectScreen(text, [
            "Weigh-in streak: 8 days (best 8)",
            "",
            " Mon Tue Wed Thu Fri Sat Sun",
            "  →   →   →                 ",
            "  15  16  17  18  19  20  21",
            "",
            "↓ moving down  → steady  ↑ needs attention  ↻ time for a reset  · no weigh-in",
        ])
    }

    @Test func undoSaysWhatItTookBack() async throws {
        let s = Screen()
        let text = await s.type("weigh 80.1", "undo")
        expectScreen(text, [
            "Undone: the weigh-in of 80.1 kg on 2026-06-15 08:00 is removed.",
        ])
    }

    @Test func aWeightOutOfRangeIsRefusedWithTheRange() async throws {
        let s = Screen()
        let text = await s.type("weigh 900")
        expectScreen(text, [
            "error: weigh: 900 is 900.0 kg, outside the accepted 20–500 kg; check the number and the unit",
        ])
    }
}
