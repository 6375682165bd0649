import Foundation
import Habits
import Storage
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

    /// `habit show` hands insights the habit its grammar found: its days are read by its id, never by its name again,
    /// cold (nothing loaded) and warm. A habit another process renamed in between is still the one reported on.
    @Test func oneHabitsReportReadsItsDaysByTheIdItWasFoundBy() async throws {
        let store = LocalDataStore.inMemory()
        let clock = TestClock(date("2026-06-15 08:00"))
        let writer = makeTestApp(store: store, clock: clock).app
        try await writer.weightEntryFeature.record(kilograms: 80, when: .current)
        let gym = try await writer.habitsFeature.add(name: "Gym", schedule: .timesPerWeek(3), kind: .yesNo)
        _ = try await writer.habitsFeature.mark("Gym", when: .yesterday, as: .done)
        var found = gym
        for (warm, renamed) in [(false, "Weights"), (true, "Lifting")] {
            let shower = makeTestApp(store: store, clock: clock).app
            if warm {
                try await shower.habitsFeature.load()
                found = try shower.habitsFeature.habit(named: found.name == "Gym" ? "Weights" : found.name)
            }
            // Another process renames it after the grammar found it.
            try await LocalHabitsRepository(store: store).update(
                Habit(id: gym.id, name: renamed, schedule: gym.schedule, kind: gym.kind, createdDay: gym.createdDay), journal: nil)
            let input = try await InsightsInput.read(weights: shower.weightEntryFeature, habits: shower.habitsFeature,
                                                     onlyHabit: (found.id, found.name))
            #expect(input.habits.map(\.doneDays) == [[DayNumber.from(year: 2026, month: 6, day: 14)]], "warm: \(warm)")
            // Read from storage, the name the grammar found names nothing now (in memory the habits were read before
            // the rename, which a command in another process would see).
            if !warm {
                await #expect(throws: HabitsError.self) {
                    _ = try await InsightsInput.read(weights: shower.weightEntryFeature, habits: shower.habitsFeature, onlyHabit: (nil, found.name))
                }
            }
        }
    }
}

/// A habit kept for years before the first weigh-in: insights read its days from a week before that weigh-in on
/// (`InsightsCalculator.daysBeforeFirstWeighIn`), and find exactly what they find from every day of it in memory.
@MainActor
@Suite struct InsightsReadFromTheFirstWeighInTests {
    @Test func readingFromAWeekBeforeTheFirstWeighInFindsWhatEveryDayFinds() async throws {
        let store = LocalDataStore.inMemory()
        let today = DayNumber.from(year: 2026, month: 6, day: 15)
        // Three years of a daily habit and a three-times-a-week one, done on a pattern, some days skipped.
        var run: [Int: HabitMark] = [:], gym: [Int: HabitMark] = [:]
        for day in (today - 1_100)...today {
            if day % 3 == 0 { run[day] = .done } else if day % 11 == 0 { run[day] = .skipped }
            if day % 7 < 3 { gym[day] = .done }
        }
        let repository = LocalHabitsRepository(store: store)
        try await repository.insert(Habit(name: "Run", schedule: .daily, kind: .yesNo, createdDay: today - 1_100, marks: run), journal: nil)
        try await repository.insert(Habit(name: "Gym", schedule: .timesPerWeek(3), kind: .yesNo, createdDay: today - 1_100, marks: gym), journal: nil)
        // A hundred and twenty days of weigh-ins, lighter the morning after a run.
        let writer = makeTestApp(store: store).app
        for offset in stride(from: 120, through: 1, by: -1) {
            let day = today - offset
            let (year, month, dayOfMonth) = DayNumber.civil(day)
            let kilograms = 80 - Double(offset) * 0.01 - (run[day - 1] == .done ? 0.3 : 0) + Double(day % 5) * 0.05
            try await writer.weightEntryFeature.record(kilograms: kilograms, when: .dayTime(year: year, month: month, day: dayOfMonth, hour: 7, minute: 0))
        }
        // A new graph reads the days from storage (nothing loaded), from a week before the first weigh-in.
        let cold = makeTestApp(store: store).app
        let coldInput = try await InsightsInput.read(weights: cold.weightEntryFeature, habits: cold.habitsFeature)
        let readDays = try #require(coldInput.habits.first { $0.name == "Run" }).doneDays
        #expect(readDays.min() ?? 0 >= today - 121 - InsightsCalculator.daysBeforeFirstWeighIn, "days long before the weigh-ins are not read")
        #expect(coldInput.habits.map(\.firstDay) == [today - 1_100, today - 1_100])
        let fromStorage = try await cold.insightsFeature.report(), habitFromStorage = try await cold.insightsFeature.report(forHabitNamed: "Run")
        // The same graph with every day of every habit in memory.
        try await cold.habitsFeature.load()
        let everyDay = try await InsightsInput.read(weights: cold.weightEntryFeature, habits: cold.habitsFeature)
        #expect(try #require(everyDay.habits.first { $0.name == "Run" }).doneDays.count > readDays.count)
        #expect(fromStorage == (try await cold.insightsFeature.report()))
        // Computed here, not through the Feature: it would give back the report it kept (`KeptHabitInsights`).
        let runOnly = InsightsInput(weighIns: everyDay.weighIns, habits: everyDay.habits.filter { $0.name == "Run" }, today: everyDay.today)
        #expect(habitFromStorage == InsightsCalculator.report(runOnly, patterns: false))
        #expect(fromStorage.tested.contains { $0.habit == "Run" && $0.kind == .nextMorning }, "the effect is tested at all")
    }
}

/// `habit show`'s report is kept in `meta` while nothing changes (`KeptHabitInsights`): it is read back then, and
/// computed again after a change, on another day, or when what is kept cannot be read.
@MainActor
@Suite struct KeptHabitInsightsTests {
    private static func keptText(_ store: LocalDataStore) throws -> String? { try store.metaValue(KeptHabitInsights.metaKey) }

    @Test func theReportIsKeptUntilTheDataOrTheDayMoves() async throws {
        let store = LocalDataStore.inMemory()
        let clock = TestClock(date("2026-06-15 08:00"))
        let app = makeTestApp(store: store, clock: clock).app
        let today = DayNumber.from(year: 2026, month: 6, day: 15)
        var marks: [Int: HabitMark] = [:]
        for day in (today - 60)...today where day % 2 == 0 { marks[day] = .done }
        try await LocalHabitsRepository(store: store).insert(Habit(name: "Run", schedule: .daily, kind: .yesNo, createdDay: today - 60, marks: marks),
                                                             journal: nil)
        for offset in stride(from: 40, through: 1, by: -1) {
            let (year, month, day) = DayNumber.civil(today - offset)
            try await app.weightEntryFeature.record(kilograms: 80 + Double(offset % 3) * 0.2, when: .dayTime(year: year, month: month, day: day, hour: 7, minute: 0))
        }
        let computed = try await app.insightsFeature.report(forHabitNamed: "Run")
        let kept = try #require(try Self.keptText(store))
        #expect(kept.contains("habit\tRun\n"), "the report is kept once computed")
        // What is kept is what is given back while nothing changes: a kept report told apart by its last day.
        let firstDay = computed.firstDay.map(String.init) ?? ""
        func marked(_ text: String) -> String {
            text.replacingOccurrences(of: "report\t\(firstDay)\t\(computed.lastDay)", with: "report\t\(firstDay)\t1")
        }
        #expect(marked(kept) != kept)
        try store.setMetaValue(marked(kept), for: KeptHabitInsights.metaKey)
        #expect(try await app.insightsFeature.report(forHabitNamed: "Run").lastDay == 1)
        // A weigh-in is a change: the report is computed again, and kept anew.
        try await app.weightEntryFeature.record(kilograms: 80.4, when: .dayTime(year: 2026, month: 6, day: 15, hour: 7, minute: 30))
        let afterWeighIn = try await app.insightsFeature.report(forHabitNamed: "Run")
        #expect(afterWeighIn.lastDay == computed.lastDay, "after a change the report kept before is not given back")
        try store.setMetaValue(marked(try #require(try Self.keptText(store))), for: KeptHabitInsights.metaKey)
        // A new day is another moment: computed again, through the new day.
        clock.advance(by: 86_400)
        #expect(try await app.insightsFeature.report(forHabitNamed: "Run").lastDay == computed.lastDay + 1)
        // What cannot be read is none: computed again, not a failure.
        try store.setMetaValue(try #require(try Self.keptText(store)) + "\ntest\tweekly\t\t\tnot a number", for: KeptHabitInsights.metaKey)
        #expect(try await app.insightsFeature.report(forHabitNamed: "Run").lastDay == computed.lastDay + 1)
    }
}

/// The compact form a report is kept in reads back exactly what was written, every bit of every number, and refuses
/// anything of another shape.
@Suite struct KeptReportTextTests {
    @Test func aReportReadsBackExactlyAndAnythingElseIsRefused() throws {
        var done = Insight(kind: .nextMorning, habit: "Run", weekday: nil,
                           estimate: Statistics.Estimate(value: -0.1 - 0.2, lower: -1 / 3, upper: 1e-300, pValue: 0.049999999999999996),
                           count: 12, otherCount: 40)
        done.reported = true
        let weekday = Insight(kind: .weekday, habit: nil, weekday: 6, estimate: Statistics.Estimate(value: 0.25, lower: 0.1, upper: 0.4, pValue: 0.01),
                              count: 9, otherCount: 0)
        var shortage = InsightShortage(kind: .weekly, habit: "Café sans sucre", have: 3, need: 8)
        (shortage.with, shortage.without) = (3, 0)
        let report = InsightsReport(firstDay: 20_000, lastDay: 20_100, tested: [done, weekday], shortages: [shortage])
        #expect(InsightsReport(keptText: report.keptText) == report)
        let open = InsightsReport(firstDay: nil, lastDay: 5, tested: [], shortages: [])
        #expect(InsightsReport(keptText: open.keptText) == open)
        for broken in ["", "report\t\t", "report\tx\t5", "report\t\t5\ntest\tnextMorning\t\t\t1\t2\t3\t4\t5\t6",
                       "report\t\t5\ntest\tnextMorning\t\t\t1\t2\t3\t4\t5\t6\t2", "report\t\t5\nshort\tsomething\t\t1\t2\t3\t4",
                       report.keptText + "\n", report.keptText + "\textra"] {
            #expect(InsightsReport(keptText: broken) == nil, "\(broken.debugDescription)")
        }
    }
}
