import Testing
import TestSupport

/// The exact text of `help`: HelpViewModel. At a fixed clock, 80 columns, no colour;
/// each screen is compared with its file in `Expected/`.
@MainActor
@Suite struct HelpScreenTests {
    /// The command list, wrapped to 80 columns.
    @Test func helpListsEveryCommandInEightyColumns() async throws {
        let s = Screen()
        let text = await s.type("help")
        try expectScreen(text, matches: "helpListsEveryCommandInEightyColumns")
    }

    @Test func helpForOneCommandShowsItsAliasesAndExamples() async throws {
        let s = Screen()
        let text = await s.type("help weigh")
        try expectScreen(text, matches: "helpForOneCommandShowsItsAliasesAndExamples")
    }
}
