import Testing
import TestSupport

/// The exact text of `weigh`, `entries`, `streak`, `undo`: WeightViewModel. At a fixed clock, 80 columns, no colour;
/// each screen is compared with its file in `Expected/`.
@MainActor
@Suite struct WeightScreenTests {
    @Test func weighRecordsAndShowsTheCheckIn() async throws {
        let s = Screen(at: "2026-06-17 08:00")
        await s.weighDaily(from: "2026-06-14", [80.6, 80.4, 80.5])
        let text = await s.type("weigh 80.1 note after the run")
        try expectScreen(text, matches: "weighRecordsAndShowsTheCheckIn")
    }

    @Test func entriesListsANewestFirstTableWithNotes() async throws {
        let s = Screen(at: "2026-06-17 08:00")
        await s.weighDaily(from: "2026-06-08", [81.0, 80.9, 80.7, 80.8, 80.6, 80.4, 80.5, 80.3, 80.2, 80.0])
        let text = await s.type("weigh 79.9 note morning", "entries 1w")
        try expectScreen(text, matches: "entriesListsANewestFirstTableWithNotes")
    }

    @Test func streakShowsThisWeekMondayToSunday() async throws {
        let s = Screen(at: "2026-06-17 08:00")
        await s.weighDaily(from: "2026-06-10", [81.0, 80.9, 80.7, 80.9, 80.6, 80.4, 80.5, 80.3])
        let text = await s.type("streak")
        try expectScreen(text, matches: "streakShowsThisWeekMondayToSunday")
    }

    @Test func undoSaysWhatItTookBack() async throws {
        let s = Screen()
        let text = await s.type("weigh 80.1", "undo")
        try expectScreen(text, matches: "undoSaysWhatItTookBack")
    }

    @Test func aWeightOutOfRangeIsRefusedWithTheRange() async throws {
        let s = Screen()
        let text = await s.type("weigh 900")
        try expectScreen(text, matches: "aWeightOutOfRangeIsRefusedWithTheRange")
    }
}
