import Foundation
import Settings
import Testing
import TestSupport
@testable import Habits

@Suite struct HabitStatisticsTests {
    /// A Monday, so weeks line up with offsets 0…6.
    let monday = DayNumber.from(year: 2026, month: 6, day: 1)

    func habit(_ schedule: HabitSchedule, _ kind: HabitKind = .yesNo, marks: [Int: HabitMark]) -> Habit {
        Habit(name: "h", schedule: schedule, kind: kind, createdDay: monday,
              marks: Dictionary(uniqueKeysWithValues: marks.map { (monday + $0.key, $0.value) }))
    }

    func statuses(_ habit: Habit, todayOffset: Int) -> [HabitDayStatus] {
        HabitStatistics(habit: habit, today: monday + todayOffset).statuses()
    }

    @Test func schedulesAreStoredAsCodesApartFromTheirWords() {
        #expect([HabitSchedule.daily, .weekdays([4, 0, 2]), .timesPerWeek(3), .timesPerDays(times: 2, days: 10)].map(\.code)
            == ["daily", "weekdays:mon,wed,fri", "week:3", "days:2/10"])
        for bad in ["every day", "3/week", "week:7", "week:x", "days:11/10", "weekdays:", "weekdays:3/week", "days:mon", ""] {
            #expect(HabitSchedule(code: bad) == nil, "\(bad)")
        }
    }

    @Test func schedulesAreReadFromTheirWrittenForms() {
        #expect(HabitSchedule(text: "every day") == .daily)
        #expect(HabitSchedule(text: "mon,wed,fri") == .weekdays([0, 2, 4]))
        #expect(HabitSchedule(text: "Monday Wednesday") == .weekdays([0, 2]))
        #expect(HabitSchedule(text: "3/week") == .timesPerWeek(3))
        #expect(HabitSchedule(text: "3 per week") == .timesPerWeek(3))
        #expect(HabitSchedule(text: "2/10") == .timesPerDays(times: 2, days: 10))
        #expect(HabitSchedule(text: "7/week") == .daily)
        for bad in ["8/week", "0/week", "11/10", "funday", "mon,xyz", "1/0", "-1/3"] {
            #expect(HabitSchedule(text: bad) == nil, "\(bad)")
        }
        for schedule in [HabitSchedule.daily, .weekdays([1, 5]), .timesPerWeek(2), .timesPerDays(times: 3, days: 9)] {
            #expect(HabitSchedule(code: schedule.code) == schedule)
        }
    }

    @Test func aDailyHabitMissesEveryUndoneDayButNotToday() {
        let h = habit(.daily, marks: [0: .done, 2: .done])
        #expect(statuses(h, todayOffset: 3) == [.done, .missed, .done, .pending])
    }

    @Test func chosenWeekdaysMakeOtherDaysNotDue() {
        let h = habit(.weekdays([0, 2, 4]), marks: [0: .done, 2: .done])
        #expect(statuses(h, todayOffset: 6) == [.done, .notDue, .done, .notDue, .missed, .notDue, .notDue])
        let stats = HabitStatistics(habit: h, today: monday + 6)
        #expect(stats.currentStreak(statuses: stats.statuses()) == 0)
    }

    @Test func aWeeklyQuotaMetLeavesTheRestOfTheWeekNotDue() {
        let h = habit(.timesPerWeek(3), marks: [0: .done, 3: .done, 4: .done, 8: .done])
        let all = statuses(h, todayOffset: 16)
        #expect(Array(all[0..<7]) == [.done, .notDue, .notDue, .done, .done, .notDue, .notDue])
        // Week two has one of three: its other days were missed.
        #expect(Array(all[7..<14]) == [.missed, .done, .missed, .missed, .missed, .missed, .missed])
        // Week three is still open.
        #expect(Array(all[14...]) == [.pending, .pending, .pending])
    }

    @Test func nTimesInMDaysCountsBlocksFromTheFirstDay() {
        let h = habit(.timesPerDays(times: 2, days: 5), marks: [1: .done, 3: .done, 6: .done])
        let all = statuses(h, todayOffset: 11)
        #expect(Array(all[0..<5]) == [.notDue, .done, .notDue, .done, .notDue])
        #expect(Array(all[5..<10]) == [.missed, .done, .missed, .missed, .missed])
        #expect(Array(all[10...]) == [.pending, .pending])
    }

    @Test func skipsAndDaysThatAreNotDueNeitherBreakNorAddToAStreak() {
        let h = habit(.weekdays([0, 1, 2, 3, 4]), marks: [0: .done, 1: .skipped, 2: .done, 3: .done, 4: .done, 7: .done])
        let stats = HabitStatistics(habit: h, today: monday + 8)
        let all = stats.statuses()
        #expect(stats.currentStreak(statuses: all) == 5, "Mon, Wed–Fri, next Mon; Tue skipped; weekend not due; today open")
        #expect(stats.bestStreak(statuses: all) == 5)
        let broken = habit(.daily, marks: [0: .done, 1: .done, 3: .done])
        let brokenStats = HabitStatistics(habit: broken, today: monday + 3)
        #expect(brokenStats.currentStreak(statuses: brokenStats.statuses()) == 1)
        #expect(brokenStats.bestStreak(statuses: brokenStats.statuses()) == 2)
    }

    @Test func numericHabitsCountWhenTheValueMeetsTheTarget() {
        let water = habit(.daily, .atLeast(8), marks: [0: .value(8), 1: .value(9), 2: .value(7)])
        #expect(statuses(water, todayOffset: 2) == [.done, .done, .pending])
        let drinks = habit(.daily, .atMost(2), marks: [0: .value(0), 1: .value(2), 2: .value(3)])
        #expect(statuses(drinks, todayOffset: 3) == [.done, .done, .missed, .pending])
    }

    @Test func dailyStrengthMatchesLoopsFormulaByHand() {
        // Done three days, then nothing: from 0, each done day moves 1 − m of the way to 1.
        let h = habit(.daily, marks: [0: .done, 1: .done, 2: .done])
        let m = pow(0.5, 1.0 / 13)
        let strengths = HabitStatistics(habit: h, today: monday + 4).strengths()
        let expected = [1 - m, 1 - m * m, 1 - m * m * m, (1 - m * m * m) * m, (1 - m * m * m) * m * m]
        #expect(strengths.count == 5)
        for (actual, wanted) in zip(strengths, expected) { #expect(abs(actual - wanted) < 1e-12) }
    }

    @Test func threePerWeekStrengthUsesTheTrailingWeek() {
        let h = habit(.timesPerWeek(3), marks: [0: .done, 2: .done, 4: .done, 5: .skipped])
        let m = pow(0.5, (3.0 / 7).squareRoot() / 13)
        var score = 0.0
        var expected: [Double] = []
        // Trailing 7-day done counts: 1, 1, 2, 2, 3, (skipped), 3, then 2 as day 0 leaves the week.
        for count in [1, 1, 2, 2, 3, -1, 3, 2] {
            if count >= 0 { score = score * m + min(1, Double(count) / 3) * (1 - m) }
            expected.append(score)
        }
        let strengths = HabitStatistics(habit: h, today: monday + 7).strengths()
        #expect(strengths.count == expected.count)
        for (actual, wanted) in zip(strengths, expected) { #expect(abs(actual - wanted) < 1e-12) }
    }

    @Test func atMostProgressIsInvertedAboveTheLimit() {
        #expect(HabitKind.atMost(2).progress(1) == 1)
        #expect(HabitKind.atMost(2).progress(4) == 0.5)
        #expect(HabitKind.atLeast(8).progress(6) == 0.75)
        #expect(HabitKind.atLeast(8).progress(12) == 1)
    }
}
