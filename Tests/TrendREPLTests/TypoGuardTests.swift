import Foundation
import Testing
import TestSupport
@testable import TrendREPL
import WeightLog

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
        // One question, and the one it asks is which weight to record (issue 28, item 11).
        #expect(question == "179.0 kg is far from your trend of 79.9 kg. 179 lb would be 81.2 kg, near it. Record 179.0 kg anyway?")
        #expect(question.filter { $0 == "?" }.count == 1)
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
        #expect(result.warnings == ["80.0 lb is far from your trend of 176.1 lb. 80 lb is 36.3 kg; 80 kg would be near it."])
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

    /// A slipped decimal point: 917 and 9.17 against a trend near 91.7 name 'weigh 91.7', far-off or out of range alike.
    @Test func aSlippedDecimalPointNamesTheWeightNearTheTrend() async throws {
        let graph = makeTestApp(clock: TestClock(date("2026-06-15 08:00")))
        let session = ReplSession(app: graph.app, json: false, style: .plain, isInteractive: false)
        for (day, weight) in [(10, 91.6), (12, 91.7), (14, 91.8)] { _ = await session.execute("weigh \(weight) 2026-06-\(day) 07:00") }
        for typed in ["917", "9.17"] {
            let result = await session.execute("weigh \(typed)")
            #expect(!result.succeeded && result.text.contains("did you mean 'weigh 91.7'?"), "\(typed): \(result.text)")
        }
        let far = await session.execute("weigh 57.1")
        #expect(far.warnings.first?.contains("57.1 kg is far") == true && far.warnings.first?.contains("would be near it") == false)
        #expect(WeighInConcern.decimalSlip(of: "917", unit: .kilograms, trendKilograms: 91.7) == "91.7")
        #expect(WeighInConcern.decimalSlip(of: "8.24", unit: .kilograms, trendKilograms: 82.4) == "82.4")
        #expect(WeighInConcern.decimalSlip(of: "120", unit: .kilograms, trendKilograms: 91.7) == nil)
    }
}
