import Foundation
import Settings
import Testing
import TestSupport
@testable import WeightLog

@Suite struct VerdictAndStreakTests {
    let trend = DailyTrendManager()

    /// A series with one entry a day on the given day numbers.
    func series(_ pairs: [(Int, Double)]) -> DailySeries {
        let days = LocalDays(timeZone: TimeZone(identifier: "UTC")!)
        return DailySeries(sortedSeconds: pairs.map { Double($0.0) * 86_400 + 28_800 }, kilograms: pairs.map(\.1), localDays: days)
    }

    @Test func everyVerdict() {
        #expect(trend.verdicts(for: series([])).last == nil)
        #expect(trend.verdicts(for: series([(0, 80)])).last == .firstEntry)
        #expect(trend.verdicts(for: series([(0, 80), (1, 79.7)])).last == .movingDownward)
        #expect(trend.verdicts(for: series([(0, 80), (1, 80.3)])).last == .needsAttention)
        #expect(trend.verdicts(for: series([(0, 80), (1, 80.2)])).last == .holdingSteady)
        #expect(trend.verdicts(for: series([(0, 80), (5, 80.1)])).last == .holdingSteady)
        // More than 5 days since the first entry, with no drop since: a reset.
        #expect(trend.verdicts(for: series([(0, 80), (6, 80.1)])).last == .timeForReset)
        // The last drop (day 3) is 5 days before day 8: still steady; one more day and it is a reset.
        #expect(trend.verdicts(for: series([(0, 80), (3, 79), (8, 79.1)])).last == .holdingSteady)
        #expect(trend.verdicts(for: series([(0, 80), (3, 79), (6, 79.1), (9, 79.0)])).last == .timeForReset)
    }

    @Test func theStreakCountsFromTodayOrFromYesterday() {
        let streaks = DailyStreakManager(trend: trend)
        let s = series([(1, 80), (2, 80), (4, 80), (5, 80), (6, 80)])
        #expect(streaks.currentStreak(in: s, today: 6) == 3)
        #expect(streaks.currentStreak(in: s, today: 7) == 3)
        #expect(streaks.currentStreak(in: s, today: 8) == 0)
        #expect(streaks.currentStreak(in: s, today: 3) == 2)
        #expect(streaks.bestStreak(in: s) == 3)
        #expect(streaks.currentStreak(in: series([]), today: 3) == 0)
    }

    @Test func theWeekRunsMondayToSundayWithStatuses() {
        let streaks = DailyStreakManager(trend: trend)
        let monday = DayNumber.from(year: 2026, month: 11, day: 23)
        let s = series([(monday - 1, 80), (monday, 79.5), (monday + 1, 79.6), (monday + 3, 80)])
        let week = streaks.week(in: s, today: monday + 4)
        #expect(week.map(\.day) == Array(monday..<monday + 7))
        #expect(week.map(\.status) == [.movingDownward, .holdingSteady, .noCheckIn, .needsAttention, .noCheckIn, .future, .future])
    }
}
