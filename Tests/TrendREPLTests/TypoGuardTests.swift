import Foundation
import Testing
import TestSupport
@testable import TrendREPL

/// A weigh-in that looks like a slip (far from the trend, a unit mixed up, the
/// same weight again within two minutes) is asked about on a terminal and
/// recorded with a warning in a script.
@MainActor
@Suite struct TypoGuardTests {
    func session(interactive: Bool, answer: Bool = false, asked: @escaping (String) -> Void = { _ in }) async -> ReplSession {
        let graph = makeTestApp(clock: TestClock(date("2026-06-15 08:00")))
        let session = ReplSession(app: graph.app, json: false, style: .plain, isInteractive: interactive)
        session.confirm = { question in
            asked(question)
            return answer
        }
        for (day, weight) in [(10, 80.0), (12, 79.8), (14, 79.6)] {
            _ = await session.execute("weigh \(weight) 2026-06-\(day) 07:00")
        }
        return session
    }

    @Test func onATerminalATypoIsAskedAboutAndNothingIsRecordedOnNo() async throws {
        var question = ""
        let session = await session(interactive: true, answer: false) { question = $0 }
        let result = await session.execute("weigh 179")
        #expect(question == "179.0 kg is far from your trend of 79.9 kg. Did you mean 179 lb (81.2 kg)? Record it anyway?")
        #expect(result.text == "Nothing was recorded.")
        #expect((try await session.app.weightEntryFeature.allEntries()).count == 3)
    }

    @Test func inAScriptATypoIsRecordedWithAWarning() async throws {
        var asked = false
        let session = await session(interactive: false) { _ in asked = true }
        _ = await session.execute("set unit lb")
        // In pounds, 80 typed for kilograms: the mix-up the guard names.
        let result = await session.execute("weigh 80")
        #expect(!asked)
        #expect(result.warnings == ["80.0 lb is far from your trend of 176.1 lb. 80 lb is 36.3 kg; did you mean 80 kg?"])
        #expect((try await session.app.weightEntryFeature.allEntries()).count == 4)
    }

    @Test func theSameWeightTwiceWithinTwoMinutesIsASlipToo() async throws {
        let session = await session(interactive: false)
        _ = await session.execute("weigh 79.5")
        let again = await session.execute("weigh 79.5")
        #expect(again.warnings.count == 1 && again.warnings[0].hasSuffix("already."), "\(again.warnings)")
        let plausible = await session.execute("weigh 79.4")
        #expect(plausible.warnings.isEmpty)
    }
}
