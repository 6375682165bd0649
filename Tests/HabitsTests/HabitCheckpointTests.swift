import Foundation
import Storage
import Testing
import TestSupport
@testable import Habits
import Vocabulary

/// Issue 19: `habits` goes on from a stored checkpoint instead of walking
/// decades of days, and gives the numbers the whole walk gives, to the last bit.
@Suite struct HabitCheckpointTests {
    /// A seeded generator, so a failure names the case that makes it.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state ^ (state >> 29)
        }
    }

    static let kinds: [(name: String, schedule: HabitSchedule, kind: HabitKind)] = [
        ("daily yes/no", .daily, .yesNo),
        ("weekdays", .weekdays([1, 3, 5]), .yesNo),
        ("at least 8 a day", .daily, .atLeast(8)),
        ("at most 2 a day", .daily, .atMost(2)),
        ("at least 5 three times a week", .timesPerWeek(3), .atLeast(5)),
        ("at least 30 in 10 days", .timesPerDays(times: 2, days: 10), .atLeast(30)),
    ]

    /// A habit of `kind` with a year and a half of random marks: runs of done days, gaps, skips, noes, numbers.
    static func habit(_ index: Int, seed: UInt64) -> (Habit, today: Int) {
        var random = Seeded(state: seed)
        let (name, schedule, kind) = kinds[index]
        let created = 20_000 + Int.random(in: 0..<7, using: &random)
        var habit = Habit(name: name, schedule: schedule, kind: kind, createdDay: created)
        var streak = false
        for day in created..<(created + 540) {
            if Int.random(in: 0..<10, using: &random) == 0 { streak.toggle() }
            let roll = Int.random(in: 0..<20, using: &random)
            if roll == 0 { habit.marks[day] = .skipped; continue }
            if roll == 1 { habit.marks[day] = .no; continue }
            guard streak || roll < 6 else { continue }
            habit.marks[day] = kind.isNumeric ? .value(Double(Int.random(in: 0...12, using: &random))) : .done
        }
        // A mark before the creation day, as a backfill makes.
        habit.marks[created - 3] = kind.isNumeric ? .value(9) : .done
        return (habit, created + 560)
    }

    /// The habit as the lean read gives it: the marks the walk on reads, and its first day kept.
    static func partial(_ habit: Habit, from checkpoint: HabitCheckpoint, statistics: HabitStatistics) -> Habit {
        var partial = habit
        let since = checkpoint.throughDay - HabitCheckpoint.daysBefore(for: statistics.frequency)
        partial.createdDay = habit.firstDay
        partial.marks = habit.marks.filter { $0.key >= since }
        return partial
    }

    @Test(arguments: 0..<kinds.count)
    func aWalkFromACheckpointEndsWhereTheWholeWalkEnds(kind index: Int) throws {
        for seed: UInt64 in 1...12 {
            let (habit, today) = Self.habit(index, seed: seed)
            let statistics = HabitStatistics(habit: habit, today: today)
            guard statistics.canResume else { continue }
            let computed = statistics.computedEntries()
            let whole = statistics.walk(computed: computed)
            var random = Seeded(state: seed &* 31)
            for throughDay in [habit.firstDay, today - 8, today - 1] + (0..<6).map({ _ in Int.random(in: habit.firstDay..<today, using: &random) }) {
                let checkpoint = try #require(whole.checkpoint(at: throughDay), "\(habit.name) seed \(seed) day \(throughDay)")
                let lean = Self.partial(habit, from: checkpoint, statistics: statistics)
                let resumed = HabitStatistics(habit: lean, today: today)
                let leanComputed = resumed.computedEntries()
                let walked = resumed.walk(computed: leanComputed, from: checkpoint)
                let where_ = "\(habit.name), seed \(seed), from day \(throughDay)"
                #expect(walked.strength == whole.strength, "\(where_)")
                #expect(walked.scores == Array(whole.scores.suffix(walked.scores.count)), "\(where_): every later day's score")
                #expect(walked.bestStreak == whole.bestStreak, "\(where_)")
                #expect(resumed.currentStreak(streaks: walked.streaks) == statistics.currentStreak(streaks: whole.streaks), "\(where_)")
                #expect(resumed.isCompletedToday(computed: leanComputed) == statistics.isCompletedToday(computed: computed), "\(where_)")
                #expect(lean.isDue(on: today) == habit.isDue(on: today), "\(where_)")
                // A checkpoint taken on the resumed walk (after where it resumed) is the one the whole walk gives.
                if throughDay < today - 2 {
                    #expect(walked.checkpoint(at: today - 2) == whole.checkpoint(at: today - 2), "\(where_)")
                } else {
                    #expect(walked.checkpoint(at: today - 2) == nil, "\(where_): the walk began after that day")
                }
            }
        }
    }

    @Test func quotasOfYesNoDaysAreAlwaysWalkedWhole() {
        // A later check slides Loop's intervals back over earlier days: no checkpoint can stand.
        for schedule in [HabitSchedule.timesPerWeek(3), .timesPerDays(times: 2, days: 10)] {
            let habit = Habit(name: "Run", schedule: schedule, kind: .yesNo, createdDay: 20_000)
            #expect(!HabitStatistics(habit: habit, today: 20_100).canResume)
        }
        #expect(HabitStatistics(habit: Habit(name: "Run", schedule: .timesPerWeek(7), kind: .yesNo, createdDay: 20_000), today: 20_100)
            .canResume, "7 times a week is every day")
    }
}

/// The checkpoints in SQLite: written by a cold `habits` list, deleted by the
/// triggers when a mark on or before their day or the habit changes.
@MainActor
@Suite struct HabitCheckpointStoreTests {
    func checkpointDays(_ store: LocalDataStore) throws -> [Int] {
        try store.read { try $0.query("SELECT through_day FROM habit_checkpoints ORDER BY habit_id") { $0.int(0) } }
    }

    /// Two habits with 400 days of marks, written straight into the tables.
    func seeded(clock: TestClock) async throws -> (LocalDataStore, TestGraph) {
        let store = LocalDataStore.inMemory()
        let graph = makeTestApp(store: store, clock: clock)
        let habits = graph.app.habitsFeature
        try await habits.add(name: "Read", schedule: .daily, kind: .yesNo)
        try await habits.add(name: "Water", schedule: .weekdays([1, 2, 3, 4, 5]), kind: .atLeast(8))
        let today = habits.today
        try store.write { connection in
            for habit in habits.habits {
                for day in (today - 400)..<today where day % 5 != 0 {
                    try HabitsTable.setMark(habit.kind.isNumeric ? .value(Double(day % 11)) : (day % 13 == 0 ? .skipped : .done),
                                            habitID: habit.id, day: day, in: connection)
                }
            }
        }
        return (store, graph)
    }

    /// The lean list and the whole one from a fresh graph on the same store.
    func bothLists(_ store: LocalDataStore, clock: TestClock) async throws -> (lean: [[String]], whole: [[String]]) {
        let lean = try await makeTestApp(store: store, clock: clock).app.habitsFeature.summariesReadingLittle()
        let whole = makeTestApp(store: store, clock: clock).app.habitsFeature
        try await whole.load()
        return (lean.map(\.numbers), whole.summaries().map(\.numbers))
    }

    @Test func aColdListWritesCheckpointsAndAnEarlierMarkOrAnEditDeletesThem() async throws {
        let clock = TestClock(date("2026-06-10 09:00"))
        let (store, graph) = try await seeded(clock: clock)
        let today = graph.app.habitsFeature.today
        var lists = try await bothLists(store, clock: clock)
        #expect(lists.lean == lists.whole)
        let settled = today - HabitCheckpoint.settledDays
        #expect(try checkpointDays(store) == [settled, settled])

        // Read again from the checkpoints: the same numbers.
        lists = try await bothLists(store, clock: clock)
        #expect(lists.lean == lists.whole)

        // A mark after the checkpoint's day leaves it; one on or before it deletes it: a new
        // day's (an insert), a changed one's (an update), and its undo (a delete).
        func daysAgo(_ days: Int) -> WhenInput { .relative(.daysAgo(days), hour: nil, minute: nil) }
        let unmarked = (HabitCheckpoint.settledDays...).first { (today - $0) % 5 == 0 }!, marked = unmarked + 1
        _ = try await graph.app.habitsFeature.mark("Read", when: daysAgo(3), as: .no)
        #expect(try checkpointDays(store).count == 2)
        for (days, what) in [(unmarked, "a new mark"), (marked, "a changed mark")] {
            _ = try await graph.app.habitsFeature.mark("Read", when: daysAgo(days), as: .no)
            #expect(try checkpointDays(store).count == 1, "\(what): Read's checkpoint is gone; Water's stays")
            lists = try await bothLists(store, clock: clock)
            #expect(lists.lean == lists.whole, "\(what)")
            #expect(try checkpointDays(store).count == 2, "the next cold list writes it again")
        }
        // Undo goes through the same triggers: the changed mark back, then the new one gone.
        for _ in 0..<2 {
            _ = try store.undoLatestChange()
            #expect(try checkpointDays(store).count == 1)
            lists = try await bothLists(store, clock: clock)
            #expect(lists.lean == lists.whole)
        }

        // A new target changes every day's meaning.
        _ = try await graph.app.habitsFeature.edit("Water", kind: .atLeast(4))
        #expect(try checkpointDays(store).count == 1)
        lists = try await bothLists(store, clock: clock)
        #expect(lists.lean == lists.whole)

        // A month on, the checkpoints move on too.
        clock.now = clock.now.addingTimeInterval(40 * 86_400)
        lists = try await bothLists(store, clock: clock)
        #expect(lists.lean == lists.whole)
        #expect(try checkpointDays(store) == [settled + 40, settled + 40])
    }

    @Test func aHabitShownAloneIsShownAsWithEveryHabitRead() async throws {
        let clock = TestClock(date("2026-06-10 09:00"))
        let (store, _) = try await seeded(clock: clock)
        // The first read walks every day and leaves a checkpoint; the second goes on from it.
        for (round, name) in [(1, "read"), (1, "Water"), (2, "read"), (2, "Water")] {
            let alone = try await makeTestApp(store: store, clock: clock).app.habitsFeature.detailReadingLittle(of: name)
            let all = makeTestApp(store: store, clock: clock).app.habitsFeature
            try await all.load()
            let whole = try all.detail(of: name)
            // Everything shown; the habit itself holds only the marks read.
            #expect(alone.summary.numbers == whole.summary.numbers, "\(name), read \(round)")
            #expect(alone.strengths == whole.strengths && alone.doneByWeekday == whole.doneByWeekday, "\(name), read \(round)")
            #expect(alone.days.map(\.status) == whole.days.map(\.status) && alone.days.map(\.day) == whole.days.map(\.day))
            #expect(alone.days.allSatisfy { alone.summary.habit.notes[$0.day] == whole.summary.habit.notes[$0.day] })
            #expect(alone.days.count == 60 && alone.summary.bestStreak > 0 && alone.doneByWeekday.reduce(0, +) > 60)
        }
        #expect(try checkpointDays(store).count == 2)
        await #expect(throws: HabitsError.noSuchHabit("Wat", suggestion: "Water")) {
            _ = try await makeTestApp(store: store, clock: clock).app.habitsFeature.detailReadingLittle(of: "Wat")
        }
    }

    @Test func aDamagedCheckpointIsWalkedPastNeverTrusted() async throws {
        let clock = TestClock(date("2026-06-10 09:00"))
        let (store, graph) = try await seeded(clock: clock)
        let today = graph.app.habitsFeature.today
        _ = try await bothLists(store, clock: clock)
        for damage in ["run_start = through_day + 5", "first_day = through_day + 1", "score = 7", "longest_ended_streak = -1"] {
            try store.write { try $0.run("UPDATE habit_checkpoints SET \(damage)") }
            let lists = try await bothLists(store, clock: clock)
            #expect(lists.lean == lists.whole, "\(damage)")
            #expect(try checkpointDays(store).count == 2)
        }
        // A checkpoint from a clock that ran ahead (its day after today) is not gone on from either.
        try store.write { try $0.run("UPDATE habit_checkpoints SET through_day = ?", [.int(today + 3)]) }
        let lists = try await bothLists(store, clock: clock)
        #expect(lists.lean == lists.whole)
    }

    @Test func aCheckpointWalkedBeforeAnotherChangeIsNotWritten() async throws {
        let clock = TestClock(date("2026-06-10 09:00"))
        let (store, _) = try await seeded(clock: clock)
        let repository = LocalHabitsRepository(store: store)
        let (read, version) = try await repository.habitsWithCheckpoints(before: .max)
        let today = makeTestApp(store: store, clock: clock).app.habitsFeature.today
        let habit = read[0].habit
        let walk = HabitStatistics(habit: habit, today: today).walk(computed: HabitStatistics(habit: habit, today: today).computedEntries())
        let checkpoint = try #require(walk.checkpoint(at: today - 8))
        // Another process marks a day before the checkpoint's between the read and the write.
        try store.write { try HabitsTable.setMark(.no, habitID: habit.id, day: today - 30, in: $0) }
        try await repository.saveCheckpoints([habit.id: checkpoint], ifUnchangedSince: version)
        #expect(try checkpointDays(store).isEmpty)
        try await repository.saveCheckpoints([habit.id: checkpoint], ifUnchangedSince: try await repository.habitsWithCheckpoints(before: .max).version)
        #expect(try checkpointDays(store) == [today - 8])
    }
}

extension HabitSummary {
    /// What the list shows of a summary, without the habit's marks (the lean read holds only some).
    var numbers: [String] {
        [habit.id, "\(dueToday)", "\(doneToday)", "\(String(describing: todayMark))", todayStatus.rawValue, "\(currentStreak)",
         "\(bestStreak)", "\(strength)"]
    }
}
