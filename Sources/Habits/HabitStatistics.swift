import Foundation
import Settings

/// How one day of a habit stands.
public enum HabitDayStatus: String, Sendable, Equatable {
    case done
    case skipped
    /// Due and not done, in a period that is over.
    case missed
    /// Not scheduled, or the period's quota was met without it.
    case notDue
    /// Today or an open period: it can still be done.
    case pending
    case beforeStart
    case future
}

/// Streaks and strength of one habit, computed from its marks. Pure.
///
/// A streak counts consecutive due days that were done; skipped days and
/// days that are not due neither break nor add to it. Strength is Loop
/// Habit Tracker's score: `m = 0.5^(sqrt(f)/13)` with `f` repetitions a day,
/// `score = previous · m + value · (1 − m)` a day, `value` the fraction of the
/// scheduled repetitions done in the trailing period (capped at 1); a
/// skipped day leaves the score unchanged. It starts at 0.
public struct HabitStatistics: Sendable {
    public let habit: Habit
    public let today: Int

    public init(habit: Habit, today: Int) {
        self.habit = habit
        self.today = today
    }

    /// The status of every day from the first day to today, oldest first.
    /// - Complexity: O(days since the first day).
    public func statuses() -> [HabitDayStatus] {
        let first = habit.firstDay
        guard first <= today else { return [] }
        var result: [HabitDayStatus] = []
        result.reserveCapacity(today - first + 1)
        var periodCache: (start: Int, end: Int, met: Bool)?
        for day in first...today {
            if habit.isDone(on: day) { result.append(.done); continue }
            if habit.marks[day] == .skipped { result.append(.skipped); continue }
            switch habit.schedule {
            case .daily:
                result.append(day == today ? .pending : .missed)
            case .weekdays:
                result.append(!habit.schedule.isScheduledWeekday(day) ? .notDue : (day == today ? .pending : .missed))
            case .timesPerWeek, .timesPerDays:
                if periodCache == nil || day > periodCache!.end {
                    let bounds = period(containing: day)
                    periodCache = (bounds.start, bounds.end, doneCount(from: bounds.start, to: bounds.end) >= habit.schedule.period.times)
                }
                let current = periodCache!
                if current.met { result.append(.notDue) }
                else if current.end >= today { result.append(.pending) }
                else { result.append(.missed) }
            }
        }
        return result
    }

    /// The status of `day` (any day, also before the start or in the future).
    public func status(on day: Int, statuses: [HabitDayStatus]) -> HabitDayStatus {
        if day > today { return .future }
        let index = day - habit.firstDay
        guard index >= 0, index < statuses.count else { return .beforeStart }
        return statuses[index]
    }

    /// Done due days back from today; an undone today does not break it.
    public func currentStreak(statuses: [HabitDayStatus]) -> Int {
        var streak = 0
        for status in statuses.reversed() {
            switch status {
            case .done: streak += 1
            case .missed: return streak
            case .skipped, .notDue, .pending, .beforeStart, .future: continue
            }
        }
        return streak
    }

    public func bestStreak(statuses: [HabitDayStatus]) -> Int {
        var best = 0, run = 0
        for status in statuses {
            if status == .done { run += 1; best = max(best, run) }
            else if status == .missed { run = 0 }
        }
        return best
    }

    /// Loop's multiplier for this habit's frequency.
    public var multiplier: Double { pow(0.5, habit.schedule.frequency.squareRoot() / 13) }

    /// Strength of every day from the first day to today, 0…1.
    /// - Complexity: O(days · period length).
    public func strengths() -> [Double] {
        let first = habit.firstDay
        guard first <= today else { return [] }
        let multiplier = self.multiplier
        let (times, length) = habit.schedule.period
        var scores: [Double] = []
        scores.reserveCapacity(today - first + 1)
        var score = 0.0
        for day in first...today {
            if habit.marks[day] != .skipped {
                var sum = 0.0
                for back in max(first, day - length + 1)...day { sum += progress(on: back) }
                let value = min(1, sum / Double(times))
                score = score * multiplier + value * (1 - multiplier)
            }
            scores.append(score)
        }
        return scores
    }

    private func progress(on day: Int) -> Double {
        switch habit.marks[day] {
        case .done?: return 1
        case let .value(value)?: return habit.kind.progress(value)
        case .skipped?, nil: return 0
        }
    }

    private func period(containing day: Int) -> (start: Int, end: Int) {
        let period = habit.schedule.period(containing: day, firstDay: habit.firstDay)
        return (period.lowerBound, period.upperBound)
    }

    private func doneCount(from start: Int, to end: Int) -> Int {
        (start...end).reduce(0) { $0 + (habit.isDone(on: $1) ? 1 : 0) }
    }
}
