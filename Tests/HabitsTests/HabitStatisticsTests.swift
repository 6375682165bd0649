import Foundation
import Testing
@testable import Habits
import Vocabulary

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
        // The ways Loop's frequency picker and people say the same thing.
        #expect(HabitSchedule(text: "every mon wed fri") == .weekdays([0, 2, 4]))
        #expect(HabitSchedule(text: "mon-fri") == .weekdays([0, 1, 2, 3, 4]))
        #expect(HabitSchedule(text: "fri-mon") == .weekdays([4, 5, 6, 0]))
        #expect(HabitSchedule(text: "3 times a week") == .timesPerWeek(3))
        #expect(HabitSchedule(text: "3x/week") == .timesPerWeek(3))
        #expect(HabitSchedule(text: "every week") == .timesPerWeek(1))
        #expect(HabitSchedule(text: "every 3 days") == .timesPerDays(times: 1, days: 3))
        #expect(HabitSchedule(text: "2 times per 10 days") == .timesPerDays(times: 2, days: 10))
        #expect(HabitSchedule(text: "4 times a month") == .timesPerDays(times: 4, days: 30))
        #expect(HabitSchedule(text: "weekends") == .weekdays([5, 6]))
        for bad in ["8/week", "0/week", "11/10", "funday", "mon,xyz", "1/0", "-1/3", "every", "3 times a fortnight", "mon-xyz", "31 times a month"] {
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
        // Loop's rule carried to chosen days: a done due day covers the days up to the next due one.
        #expect(statuses(h, todayOffset: 6) == [.done, .auto, .done, .auto, .missed, .notDue, .notDue])
        let stats = HabitStatistics(habit: h, today: monday + 6)
        // Mon done, Tue covered, Wed done, Thu covered, Fri missed: the streak ended on Thursday.
        #expect(stats.currentStreak(computed: stats.computedEntries()) == 0)
        #expect(stats.bestStreak(computed: stats.computedEntries()) == 4)
    }

    @Test func aWeeklyQuotaCoversTheDaysOfLoopsIntervals() {
        let h = habit(.timesPerWeek(3), marks: [0: .done, 3: .done, 4: .done, 8: .done])
        let all = statuses(h, todayOffset: 16)
        // Loop's intervals (EntryList.buildIntervals): checks 0,3,4 within 7 days cover [0, 6];
        // checks 3,4,8 cover [3, 9]. The days they cover are YES_AUTO.
        #expect(Array(all[0..<7]) == [.done, .auto, .auto, .done, .done, .auto, .auto])
        #expect(Array(all[7..<14]) == [.auto, .done, .auto, .missed, .missed, .missed, .missed])
        #expect(Array(all[14...]) == [.missed, .missed, .pending])
    }

    @Test func nTimesInMDaysCoversTheDaysOfLoopsIntervals() {
        let h = habit(.timesPerDays(times: 2, days: 5), marks: [1: .done, 3: .done, 6: .done])
        let all = statuses(h, todayOffset: 11)
        // Checks 1,3 and 3,6 make two intervals, snapped together (EntryList.snapIntervalsTogether).
        #expect(Array(all[0..<5]) == [.auto, .done, .auto, .done, .auto])
        #expect(Array(all[5..<10]) == [.auto, .done, .auto, .missed, .missed])
        #expect(Array(all[10...]) == [.missed, .pending])
    }

    @Test func numericHabitsCountWhenTheValueMeetsTheTarget() {
        let water = habit(.daily, .atLeast(8), marks: [0: .value(8), 1: .value(9), 2: .value(7)])
        // Some of the target is a part-done day of its own, not a no (issue 28, item 5).
        #expect(statuses(water, todayOffset: 2) == [.done, .done, .partly])
        let nothing = habit(.daily, .atLeast(8), marks: [0: .value(0), 1: .value(3)])
        #expect(statuses(nothing, todayOffset: 2) == [.no, .partly, .pending])
        let drinks = habit(.daily, .atMost(2), marks: [0: .value(0), 1: .value(2), 2: .value(3)])
        // Over the limit has a mark of its own; an unlogged at-most day is 0, within the limit (Loop).
        #expect(statuses(drinks, todayOffset: 3) == [.done, .done, .overLimit, .auto])
        let gym = habit(.daily, marks: [0: .done, 1: .no, 2: .skipped])
        #expect(statuses(gym, todayOffset: 3) == [.done, .no, .skipped, .pending])
    }

    @Test func atMostProgressIsInvertedAboveTheLimit() {
        #expect(HabitKind.atMost(2).progress(1) == 1)
        #expect(HabitKind.atMost(2).progress(4) == 0.5)
        #expect(HabitKind.atLeast(8).progress(6) == 0.75)
        #expect(HabitKind.atLeast(8).progress(12) == 1)
    }
}

/// A schedule and a kind are written in the words `habit add` reads back (`HabitSchedule.text`, `HabitKind.text`):
/// what every screen and answer shows is one rule, beside the reader.
@Suite struct HabitWordsTests {
    @Test(arguments: [HabitSchedule.daily, .weekdays([0, 2, 4]), .weekdays([5, 6]), .timesPerWeek(3), .timesPerDays(times: 1, days: 2), .timesPerDays(times: 2, days: 10)])
    func aScheduleReadsBackFromItsOwnWords(_ schedule: HabitSchedule) {
        #expect(HabitSchedule(text: schedule.text) == schedule, "\(schedule.text)")
    }

    @Test func aScheduleAndAKindInWords() {
        #expect(HabitSchedule.weekdays([4, 0, 2]).text == "mon,wed,fri")
        #expect(HabitSchedule.timesPerDays(times: 1, days: 3).text == "every 3 days")
        #expect(HabitKind.atLeast(8).text(unit: "glasses") == "at least 8 glasses")
        #expect(HabitKind.atMost(2.5).text == "at most 2.5")
        #expect(HabitKind.yesNo.text(unit: "glasses") == "yes/no")
    }
}
