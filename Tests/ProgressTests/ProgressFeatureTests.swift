import Foundation
import Storage
import Settings
import Testing
import TestSupport
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
