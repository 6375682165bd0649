import Foundation
import Testing
import TestSupport
@testable import TrendREPL

/// The exact text of `tip`: TipViewModel. At a fixed clock, 80 columns, no colour.
@MainActor
@Suite struct TipScreenTests {
    @Test func theTipOfTheDayNamesItsCategory() async throws {
        let s = Screen()
        let text = await s.type("tip")
        expectScreen(text, [
            "Tip (sleep): Leave your phone to charge outside the bedroom tonight.",
        ])
    }
}
