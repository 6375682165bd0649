import Foundation
import Testing
import TestSupport
@testable import TrendREPL

/// The exact text of `import`: ImportViewModel. At a fixed clock, 80 columns, no colour.
@MainActor
@Suite struct ImportScreenTests {
    @Test func aPreviewCountsNewRowsAndWritesNothing() async throws {
        let s = Screen()
        let text = await s.type("set unit lb", "import \(fixtureURL("export-v1.csv").path) preview")
        expectScreen(text, [
            "Format: CSV (date, weight, unit, note)",
            "Unit: lb",
            "Dates: 2026-01-05 07:10 to 2026-01-08 06:55",
            "4 new, 0 already here, 0 invalid",
            "Nothing was written. Run the same command without 'preview' to import.",
        ])
    }

    @Test func anImportSaysWhatItAdded() async throws {
        let s = Screen()
        let text = await s.type("import \(fixtureURL("export-v1.json").path)")
        expectScreen(text, [
            "Format: Trend JSON export",
            "Unit: kg",
            "Dates: 2026-01-05 07:10 to 2026-01-08 06:55",
            "4 new, 0 already here, 0 invalid",
            "Imported 4 weigh-ins.",
        ])
    }
}
