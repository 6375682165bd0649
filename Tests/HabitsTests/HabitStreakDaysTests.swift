import Foundation
import Testing
@testable import Habits
import Vocabulary

/// A new user's weeks with weekday and N-a-week habits (issue 48): a streak counts the days that have
/// happened since the habit was made (Loop's `StreakList` over computed entries that reach no further than
/// today), a skip covers the days until the next due one, and an answered no asks nothing more today.
@Suite struct HabitStreakDaysTests {
    /// Monday 14 December 2026.
    let monday = DayNumber.from(year: 2026, month: 12, day: 14)

    func gym(_ marks: [Int: HabitMark], made: Int) -> Habit {
        Habit(name: "Gym", schedule: .weekdays([0, 2, 4]), kind: .yesNo, createdDay: made, marks: marks)
    }

    func streak(_ habit: Habit, on today: Int) -> Int {
        let statistics = HabitStatistics(habit: habit, today: today)
        return statistics.currentStreak(computed: statistics.computedEntries())
    }

    @Test func aMondayWednesdayFridayHabitDoneOnItsFirstMondayHasAStreakOfOne() {
        #expect(DayNumber.weekdayFromMonday(monday) == 0)
        #expect(streak(gym([monday: .done], made: monday), on: monday) == 1)
        // Tuesday is not due: the Monday covers it once it has come.
        #expect(streak(gym([monday: .done], made: monday), on: monday + 1) == 2)
        // Its fifth day, Monday, Wednesday and Friday done: five days, not seven.
        let week: [Int: HabitMark] = [monday: .done, monday + 2: .done, monday + 4: .done]
        #expect(streak(gym(week, made: monday), on: monday + 4) == 5)
    }

    @Test func aSkipOnFridayKeepsTheStreakOverTheWeekendToMonday() {
        let marks: [Int: HabitMark] = [monday: .done, monday + 2: .done, monday + 4: .skipped]
        let habit = gym(marks, made: monday)
        #expect(streak(habit, on: monday + 4) == 5)
        // The weekend after the skip is covered: on the next Monday, still open, the streak stands at 7.
        #expect(streak(habit, on: monday + 7) == 7)
        let statistics = HabitStatistics(habit: habit, today: monday + 7)
        #expect(statistics.statuses().suffix(3) == [.skipped, .skipped, .pending])
    }

    @Test func aFiveTimesAWeekHabitsStreakNeverPassesTheDaysItHasExisted() {
        // Done five days a week for six weeks, from its first Monday: Loop's intervals cover the weekends.
        var marks: [Int: HabitMark] = [:]
        for week in 0..<6 { for day in 0..<5 { marks[monday + 7 * week + day] = .done } }
        let walk = Habit(name: "Walk 10k steps", schedule: .timesPerWeek(5), kind: .yesNo, createdDay: monday, marks: marks)
        for day in monday...(monday + 41) {
            let statistics = HabitStatistics(habit: walk, today: day)
            let computed = statistics.computedEntries()
            let days = day - monday + 1
            #expect(statistics.currentStreak(computed: computed) <= days, "day \(days)")
            #expect(statistics.bestStreak(computed: computed) <= days, "day \(days)")
        }
        #expect(streak(walk, on: monday + 12) == 13)
    }

    @Test func anExplicitNoIsNotStillDue() {
        let habit = gym([monday: .no], made: monday - 7)
        let statistics = HabitStatistics(habit: habit, today: monday)
        #expect(!statistics.isStillDueToday(computed: statistics.computedEntries()))
        let open = HabitStatistics(habit: gym([:], made: monday - 7), today: monday)
        #expect(open.isStillDueToday(computed: open.computedEntries()))
    }
}
