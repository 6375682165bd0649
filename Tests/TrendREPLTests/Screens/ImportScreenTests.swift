import Testing
import TestSupport

/// The exact text of `import`: ImportViewModel. At a fixed clock, 80 columns, no colour;
/// each screen is compared with its file in `Expected/`.
@MainActor
@Suite struct ImportScreenTests {
    @Test func aPreviewCountsNewRowsAndWritesNothing() async throws {
        let s = Screen()
        let text = await s.type("set unit lb", "import \(fixtureURL("export-v1.csv").path) preview")
        try expectScreen(text, matches: "aPreviewCountsNewRowsAndWritesNothing")
    }

    @Test func anImportSaysWhatItAdded() async throws {
        let s = Screen()
        let text = await s.type("import \(fixtureURL("export-v1.json").path)")
        try expectScreen(text, matches: "anImportSaysWhatItAdded")
    }
}
