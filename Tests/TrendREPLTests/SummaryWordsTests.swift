import Foundation
import Testing
import TestSupport
@testable import TrendREPL

/// Issue 28, items 3, 7 and 8, at the prompt: a summary never says "0 of 0
/// due", a week too short for an honest rate says so, and the words people
/// type for a span are read.
@MainActor
@Suite struct SummaryWordsTests {
    func session() async -> ReplSession {
        let graph = makeTestApp(clock: TestClock(date("2026-06-17 08:00")))
        let session = ReplSession(app: graph.app, json: false, style: .plain, isInteractive: false)
        for day in 8...16 { _ = await session.execute("weigh \(80 - Double(day) * 0.1) 2026-06-\(String(format: "%02d", day)) 07:00") }
        _ = await session.execute("habit add Drinks every day at-most 2")
        return session
    }

    @Test func anAtMostHabitIsNothingDueAndAShortWeekHasNoRate() async throws {
        let session = await session()
        let week = await session.execute("summary")
        #expect(week.succeeded)
        #expect(week.text.contains("too few days for a rate: 2 weighed over 3 days"), "\(week.text)")
        // Last week, before the habit was added, asked nothing of it.
        let before = await session.execute("summary last week")
        #expect(before.text.contains("Drinks: nothing due") && !before.text.contains("0 of 0"), "\(before.text)")
        #expect(!week.text.contains("a week through the days weighed"))
    }

    @Test func everydayWordsNameTheSpan() async throws {
        let session = await session()
        let lastWeek = await session.execute("summary last week")
        #expect(lastWeek.succeeded && lastWeek.text.contains("Mon 8 Jun to Sun 14 Jun 2026"), "\(lastWeek.text)")
        let entries = await session.execute("entries last week")
        #expect(entries.text.contains("7 weigh-ins"), "\(entries.text)")
        let progress = await session.execute("progress 2 weeks")
        // Two weeks asked, ten days weighed (8 to 17 June): the history is shown, and said so (issue 63, item 7).
        #expect(progress.succeeded && progress.text.hasPrefix("Progress, since your first weigh-in, 10 days"), "\(progress.text)")
        let refused = await session.execute("progress 2 fortnights")
        #expect(!refused.succeeded && refused.text.contains("'2 weeks'"), "\(refused.text)")
    }
}
