import Testing
import TestSupport

/// The exact text of `progress` and its chart: ProgressViewModel and ChartRenderer. At a fixed clock, 80 columns, no colour;
/// each screen is compared with its file in `Expected/`.
@MainActor
@Suite struct ProgressScreenTests {
    @Test func aMonthWithAGoalDrawsTheChartAndTheProjection() async throws {
        let s = Screen(at: "2026-06-17 08:00")
        await s.weighDaily(from: "2026-05-20", [83.0, 82.8, 82.9, 82.6, 82.7, 82.4, 82.1, 81.9, 82.0, 81.6, 81.5, 81.2, 81.3, 80.9, 80.8, 80.7, 80.9, 80.4, 80.2, 80.3, 80.0, 79.9, 80.1, 79.7, 79.8, 79.5, 79.6, 79.3, 79.4])
        let text = await s.type("goal 75", "progress 1m")
        try expectScreen(text, matches: "aMonthWithAGoalDrawsTheChartAndTheProjection")
    }

    @Test func noWeighInsYetSaysHowToStart() async throws {
        let s = Screen()
        let text = await s.type("progress")
        try expectScreen(text, matches: "noWeighInsYetSaysHowToStart")
    }
}
