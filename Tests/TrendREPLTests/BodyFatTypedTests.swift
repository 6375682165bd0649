import Foundation
import Testing
import TestSupport
@testable import TrendREPL

/// Issue 31, item 1 (and issue 28's `weigh 89.2 fat 25%`): body fat typed with
/// a weigh-in or on its own, checked once by `WeightEntry.validate()`, undone like any change.
@MainActor
@Suite struct BodyFatTypedTests {
    func session() -> ReplSession {
        ReplSession(app: makeTestApp(clock: TestClock(date("2026-06-15 08:00"))).app, json: false, style: .plain, isInteractive: false)
    }

    func fats(_ session: ReplSession) async throws -> [Double?] {
        try await session.app.weightEntryFeature.allEntries().sorted { $0.date < $1.date }.map(\.bodyFatPercent)
    }

    @Test func typedWithAWeighInBeforeOrAfterTheWhen() async throws {
        let session = session()
        #expect(await session.execute("weigh 82.4 fat 23.5%").succeeded)
        #expect(await session.execute("weigh 82.6 yesterday fat 24 %").succeeded)
        #expect(await session.execute("weigh 82.8 fat 24.2 2026-06-10 07:00 note after the run").succeeded)
        #expect(try await fats(session) == [24.2, 24, 23.5])
        let notes = try await session.app.weightEntryFeature.allEntries().compactMap(\.note)
        #expect(notes == ["after the run"])
    }

    @Test func onItsOwnOntoTheDaysLatestWeighInAndUndone() async throws {
        let session = session()
        _ = await session.execute("weigh 82.4 2026-06-15 07:00")
        _ = await session.execute("weigh 82.2 2026-06-15 07:30")
        let added = await session.execute("fat 23.1%")
        #expect(added.succeeded && added.text.contains("23.1 %") && added.text.contains("82.2 kg"), "\(added.text)")
        #expect(try await fats(session) == [nil, 23.1])
        #expect(await session.execute("undo").succeeded)
        #expect(try await fats(session) == [nil, nil])
    }

    @Test func refusalsSayWhatWasWrongAndChangeNothing() async throws {
        let session = session()
        _ = await session.execute("weigh 82.4")
        for (line, reason) in [("fat 90", "outside 1–75 %"), ("fat 23 yesterday", "no weigh-in on 2026-06-14"),
                               ("weigh 80 fat", "'fat' needs a percent"), ("weigh 80 fat lots", "'fat' needs a percent"),
                               ("weigh 80 fat 0.5%", "outside 1–75 %"), ("fat", "needs a percent"), ("fat 23 please", "'please' is not a WHEN")] {
            let result = await session.execute(line)
            #expect(!result.succeeded && result.text.contains(reason), "\(line): \(result.text)")
        }
        #expect(try await fats(session) == [nil])
        #expect(try await session.app.weightEntryFeature.allEntries().count == 1)
    }
}
