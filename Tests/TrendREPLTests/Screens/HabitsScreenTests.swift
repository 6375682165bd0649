import Foundation
import Testing
import TestSupport
@testable import TrendREPL

/// The exact text of `habits` and `habit …`: HabitsViewModel. At a fixed clock, 80 columns, no colour.
@MainActor
@Suite struct HabitsScreenTests {
    @Test func theListShowsDueDoneStreaksAndStrength() async throws {
        let s = Screen(at: "2026-06-17 08:00")
        await s.type("habit add Read every day", "habit add Water every day target 8", "habit add Gym 3/week")
        await s.type("habit done Read yesterday", "habit done Read", "habit done Water 5", "habit skip Gym")
        let text = await s.type("habits")
        expectScreen(text, [
            "Habits, Wed 17 Jun 2026",
            "  ✓ Read   every day              streak   2 (best 2)  strength  10% █░░░░░░░░░",
            "  ○ Water  every day, at least 8  streak   0 (best 0)  strength   3% ░░░░░░░░░░  5 today",
            "  – Gym    3/week                 streak   0 (best 0)  strength   0% ░░░░░░░░░░  skipped",
            "✓ done  ○ due  – skipped  · not due today",
        ])
    }

    @Test func markingADaySaysWhatItMeans() async throws {
        let s = Screen(at: "2026-06-17 08:00")
        await s.type("habit add Water every day target 8")
        let text = await s.type("habit done Water 9")
        expectScreen(text, [
            "'Water': 9 today, target met. Streak 1, strength 5%.",
        ])
    }
}
