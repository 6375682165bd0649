import Testing
import TestSupport

/// The exact text of `backup`: BackupViewModel. At a fixed clock, 80 columns, no colour;
/// each screen is compared with its file in `Expected/`.
@MainActor
@Suite struct BackupScreenTests {
    @Test func statusBeforeTheFirstSnapshotSaysHowToMakeOne() async throws {
        let s = Screen()
        let text = await s.type("backup status")
        try expectScreen(text, matches: "statusBeforeTheFirstSnapshotSaysHowToMakeOne")
    }

    @Test func backupNowCountsWhatTheSnapshotHolds() async throws {
        let s = Screen()
        let text = await s.type("weigh 80.1", "habit add Read every day", "backup now")
        try expectScreen(text, matches: "backupNowCountsWhatTheSnapshotHolds")
    }
}
