import Desktop
import Foundation
import Vocabulary

/// A habit's reminder times as stored and as a snapshot holds them: `09:30 21:00`, in the order of the clock.
public enum HabitReminderTimes {
    /// The stored text of `times`.
    public static func stored(_ times: [TimeOfDay]) -> String {
        times.sorted().map(\.description).joined(separator: " ")
    }

    /// The times a stored text holds (none for an empty text); nil when it holds anything else, or more than
    /// `TimeOfDay.maximumCount`, or a time twice.
    public static func read(_ text: String) -> [TimeOfDay]? {
        let words = text.split(separator: " ").map(String.init)
        guard words.count <= TimeOfDay.maximumCount else { return nil }
        var times: [TimeOfDay] = []
        for word in words {
            guard word.count == 5, let time = TimeOfDay(word), time.description == word, !times.contains(time) else { return nil }
            times.append(time)
        }
        return times.sorted()
    }
}

/// A reminder recorded as sent: the habit and the minute it was due, `day × 1440 + minutes after midnight`
/// (the habit day, so a time before the day start belongs to the day it ends). Recorded on every device
/// through sync, so no reminder is sent twice anywhere.
public struct HabitReminderSent: Sendable, Hashable {
    public let habitID: String
    public let moment: Int
}

/// One reminder of one habit on one habit day: what is due, and when it comes due (DESIGN §9).
public struct HabitReminder: Sendable, Equatable {
    public let habit: Habit
    /// The habit day it belongs to.
    public let day: Int
    public let time: TimeOfDay
    /// The instant it comes due: the time on that day's date, or on the next date for a time before the day
    /// start (a 01:30 reminder with days starting at 04:00 is the night after the day's evening).
    public let dueAt: Date
    /// What is asked of the day, as a person reads it: `not done yet today`, `8 glasses, 3 so far`.
    public let what: String

    public var sent: HabitReminderSent { HabitReminderSent(habitID: habit.id, moment: day * TimeOfDay.minutesInDay + time.minutes) }

    /// The reminders of `habits` on the habit day `day` that ask something of it: the habit is not archived,
    /// the day is due by its schedule, and it is not done, met, skipped or answered no yet. An at-most habit
    /// asks nothing (its limit is kept by doing nothing), so it is reminded of nothing.
    /// - Complexity: O(habits × days since each habit's first day), as the habits' streaks.
    public static func reminders(of habits: [Habit], on day: Int, dayStartMinutes: Int, days: LocalDays) -> [HabitReminder] {
        var found: [HabitReminder] = []
        for habit in habits where !habit.archived && !habit.reminders.isEmpty {
            if case .atMost = habit.kind { continue }
            let statistics = HabitStatistics(habit: habit, today: day)
            let computed = statistics.computedEntries()
            guard statistics.isStillDueToday(computed: computed), habit.marks[day] != .skipped else { continue }
            let what = Self.what(habit, on: day)
            for time in habit.reminders {
                let date = time.minutes < dayStartMinutes ? day + 1 : day
                let dueAt = days.firstInstant(atOrAfterLocalSeconds: Double(date) * 86_400 + Double(time.minutes) * 60)
                found.append(HabitReminder(habit: habit, day: day, time: time, dueAt: dueAt, what: what))
            }
        }
        return found.sorted { ($0.dueAt, $0.habit.name) < ($1.dueAt, $1.habit.name) }
    }

    /// `not done yet today`, or for a number, the target and what the day holds (`8 glasses, 3 so far`,
    /// `8 glasses, none yet`).
    static func what(_ habit: Habit, on day: Int) -> String {
        guard case let .atLeast(target) = habit.kind else { return "not done yet today" }
        let unit = habit.unit.isEmpty ? "" : " " + habit.unit
        let so = if case let .value(value)? = habit.marks[day], value > 0 { "\(HabitReminder.number(value)) so far" } else { "none yet" }
        return "\(HabitReminder.number(target))\(unit), \(so)"
    }

    /// The desktop notification that carries it, as Loop's does: the habit's name as the title, what is due in
    /// words under it, and "Done" and "Skip". It stays until the person acts or the watcher closes it.
    public var notification: DesktopNotification {
        DesktopNotification(summary: habit.name, body: what.prefix(1).uppercased() + what.dropFirst(),
                            actions: [.init(key: "done", label: "Done"), .init(key: "skip", label: "Skip")], expiresAfter: 0)
    }

    static func number(_ value: Double) -> String {
        PlainDecimal.text(value)
    }
}

/// A desktop notification this installation sent, and the reminder it carries: what the watcher believes an
/// action for, and closes once the habit's day asks nothing more.
public struct OpenReminderNotification: Sendable, Equatable {
    public let notification: ShownNotification
    public let reminder: HabitReminderSent

    /// The habit day of the reminder.
    public var day: Int {
        let (quotient, remainder) = reminder.moment.quotientAndRemainder(dividingBy: TimeOfDay.minutesInDay)
        return remainder < 0 ? quotient - 1 : quotient
    }
}
