import Foundation
import Testing
@testable import Habits
import Vocabulary

/// Loop Habit Tracker's own expectations (iSoron/uhabits,
/// `uhabits-core/src/jvmTest/java/org/isoron/uhabits/core/models/ScoreListTest.kt`
/// and `StreakListTest.kt`), replayed through Trend's habits. Each test names
/// Loop's class and test; Loop checks scores to 1e-6.
@Suite struct LoopModelTests: LoopReplay {
    let today = DayNumber.from(year: 2026, month: 6, day: 30)

    func done(_ days: Range<Int>) -> [Int: HabitMark] { Dictionary(uniqueKeysWithValues: days.map { ($0, .done) }) }
    func values(_ days: Range<Int>, _ value: Double) -> [Int: HabitMark] {
        Dictionary(uniqueKeysWithValues: days.map { ($0, .value(value)) })
    }

    static let twentyDays = [0.655747, 0.636894, 0.617008, 0.596033, 0.573910, 0.550574, 0.525961, 0.500000, 0.472617,
                             0.443734, 0.413270, 0.381137, 0.347244, 0.311495, 0.273788, 0.234017, 0.192067, 0.147820,
                             0.101149, 0.051922, 0.000000, 0.000000, 0.000000]

    /// YesNoScoreListTest.test_getValue
    @Test func yesNoGetValue() {
        expect(scores(habit(.daily, daysAgo: done(0..<20))), Self.twentyDays)
    }

    /// YesNoScoreListTest.test_recompute and test_addThenRemove
    @Test func yesNoRecompute() {
        #expect(abs(strength(habit(.daily, daysAgo: done(0..<2))) - 0.101149) < 1e-6)
        #expect(abs(strength(habit(.timesPerDays(times: 1, days: 2), daysAgo: done(0..<2))) - 0.054816) < 1e-6)
        #expect(abs(strength(habit(.daily, daysAgo: done(0..<1))) - 0.051922) < 1e-6)
    }

    /// The open issue's case: a 1/3 habit checked once today (the doubled window).
    @Test func oneInThreeDaysCheckedOnceToday() {
        #expect(abs(strength(habit(.timesPerDays(times: 1, days: 3), daysAgo: done(0..<1))) - 0.015157) < 1e-6)
    }

    /// YesNoScoreListTest.test_imperfectNonDaily
    @Test func imperfectNonDaily() {
        var marks: [Int: HabitMark] = [:]
        for week in 0..<100 { marks[7 * week] = .done; marks[7 * week + 1] = .done }
        #expect(abs(strength(habit(.timesPerWeek(3), daysAgo: marks)) - 2.0 / 3) < 1e-6)
        #expect(abs(strength(habit(.timesPerWeek(4), daysAgo: marks)) - 0.5) < 1e-6)
    }

    /// YesNoScoreListTest.test_irregularNonDaily
    @Test func irregularNonDaily() {
        var marks: [Int: HabitMark] = [:]
        for pair in 0..<100 { marks[14 * pair] = .done; marks[14 * pair + 13] = .done }
        #expect(abs(strength(habit(.timesPerWeek(1), daysAgo: marks)) - 1) < 1e-3)
    }

    /// YesNoScoreListTest.shouldAchieveHighScoreInReasonableTime
    @Test func highScoreInReasonableTime() {
        #expect(strength(habit(.daily, daysAgo: done(0..<90))) > 0.99)
        let weekly = Dictionary(uniqueKeysWithValues: (0...38).map { (7 * $0, HabitMark.done) })
        #expect(strength(habit(.timesPerWeek(1), daysAgo: weekly)) > 0.99)
        let monthly = Dictionary(uniqueKeysWithValues: (0...17).map { (30 * $0, HabitMark.done) })
        #expect(strength(habit(.timesPerDays(times: 1, days: 30), daysAgo: monthly)) > 0.99)
    }

    /// NumericalAtLeastScoreListTest.test_getValue, test_recompute, overeachievingIsntRelevant
    @Test func atLeast() {
        expect(scores(habit(.daily, .atLeast(2), daysAgo: values(0..<20, 2))), Self.twentyDays)
        #expect(abs(strength(habit(.daily, .atLeast(2), daysAgo: values(0..<2, 2))) - 0.101149) < 1e-6)
        #expect(abs(strength(habit(.timesPerDays(times: 1, days: 2), .atLeast(2), daysAgo: values(0..<2, 2))) - 0.072631) < 1e-6)
        #expect(abs(strength(habit(.daily, .atLeast(2), daysAgo: [0: .value(10_000)])) - 0.051922) < 1e-6)
        #expect(abs(strength(habit(.daily, .atLeast(2), daysAgo: values(0..<500, 1))) - 0.5) < 1e-6)
    }

    /// NumericalAtLeastScoreListTest.test_withZeroTarget: full credit every day.
    @Test func atLeastZero() {
        #expect(abs(strength(habit(.daily, .atLeast(0), daysAgo: [0: .value(0)])) - 0.051922) < 1e-6)
    }

    /// NumericalAtMostScoreListTest.test_getValue, test_recompute, shouldAchieveComparableScoreToProgress,
    /// undereachievingIsntRelevant, overeachievingIsntRelevant
    @Test func atMost() {
        var marks = values(0..<20, 5)
        marks[20] = .value(1)
        expect(scores(habit(.daily, .atMost(2), daysAgo: marks)),
               [0.344253, 0.363106, 0.382992, 0.403967, 0.426090, 0.449426, 0.474039, 0.500000, 0.527383, 0.556266,
                0.586730, 0.618863, 0.652756, 0.688505, 0.726212, 0.765983, 0.807933, 0.852180, 0.898851, 0.948078, 1.0])
        #expect(abs(strength(habit(.daily, .atMost(2), daysAgo: values(0..<2, 5))) - 0.898850) < 1e-6)
        #expect(abs(strength(habit(.timesPerDays(times: 1, days: 2), .atMost(2), daysAgo: values(0..<2, 5))) - 0.927369) < 1e-6)
        #expect(abs(strength(habit(.daily, .atMost(2), daysAgo: values(0..<500, 3))) - 0.5) < 1e-6)
        #expect(abs(strength(habit(.daily, .atMost(2), daysAgo: [1: .value(10_000)])) - 0.950773) < 1e-6)
        #expect(abs(strength(habit(.daily, .atMost(2), daysAgo: [0: .value(5), 1: .value(0)])) - 0.948077) < 1e-6)
        #expect(abs(strength(habit(.daily, .atMost(2), daysAgo: [0: .value(5), 1: .value(1)])) - 0.948077) < 1e-6)
    }

    /// The case: four unlogged days of an at-most habit meet the limit.
    @Test func unloggedAtMostDaysMeetTheLimit() {
        #expect(abs(strength(habit(.daily, .atMost(2), daysAgo: [4: .value(1)])) - 1) < 1e-9)
    }

    /// YesNoScoreListTest.test_getValueWithSkip2: a skipped day keeps the score.
    @Test func aSkipKeepsTheScore() {
        var marks = done(5..<6)
        marks[4] = .skipped
        expect(scores(habit(.daily, daysAgo: marks)), [0.041949, 0.044247, 0.046670, 0.049226, 0.051922, 0.051922, 0.0])
    }

    /// The case and StreakList: a perfect 2/10 habit counts covered days, those that have happened (issue 48:
    /// no day ahead of today, none before the habit's first day).
    @Test func aPerfect2In10HabitStreaksOverItsCoveredDays() {
        let marks = Dictionary(uniqueKeysWithValues: (0..<6).flatMap { [(10 * $0, HabitMark.done), (10 * $0 + 1, .done)] })
        let stats = HabitStatistics(habit: habit(.timesPerDays(times: 2, days: 10), daysAgo: marks), today: today)
        let computed = stats.computedEntries()
        // Every day from the oldest pair (51 days ago) to today is done or covered: one streak of 52 days, none ahead.
        #expect(stats.currentStreak(computed: computed) == 52)
        #expect(stats.currentStreak(computed: computed) == stats.bestStreak(computed: computed))
        #expect(stats.isCompletedToday(computed: computed))
        // A 1/3 habit done today covers the two days after it (EntryList: YES_AUTO).
        let third = HabitStatistics(habit: habit(.timesPerDays(times: 1, days: 3), daysAgo: done(0..<1)), today: today)
        #expect(third.computedEntries() == [today: LoopModel.yesManual, today + 1: LoopModel.yesAuto, today + 2: LoopModel.yesAuto])
    }

    /// Habit.isCompletedToday (uhabits-core models/Habit.kt since 303020a8): an at-most day is never
    /// complete while it lasts, though its status says whether it is within its limit, and it asks
    /// nothing of the day.
    @Test func anAtMostDayIsNeverCompleteWhileItLasts() {
        for (marks, within) in [([0: HabitMark.value(1)], true), ([0: .value(2)], true), ([0: .value(3)], false)] {
            let stats = HabitStatistics(habit: habit(.daily, .atMost(2), daysAgo: marks), today: today)
            #expect(!stats.isCompletedToday(computed: stats.computedEntries()), "\(marks)")
            #expect(stats.todayStatus(computed: stats.computedEntries()) == (within ? .withinLimit : .overLimit))
            #expect(!stats.isStillDueToday(computed: stats.computedEntries()), "a limit asks nothing of the day")
        }
        let water = HabitStatistics(habit: habit(.daily, .atLeast(8), daysAgo: [0: .value(6)]), today: today)
        #expect(!water.isCompletedToday(computed: water.computedEntries()) && water.isStillDueToday(computed: water.computedEntries()))
    }

    /// Issue 32, item 13: Loop's score walk begins at the oldest known entry (`Habit.recompute`,
    /// models/Habit.kt), not at the day the habit was made: an at-most habit made four days ago with
    /// nothing logged has strength 0 before today (it showed 1.0 for every day).
    @Test func anAtMostHabitsStrengthBeginsAtItsOldestEntryAsLoopsDoes() {
        let untouched = HabitStatistics(habit: Habit(name: "h", schedule: .daily, kind: .atMost(2), createdDay: today - 4), today: today)
        let strengths = untouched.strengths()
        #expect(strengths.count == 5)
        #expect(strengths.dropLast().allSatisfy { $0 == 0 }, "\(strengths)")
        #expect(strengths.last == 1)
        let logged = HabitStatistics(habit: Habit(name: "h", schedule: .daily, kind: .atMost(2), createdDay: today - 4,
                                                  marks: [today - 2: .value(1)]), today: today)
        let walk = logged.strengths()
        #expect(walk.prefix(2) == [0, 0] && walk.suffix(3).allSatisfy { $0 == 1 }, "\(walk)")
    }

    /// EntryListTest.testComputeBoolean: a 1/3 habit done 4, 9 and 10 days ago.
    @Test func computeBoolean() {
        let original = [today - 4: LoopModel.yesManual, today - 9: LoopModel.yesManual, today - 10: LoopModel.yesManual]
        let computed = LoopModel.computedEntries(original: original, frequency: .init(1, 3))
        let expected: [Int: Int] = [2: 1, 3: 1, 4: 2, 7: 1, 8: 1, 9: 2, 10: 2, 11: 1, 12: 1]
        #expect(computed == Dictionary(uniqueKeysWithValues: expected.map { (today - $0.key, $0.value) }))
        #expect(LoopModel.computedEntries(original: [:], frequency: .init(1, 3)).isEmpty)
    }

    /// EntryListTest.testSnapIntervalsTogether1 and 2 (begin is the older end of an interval).
    @Test func snapIntervalsTogether() {
        func interval(_ begin: Int, _ center: Int, _ end: Int) -> LoopModel.Interval {
            LoopModel.Interval(begin: today - begin, center: today - center, end: today - end)
        }
        var first = [interval(8, 8, 2), interval(12, 12, 6), interval(20, 20, 14), interval(27, 27, 21)]
        LoopModel.snapIntervalsTogether(&first)
        #expect(first == [interval(8, 8, 2), interval(15, 12, 9), interval(22, 20, 16), interval(29, 27, 23)])
        var second = [interval(6, 4, 0), interval(11, 8, 5)]
        LoopModel.snapIntervalsTogether(&second)
        #expect(second == [interval(6, 4, 0), interval(13, 8, 7)])
    }

    /// EntryListTest.testBuildIntervals1–3.
    @Test func buildIntervals() {
        func interval(_ begin: Int, _ center: Int, _ end: Int) -> LoopModel.Interval {
            LoopModel.Interval(begin: today - begin, center: today - center, end: today - end)
        }
        let three = [8, 18, 23].map { today - $0 }
        #expect(LoopModel.buildIntervals(yeses: three, frequency: .init(1, 7))
            == [interval(8, 8, 2), interval(18, 18, 12), interval(23, 23, 17)])
        #expect(LoopModel.buildIntervals(yeses: three, frequency: .init(1, 1))
            == [interval(8, 8, 8), interval(18, 18, 18), interval(23, 23, 23)])
        #expect(LoopModel.buildIntervals(yeses: [8, 15, 18, 22, 23].map { today - $0 }, frequency: .init(2, 7))
            == [interval(18, 15, 12), interval(22, 18, 16), interval(23, 22, 17)])
    }
}
