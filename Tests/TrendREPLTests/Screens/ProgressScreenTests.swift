import Foundation
import Testing
import TestSupport
@testable import TrendREPL

/// The exact text of `progress` and its chart: ProgressViewModel and ChartRenderer. At a fixed clock, 80 columns, no colour.
@MainActor
@Suite struct ProgressScreenTests {
    @Test func aMonthWithAGoalDrawsTheChartAndTheProjection() async throws {
        let s = Screen(at: "2026-06-17 08:00")
        await s.weighDaily(from: "2026-05-20", [83.0, 82.8, 82.9, 82.6, 82.7, 82.4, 82.1, 81.9, 82.0, 81.6, 81.5, 81.2, 81.3, 80.9, 80.8, 80.7, 80.9, 80.4, 80.2, 80.3, 80.0, 79.9, 80.1, 79.7, 79.8, 79.5, 79.6, 79.3, 79.4])
        let text = await s.type("goal 75", "progress 1m")
        expectScreen(text, [
            "Progress, 1 month",
            "83.9 ┤                                                                         ",
            "     │  ⠐⠒⠒⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⢄⣀⣀⣀⣀⣀⣀                                                ",
            "     │               • •  • •  ⠉⠉⠉⠉⠉⠒⠒⠒⠒⠢⠤⠤⠤⠤⣀⣀⣀⣀⣀⡀                            ",
            "81.2 ┤                         • •  • •  • •    • ⠉⠉⠉⠉⠒⠒⠒⠒⠢⠤⠤⠤⠤⢄⣀⣀⣀⣀           ",
            "     │                                        •    • •  • •  • •    ⠉⠉⠉⠉⠉⠒⠒⠒⠒⠒⠤",
            "     │                                                            • •  • •  • •",
            "78.6 ┤                                                                         ",
            "     │                                                                         ",
            "     │                                                                         ",
            "75.9 ┤                                                                         ",
            "     │┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄",
            "74.1 ┤                                                                         ",
            "  kg └┬──────────────┬──────────────┬───────────┬──────────────┬──────────────┬",
            "      May 19      May 25         May 31       Jun 5         Jun 11        Jun 17",
            "      • daily weight   ⠤⠤ trend   ┄┄ goal",
            "",
            "  change   −2.7 kg (improving)",
            "  average  81.0 kg   low 79.3 kg   high 83.0 kg",
            "  rate     −0.83 kg a week, a deficit of about 915 kcal a day",
            "  goal     75.0 kg, around Sat 1 Aug 2026",
            "",
            "Down 2.7 kg over 1 month, the right way. At this rate you reach 75.0 kg around 2026-08-01.",
        ])
    }

    @Test func noWeighInsYetSaysHowToStart() async throws {
        let s = Screen()
        let text = await s.type("progress")
        expectScreen(text, [
            "Progress, 3 months",
            "No weigh-ins yet. Record one with 'weigh 82.4'.",
        ])
    }
}
