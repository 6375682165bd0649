import Foundation

/// One habit as today's list shows it.
public struct HabitSummary: Sendable, Equatable {
    /// The habit, with every mark and note, or, from `summariesReadingLittle`
    /// and `detailReadingLittle`, with those its walk read (the days shown among them).
    public let habit: Habit
    public let dueToday: Bool
    public let doneToday: Bool
    public let todayMark: HabitMark?
    /// How today stands in Loop's terms.
    public let todayStatus: HabitTodayStatus
    public let currentStreak: Int
    public let bestStreak: Int
    /// Loop's score today, 0…1.
    public let strength: Double
}

/// One habit in full: the recent days, streaks and the strength history.
public struct HabitDetail: Sendable, Equatable {
    public let summary: HabitSummary
    /// The last `days` days, oldest first, with their status.
    public let days: [(day: Int, status: HabitDayStatus)]
    /// Strength on each of those days.
    public let strengths: [Double]
    /// The days done on each weekday, Monday first, over the last `weekdayCountDays` days
    /// (Loop's frequency card, summed).
    public let doneByWeekday: [Int]

    /// How far back `doneByWeekday` counts: a year.
    public static let weekdayCountDays = 365

    public static func == (lhs: HabitDetail, rhs: HabitDetail) -> Bool {
        lhs.summary == rhs.summary && lhs.strengths == rhs.strengths && lhs.doneByWeekday == rhs.doneByWeekday
            && lhs.days.map(\.day) == rhs.days.map(\.day)
            && lhs.days.map(\.status) == rhs.days.map(\.status)
    }
}
