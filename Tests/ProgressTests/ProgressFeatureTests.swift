import Foundation
import Testing
import TestSupport
import Vocabulary
import WeightLog
@testable import Progress

@MainActor
@Suite struct ProgressFeatureTests {
    @Test func theChosenRangeOutlivesTheSession() async throws {
        let first = makeTestApp(store: .inMemory())
        let store = first.store
        #expect(first.app.progressFeature.selectedProgressRange == .quarter)
        try await first.app.progressFeature.selectProgressRange(.halfYear)

        let second = makeTestApp(store: store)
        let data = try await second.app.progressFeature.prepare()
        #expect(data.range == .halfYear)
        #expect(second.app.progressFeature.selectedProgressRange == .halfYear)
    }

    @Test func recordingAWeighInRefreshesTheProgressShown() async throws {
        let graph = makeTestApp()
        let progress = graph.app.progressFeature
        _ = try await progress.prepare()
        #expect(progress.progressSnapshot?.points.isEmpty == true)

        try await graph.app.weightEntryFeature.record(kilograms: 80, when: .yesterday)
        #expect(progress.progressSnapshot?.points.map(\.kilograms) == [80])
        let entry = try await graph.app.weightEntryFeature.record(kilograms: 79)
        #expect(progress.progressSnapshot?.points.map(\.kilograms) == [80, 79])
        _ = try await graph.app.weightEntryFeature.delete(id: entry.id)
        #expect(progress.progressSnapshot?.points.map(\.kilograms) == [80])
    }

    @Test func aGoalIsSetUsedAndCleared() async throws {
        let graph = makeTestApp()
        let progress = graph.app.progressFeature
        try await graph.app.weightEntryFeature.record(kilograms: 80)
        try await progress.setGoal(kilograms: 75)
        #expect(try await progress.prepare().goalKilograms == 75)
        try await progress.setGoal(kilograms: nil)
        #expect(try await progress.prepare().projectionUnavailableReason == .noGoal)
    }

    @Test func midnightMovesTheWindow() async throws {
        let graph = makeTestApp(clock: TestClock(date("2026-06-07 23:00")))
        try await graph.app.weightEntryFeature.record(kilograms: 80, when: .day(year: 2026, month: 6, day: 1))
        #expect(try await graph.app.progressFeature.selectProgressRange(.week).points.count == 1)
        graph.clock.advance(by: 2 * 60 * 60)
        await graph.app.applicationSignificantTimeChange()
        #expect(try await graph.app.progressFeature.prepare().points.isEmpty)
    }

    @Test func aLargeHistoryIsComputedOffTheMainActorWithTheSameAnswer() async throws {
        let days = LocalDays(timeZone: TimeZone(identifier: "UTC")!)
        let count = ProgressTracker.offMainActorThreshold + 10
        let seconds = (0..<count).map { Double($0) * 86_400 }
        let weights = (0..<count).map { 80 + sin(Double($0) / 30) }
        let series = DailySeries(sortedSeconds: seconds, kilograms: weights, localDays: days)
        let tracker = ProgressTracker()
        let today = count - 1
        let data = await tracker.update(series: series, today: today, range: .year, goalKilograms: nil)
        // The trend worked out here, one day at a time: 10 % of the gap each day.
        var trend = weights[0]
        for weight in weights.dropFirst() { trend += 0.1 * (weight - trend) }
        #expect(data.points.count == 365)
        #expect(abs((data.latestTrendKilograms ?? 0) - trend) < 1e-9)
        #expect(abs((data.points.last?.smoothedKilograms ?? 0) - trend) < 1e-9)
        #expect(tracker.snapshot == data)
        #expect(!tracker.isLoading)
    }
}

/// Issue 16: progress takes every RANGE form.
@Suite struct ProgressRangeTests {
    let today = DayNumber.from(year: 2026, month: 6, day: 17)

    @Test func everyFormIsAWindowEndingTodayOrOnItsLastDay() throws {
        func window(_ name: String) throws -> (Int?, String?) {
            let range = try #require(ProgressRange(name: name, today: today), "\(name)")
            return (range.days, range.endDay.map(DayNumber.string))
        }
        #expect(try window("3m") == (90, nil) && window("2w") == (14, nil) && window("45d") == (45, nil))
        #expect(try window("all") == (nil, nil))
        #expect(try window("2026-06") == (17, nil), "this month: its first day up to today")
        #expect(try window("2026") == (168, nil), "this year so far")
        #expect(try window("2026-02") == (28, "2026-02-28"), "a month that is over is shown as of its last day")
        #expect(try window("2025") == (365, "2025-12-31"))
        #expect(try window("2026-01-01..2026-01-31") == (31, "2026-01-31"))
        #expect(try window("..2026-01-31") == (nil, "2026-01-31"))
        #expect(ProgressRange(name: "3m", today: today) == .quarter, "the presets keep their names")
        #expect(ProgressRange(name: "fortnight", today: today) == nil && ProgressRange(name: "2027-01-01..2026-01-01", today: today) == nil)
    }
}
