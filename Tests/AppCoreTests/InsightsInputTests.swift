import Foundation
import Habits
import Testing
import Vocabulary
import TestSupport
@testable import AppCore
@testable import Insights

/// What insights read from the real graph: each weigh-in's local day and
/// minute (DST-safe, from the calendar's zone), and each habit's done,
/// skipped and not-done days with its weekly quota.
@MainActor
@Suite struct InsightsInputTests {
    @Test func weighInsAndHabitsBecomeValues() async throws {
        let graph = makeTestApp(clock: TestClock(date("2026-06-15 08:00", zone: "Europe/Berlin")), calendar: calendar(zone: "Europe/Berlin"))
        let app = graph.app
        try await app.weightEntryFeature.record(kilograms: 80, when: .dayTime(year: 2026, month: 6, day: 14, hour: 7, minute: 30))
        try await app.weightEntryFeature.record(kilograms: 81, when: .dayTime(year: 2026, month: 6, day: 14, hour: 21, minute: 5))
        _ = try await app.habitsFeature.add(name: "Gym", schedule: .timesPerWeek(3), kind: .yesNo)
        _ = try await app.habitsFeature.add(name: "Water", schedule: .daily, kind: .atLeast(8))
        _ = try await app.habitsFeature.mark("Gym", when: .yesterday, as: .done)
        _ = try await app.habitsFeature.mark("Gym", as: .skipped)
        _ = try await app.habitsFeature.mark("Water", when: .yesterday, as: .value(0))
        _ = try await app.habitsFeature.mark("Water", as: .value(6))
        let input = try await InsightsInput.read(weights: app.weightEntryFeature, habits: app.habitsFeature)
        let day = DayNumber.from(year: 2026, month: 6, day: 14)
        #expect(input.weighIns.map(\.day) == [day, day] && input.weighIns.map(\.minute) == [7 * 60 + 30, 21 * 60 + 5])
        #expect(input.weighIns.map(\.kilograms) == [80, 81] && input.today == day + 1)
        let gym = try #require(input.habits.first { $0.name == "Gym" }), water = try #require(input.habits.first { $0.name == "Water" })
        #expect(gym.doneDays == [day] && gym.skippedDays == [day + 1] && gym.weeklyQuota == 3)
        // An amount of zero is a day not done; any amount above it is done.
        #expect(water.doneDays == [day + 1] && water.weeklyQuota == 5)
        #expect(InsightsInput.weeklyQuota(.weekdays([0, 2, 4])) == 3 && InsightsInput.weeklyQuota(.timesPerDays(times: 1, days: 2)) == 4)
        let report = try await app.insightsFeature.report()
        #expect(report.tested.isEmpty && report.shortages.contains { $0.habit == "Gym" && $0.kind == .nextMorning })
    }
}
