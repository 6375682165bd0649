import Testing
import TestSupport

/// The exact text of `today`: TodayViewModel. At a fixed clock, 80 columns, no colour;
/// each screen is compared with its file in `Expected/`.
@MainActor
@Suite struct TodayScreenTests {
    /// A new installation on a Monday: no weigh-in yet, the tip and the week-ahead note.
    @Test func aFirstMondayWithNoWeighInsSaysHowToStart() async throws {
        let s = Screen()
        let text = await s.type("today")
        try expectScreen(text, matches: "aFirstMondayWithNoWeighInsSaysHowToStart")
    }

    @Test func aCheckInShowsTheWeightTrendVerdictAndStreak() async throws {
        let s = Screen(at: "2026-06-17 08:00")
        await s.weighDaily(from: "2026-06-03", [82.4, 82.1, 81.9, 82.0, 81.6, 81.5, 81.2, 81.3, 80.9, 80.8, 80.7, 80.9, 80.4, 80.2])
        let text = await s.type("weigh 79.9", "today")
        try expectScreen(text, matches: "aCheckInShowsTheWeightTrendVerdictAndStreak")
    }
}
