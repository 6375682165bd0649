import Foundation
import Testing
import TestSupport
@testable import TrendREPL

/// Issue 28, item 8: the words people type for a command are read as the command.
@MainActor
@Suite struct EverydayPhrasesTests {
    @Test func phrasesAndTheLatestWeighIn() async throws {
        let session = ReplSession(app: makeTestApp(clock: TestClock(date("2026-05-20 09:00"))).app, json: false, style: .plain, isInteractive: false)
        #expect(await session.execute("add habit Read every day").text.hasPrefix("Added 'Read'"))
        #expect(await session.execute("new habit Gym 3/week").text.hasPrefix("Added 'Gym'"))
        #expect(await session.execute("habits today").succeeded)
        #expect(await session.execute("weight 82.4 this morning").text.hasPrefix("Recorded 82.4 kg at 2026-05-20 07:00"))
        #expect(await session.execute("weigh 82.6 yesterday at 7:30pm").text.hasPrefix("Recorded 82.6 kg at 2026-05-19 19:30"))
        let edited = await session.execute("edit last 82.3")
        #expect(edited.succeeded && edited.text.contains("82.4 kg → 82.3 kg"), "\(edited.text)")
        #expect(await session.execute("delete last").succeeded)
        let left = try await session.app.weightEntryFeature.allEntries()
        #expect(left.map(\.kilograms) == [82.6])
        #expect(await session.execute("clear").text.isEmpty, "nothing to clear in a script")
    }
}
