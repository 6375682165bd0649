import Testing
import TestSupport

/// The exact text of `settings`: SettingsViewModel. At a fixed clock, 80 columns, no colour;
/// each screen is compared with its file in `Expected/`.
@MainActor
@Suite struct SettingsScreenTests {
    @Test func settingsListsEveryChoice() async throws {
        let s = Screen()
        let text = await s.type("set unit st", "goal 11st 4lb", "settings")
        try expectScreen(text, matches: "settingsListsEveryChoice")
    }
}
