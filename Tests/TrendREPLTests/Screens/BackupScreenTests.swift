import Foundation
import Testing
import TestSupport
@testable import TrendREPL

/// The exact text of `backup`: BackupViewModel. At a fixed clock, 80 columns, no colour.
@MainActor
@Suite struct BackupScreenTests {
    @Test func statusBeforeTheFirstSnapshotSaysHowToMakeOne() async throws {
        let s = Screen()
        let text = await s.type("backup status")
        expectScreen(text, [
            "Backups in <data>/Backups",
            "  last snapshot   none yet ('backup now' makes one)",
            "  sync folder     off ('set sync-folder PATH' to mirror snapshots)",
        ])
    }

    @Test func backupNowCountsWhatTheSnapshotHolds() async throws {
        let s = Screen()
        let text = await s.type("weigh 80.1", "habit add Read every day", "backup now")
        expectScreen(text, [
            "Snapshot written: 1 weigh-ins, 1 habits (<data>/Backups/Latest.json).",
        ])
    }
}
