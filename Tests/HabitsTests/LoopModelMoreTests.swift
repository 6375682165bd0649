import Foundation
import Testing
@testable import Habits
import Vocabulary

/// More of Loop Habit Tracker's own expectations (iSoron/uhabits, `uhabits-core/src/jvmTest/java/org/isoron/uhabits/core/models/`:
/// ScoreListTest.kt's skip and numerical classes, ScoreTest.kt, StreakListTest.kt, EntryListTest.kt and HabitTest.kt),
/// replayed through Trend's habits. Numerical values there are thousandths (2000 is 2.0); the numerical fixture's
/// target is 2.0 (`HabitFixtures.createEmptyNumericalHabit`). Loop checks scores to 1e-6.
@Suite struct LoopModelMoreTests: LoopReplay {
    let today = DayNumber.from(year: 2026, month: 6, day: 30)

    func marks(_ days: Range<Int>, _ mark: HabitMark, over base: [Int: HabitMark] = [:]) -> [Int: HabitMark] {
        var result = base
        for day in days { result[day] = mark }
        return result
    }

    /// YesNoScoreListTest.test_getValueWithSkip: days 5, 10 and 11 of twenty done days skipped.
    @Test func yesNoGetValueWithSkip() {
        var days = marks(0..<20, .done)
        for day in [5, 10, 11] { days[day] = .skipped }
        expect(scores(habit(.daily, daysAgo: days)),
               [0.596033, 0.573910, 0.550574, 0.525961, 0.500000, 0.472617, 0.472617, 0.443734, 0.413270, 0.381137,
                0.347244, 0.347244, 0.347244, 0.311495, 0.273788, 0.234017, 0.192067, 0.147820, 0.101149, 0.051922,
                0.000000, 0.000000, 0.000000])
    }

    /// NumericalAtLeastScoreListWithSkipTest.test_getValue.
    @Test func atLeastGetValueWithSkip() {
        var days = marks(0..<20, .value(2))
        days[10] = .skipped
        days[15] = .skipped
        expect(scores(habit(.daily, .atLeast(2), daysAgo: days)),
               [0.617008, 0.596033, 0.573910, 0.550574, 0.525961, 0.500000, 0.472617, 0.443734, 0.413270, 0.381137,
                0.347244, 0.347244, 0.311495, 0.273788, 0.234017, 0.192067, 0.192067, 0.147820, 0.101149, 0.051922,
                0.000000, 0.000000, 0.000000])
    }

    /// NumericalAtLeastScoreListWithSkipTest.skipsShouldNotAffectScore: skipped days are as if they never existed.
    @Test func skipsDoNotAffectTheScore() {
        let initial = strength(habit(.daily, .atLeast(2), daysAgo: marks(0..<500, .value(1))))
        #expect(abs(strength(habit(.daily, .atLeast(2), daysAgo: marks(500..<1000, .skipped, over: marks(0..<500, .value(1)))))
            - initial) < 1e-6)
        var mixed = marks(0..<300, .value(1))
        mixed = marks(300..<500, .skipped, over: mixed)
        mixed = marks(500..<700, .value(1), over: mixed)
        mixed = marks(700..<1000, .skipped, over: mixed)
        #expect(abs(strength(habit(.daily, .atLeast(2), daysAgo: mixed)) - initial) < 1e-6)
    }

    /// NumericalAtLeastScoreListTest.shouldAchieveHighScoreInReasonableTime.
    @Test func numericalHighScoreInReasonableTime() {
        #expect(strength(habit(.daily, .atLeast(2), daysAgo: marks(0..<90, .value(2)))) > 0.99)
        let weekly = Dictionary(uniqueKeysWithValues: (0...38).map { (7 * $0, HabitMark.value(2)) })
        #expect(strength(habit(.timesPerWeek(1), .atLeast(2), daysAgo: weekly)) > 0.99)
        var monthly = weekly
        for month in 0...17 { monthly[30 * month] = .value(2) }
        #expect(strength(habit(.timesPerDays(times: 1, days: 30), .atLeast(2), daysAgo: monthly)) > 0.99)
    }

    /// NumericalAtLeastScoreListTest and NumericalAtMostScoreListTest.shouldAchieveComparableScoreToProgress.
    @Test func comparableScoreToProgress() {
        #expect(abs(strength(habit(.daily, .atLeast(2), daysAgo: marks(0..<500, .value(0.5)))) - 0.25) < 1e-6)
        #expect(abs(strength(habit(.daily, .atMost(2), daysAgo: marks(0..<500, .value(3.5)))) - 0.25) < 1e-6)
    }

    /// NumericalAtMostScoreListTest.test_withZeroTarget and test_recompute (nothing logged: 1.0).
    @Test func atMostZeroTargetAndEmpty() {
        let zero = HabitStatistics(habit: Habit(name: "Run", schedule: .daily, kind: .atMost(0), createdDay: today - 10,
                                                marks: [today - 10: .value(0.8), today - 3: .value(0.4)]), today: today)
        #expect(zero.strengths().allSatisfy { $0.isFinite })
        let empty = HabitStatistics(habit: Habit(name: "Run", schedule: .daily, kind: .atMost(2), createdDay: today), today: today)
        #expect(empty.strengths().last == 1)
    }

    /// ScoreTest.test_compute_withDailyHabit and test_compute_withNonDailyHabit.
    @Test func scoreCompute() {
        let cases: [(Double, Double, Double, Double)] = [
            (1, 0, 1, 0.051922), (1, 0.5, 1, 0.525961), (1, 0.75, 1, 0.762981),
            (1, 0, 0, 0), (1, 0.5, 0, 0.474039), (1, 0.75, 0, 0.711058),
            (1.0 / 3, 0, 1, 0.030314), (1.0 / 3, 0.5, 1, 0.515157), (1.0 / 3, 0.75, 1, 0.757578),
            (1.0 / 3, 0, 0, 0), (1.0 / 3, 0.5, 0, 0.484842), (1.0 / 3, 0.75, 0, 0.727263),
        ]
        for (frequency, previous, completed, expected) in cases {
            #expect(abs(LoopModel.score(frequency: frequency, previous: previous, completed: completed) - expected) < 1e-6)
        }
    }

    /// `HabitFixtures.createLongHabit`'s marks, in days before today.
    static let longHabit = [0, 1, 3, 5, 7, 8, 9, 10, 12, 14, 15, 17, 19, 20, 26, 27, 28, 50, 51, 52, 53, 54, 58, 60, 63, 65,
                            70, 71, 72, 73, 74, 75, 80, 81, 83, 89, 90, 91, 95, 102, 103, 108, 109, 120]

    /// StreakList.getBest: the `limit` longest streaks, newest first.
    func best(_ streaks: [ClosedRange<Int>], _ limit: Int) -> [Int] {
        streaks.sorted { ($0.count, $0.upperBound) > ($1.count, $1.upperBound) }.prefix(limit)
            .sorted { $0.upperBound > $1.upperBound }.map(\.count)
    }

    /// StreakListTest.testGetBest: the long habit, made daily.
    @Test func bestStreaks() {
        let days = Dictionary(uniqueKeysWithValues: Self.longHabit.map { ($0, HabitMark.done) })
        let statistics = HabitStatistics(habit: habit(.daily, daysAgo: days), today: today)
        let streaks = statistics.streaks(computed: statistics.computedEntries())
        #expect(best(streaks, 4) == [4, 3, 5, 6])
        #expect(best(streaks, 2) == [5, 6])
        #expect(statistics.bestStreak(computed: statistics.computedEntries()) == 6)
    }

    /// StreakListTest.testGetBest_withUnknowns: done today, NO five days ago.
    @Test func bestStreaksWithUnknowns() {
        let statistics = HabitStatistics(habit: habit(.daily, daysAgo: [0: .done, 5: .no]), today: today)
        let streaks = statistics.streaks(computed: statistics.computedEntries())
        #expect(best(streaks, 5) == [1])
    }

    /// EntryListTest.testComputeNumerical: a numerical habit's computed entries are its own.
    @Test func computeNumerical() {
        let statistics = HabitStatistics(habit: habit(.daily, .atLeast(2), daysAgo: [4: .value(0.1), 9: .value(0.2), 10: .value(0.3)]),
                                         today: today)
        #expect(statistics.computedEntries() == [today - 4: 100, today - 9: 200, today - 10: 300])
    }

    /// EntryListTest.testBuildIntervals4: a skipped day is not a yes.
    @Test func aSkipBuildsNoInterval() {
        let original = [today - 10: LoopModel.yesManual, today - 20: LoopModel.skip, today - 30: LoopModel.yesManual]
        let computed = LoopModel.computedEntries(original: original, frequency: .init(1, 3))
        #expect(computed == [today - 10: 2, today - 9: 1, today - 8: 1, today - 20: 3, today - 30: 2, today - 29: 1, today - 28: 1])
    }

    /// EntryListTest.testAddFromInterval: the days the intervals cover become YES_AUTO, a NO among them
    /// included; manual yeses stay, and uncovered days stay as they were (unknown ones absent).
    @Test func addFromInterval() {
        func day(_ offset: Int) -> Int { today - offset }
        let original = [day(1): LoopModel.yesManual, day(2): LoopModel.no, day(4): LoopModel.no,
                        day(5): LoopModel.yesManual, day(10): LoopModel.yesManual, day(11): LoopModel.no]
        let intervals = [LoopModel.Interval(begin: day(2), center: day(2), end: day(1)),
                         LoopModel.Interval(begin: day(6), center: day(5), end: day(4)),
                         LoopModel.Interval(begin: day(10), center: day(8), end: day(8))]
        let computed = LoopModel.entries(original: original, intervals: intervals, oldest: day(11), newest: day(1))
        let expected = [1: LoopModel.yesManual, 2: LoopModel.yesAuto, 4: LoopModel.yesAuto, 5: LoopModel.yesManual,
                        6: LoopModel.yesAuto, 8: LoopModel.yesAuto, 9: LoopModel.yesAuto, 10: LoopModel.yesManual, 11: LoopModel.no]
        #expect(computed == Dictionary(uniqueKeysWithValues: expected.map { (day($0.key), $0.value) }))
    }

    /// HabitTest.test_isCompleted and test_isEntered.
    @Test func isCompletedAndEntered() {
        let empty = HabitStatistics(habit: Habit(name: "h", schedule: .daily, kind: .yesNo, createdDay: today), today: today)
        #expect(!empty.isCompletedToday(computed: empty.computedEntries()) && empty.todayStatus(computed: empty.computedEntries()) == .unknown)
        let done = HabitStatistics(habit: habit(.daily, daysAgo: [0: .done]), today: today)
        #expect(done.isCompletedToday(computed: done.computedEntries()))
        let no = HabitStatistics(habit: habit(.daily, daysAgo: [0: .no]), today: today)
        #expect(!no.isCompletedToday(computed: no.computedEntries()) && no.todayStatus(computed: no.computedEntries()) != .unknown)
    }

    /// HabitTest.test_isCompleted_numerical: at least 100 is met by 200 and 100, not by 50; an at-most
    /// habit is never completed for today, whatever is logged (Loop 303020a8: more may still come).
    @Test func isCompletedNumerical() {
        func completed(_ kind: HabitKind, _ value: Double?) -> Bool {
            let statistics = HabitStatistics(habit: habit(.daily, kind, daysAgo: value.map { [0: .value($0)] } ?? [:]), today: today)
            return statistics.isCompletedToday(computed: statistics.computedEntries())
        }
        #expect([nil, 200, 100, 50].map { completed(.atLeast(100), $0) } == [false, true, true, false])
        #expect([nil, 200, 100, 50].map { completed(.atMost(100), $0) } == [false, false, false, false])
    }
}
