import Foundation
import Testing
import TestSupport
@testable import TrendREPL

/// The exact text of `settings`: SettingsViewModel. At a fixed clock, 80 columns, no colour.
@MainActor
@Suite struct SettingsScreenTests {
    @Test func settingsListsEveryChoice() async throws {
        let s = Screen()
        let text = await s.type("set unit st", "goal 11st 4lb", "settings")
        expectScreen(text, [
            "unit            st",
            "goal            11 st 4.0 lb",
            "progress range  3m",
            "sync folder     off",
            "data directory  <data>",
        ])
    }
}
