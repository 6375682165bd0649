import Testing
import TestSupport

/// The exact text of `tip`: TipViewModel. At a fixed clock, 80 columns, no colour;
/// each screen is compared with its file in `Expected/`.
@MainActor
@Suite struct TipScreenTests {
    @Test func theTipOfTheDayNamesItsCategory() async throws {
        let s = Screen()
        let text = await s.type("tip")
        try expectScreen(text, matches: "theTipOfTheDayNamesItsCategory")
    }
}
