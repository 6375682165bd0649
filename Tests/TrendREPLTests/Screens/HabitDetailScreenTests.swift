import Testing
import TestSupport

/// The exact text of `habit show`: HabitDetailScreen. At a fixed clock, 80 columns, no colour;
/// each screen is compared with its file in `Expected/`.
@MainActor
@Suite struct HabitDetailScreenTests {
    @Test func showDrawsSixtyDaysAndTheStrengthLine() async throws {
        let s = Screen(at: "2026-06-17 08:00")
        await s.type("habit add Read every day")
        await s.type("habit done Read 2026-06-10", "habit done Read 2026-06-12", "habit skip Read 2026-06-13", "habit done Read 2026-06-15", "habit done Read 2026-06-16")
        let text = await s.type("habit show Read")
        try expectScreen(text, matches: "showDrawsSixtyDaysAndTheStrengthLine")
    }
}
