import Foundation
import Testing
import TestSupport
@testable import TrendREPL

/// Issue 32, item 12: with the clock set back behind the weigh-ins, the check-in says they are dated
/// after now (not "no weigh-ins yet"), and a weigh-in made then is the check-in's latest.
@MainActor
@Suite struct ClockSetBackTests {
    @Test func weighInsDatedAfterNowAreNamedAndANewOneIsTheLatest() async throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let clock = TestClock(date("2026-06-15 08:00"))
        let graph = makeTestApp(clock: clock, directory: temp.url)
        let session = ReplSession(app: graph.app, json: false, style: .plain, isInteractive: false)
        #expect(await session.execute("weigh 80.4").succeeded)
        clock.now = date("2026-06-13 09:00")
        let today = await session.execute("today")
        #expect(today.text.contains("Your weigh-ins are dated after now (the latest 2026-06-15 08:00)"), "\(today.text)")
        #expect(!today.text.contains("No weigh-ins yet"))
        let json = ReplSession(app: graph.app, json: true, style: .plain, isInteractive: false)
        let document = try #require(try JSONSerialization.jsonObject(with: Data((await json.execute("today")).text.utf8)) as? [String: Any])
        #expect(document["laterWeighInAt"] as? String == "2026-06-15T08:00:00Z" && document["latestKilograms"] is NSNull)
        let weighed = await session.execute("weigh 81.2")
        #expect(weighed.text.contains("weight   81.2 kg at 09:00"), "the new weigh-in is the check-in's latest:\n\(weighed.text)")
    }
}
