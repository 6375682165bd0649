import Testing
import TestSupport

/// The exact text of `habits` and `habit …`: HabitsViewModel. At a fixed clock, 80 columns, no colour;
/// each screen is compared with its file in `Expected/`.
@MainActor
@Suite struct HabitsScreenTests {
    @Test func theListShowsDueDoneStreaksAndStrength() async throws {
        let s = Screen(at: "2026-06-17 08:00")
        await s.type("habit add Read every day", "habit add Water every day target 8", "habit add Gym 3/week")
        await s.type("habit done Read yesterday", "habit done Read", "habit done Water 5", "habit skip Gym")
        let text = await s.type("habits")
        try expectScreen(text, matches: "theListShowsDueDoneStreaksAndStrength")
    }

    @Test func markingADaySaysWhatItMeans() async throws {
        let s = Screen(at: "2026-06-17 08:00")
        await s.type("habit add Water every day target 8")
        let text = await s.type("habit done Water 9")
        try expectScreen(text, matches: "markingADaySaysWhatItMeans")
    }
}
