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

/// How a habit's today stands, in Loop's terms.
public enum HabitTodayStatus: String, Sendable, Equatable {
    /// Marked done (a yes/no habit), or a number that meets an at-least target.
    case done
    /// Not marked, but covered by a quota already met (Loop's YES_AUTO).
    case auto
    case skipped
    /// Marked no, or a number short of an at-least target.
    case no
    case unknown
    /// An at-most habit's number within its limit, or over it.
    case withinLimit, overLimit
}

/// Streaks and strength of one habit, computed from its marks. Pure.
///
/// Strength and streaks are Loop Habit Tracker's (`LoopModel`): the marks
/// become Loop's entries, the computed entries add the days a met quota
/// covers, the score is `ScoreList.recompute` and a streak counts the
/// consecutive days whose computed value counts (done, covered or skipped;
/// a numeric day that meets its target). Weekday schedules, which Loop
/// lacks, follow the same model: the days after a done due day that are not
/// due are covered, up to the next due day.
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

    /// Loop's frequency for the schedule (chosen weekdays count as that many a week).
    public var frequency: LoopModel.Frequency {
        switch habit.schedule {
        case .daily: LoopModel.Frequency(1, 1)
        case let .weekdays(days): LoopModel.Frequency(days.count, 7)
        case let .timesPerWeek(times): LoopModel.Frequency(times, 7)
        case let .timesPerDays(times, days): LoopModel.Frequency(times, days)
        }
    }

    private var target: Double { habit.kind.target ?? 0 }
    private var atMost: Bool { if case .atMost = habit.kind { true } else { false } }

    /// The marks as Loop's original entries, by day.
    public var originalEntries: [Int: Int] {
        habit.marks.mapValues { mark in
            switch mark {
            case .skipped: LoopModel.skip
            case let .value(value): habit.kind.isNumeric ? Int((value * 1000).rounded()) : (value >= 1 ? LoopModel.yesManual : LoopModel.no)
            case .done: habit.kind.isNumeric ? Int((target * 1000).rounded()) : LoopModel.yesManual
            }
        }
    }

    /// Loop's computed entries: known days only, by day.
    public func computedEntries() -> [Int: Int] {
        let original = originalEntries
        if habit.kind.isNumeric { return original }
        guard case .weekdays = habit.schedule else { return LoopModel.computedEntries(original: original, frequency: frequency) }
        // A done due day covers the days that follow it until the next due one.
        var computed = original
        for (day, value) in original where value == LoopModel.yesManual {
            var next = day + 1
            while !habit.schedule.isScheduledWeekday(next), computed[next] == nil {
                computed[next] = LoopModel.yesAuto
                next += 1
            }
        }
        return computed
    }

    /// Whether today counts as done (`Habit.isCompletedToday`): a covered or
    /// skipped day too; an at-most habit never, while the day can still go over.
    public func isCompletedToday(computed: [Int: Int]) -> Bool {
        let value = computed[today] ?? LoopModel.unknown
        guard habit.kind.isNumeric else { return value != LoopModel.no && value != LoopModel.unknown }
        return atMost ? false : Double(value) / 1000 >= target
    }

    /// Today in Loop's terms, from the computed entries.
    public func todayStatus(computed: [Int: Int]) -> HabitTodayStatus {
        let value = computed[today] ?? LoopModel.unknown
        switch value {
        case LoopModel.unknown: return .unknown
        case LoopModel.skip: return .skipped
        default: break
        }
        guard habit.kind.isNumeric else { return value == LoopModel.yesManual ? .done : (value == LoopModel.yesAuto ? .auto : .no) }
        let amount = Double(value) / 1000
        if atMost { return amount <= target ? .withinLimit : .overLimit }
        return amount >= target ? .done : .no
    }

    /// Loop's streaks, oldest first; covered days ahead of today count, as in Loop.
    public func streaks(computed: [Int: Int]) -> [ClosedRange<Int>] {
        let numeric = habit.kind.isNumeric, atMost = self.atMost, target = self.target
        return LoopModel.streaks(counting: computed.filter {
            $0.key <= today + 30 && LoopModel.countsForStreak($0.value, numeric: numeric, atMost: atMost, target: target)
        }.map(\.key))
    }

    /// The streak holding today, or, while today is still open, the one that ended yesterday; its length in days.
    public func currentStreak(computed: [Int: Int]) -> Int {
        let runs = streaks(computed: computed)
        guard let run = runs.last(where: { $0.contains(today) }) ?? runs.last(where: { $0.upperBound == today - 1 }) else { return 0 }
        return run.count
    }

    public func bestStreak(computed: [Int: Int]) -> Int {
        streaks(computed: computed).map(\.count).max() ?? 0
    }

    /// Strength of every day from the first day to today, 0…1 (`ScoreList.recompute`).
    /// - Complexity: O(days since the first entry).
    public func strengths(computed: [Int: Int]? = nil) -> [Double] {
        let first = habit.firstDay
        guard first <= today else { return [] }
        let computed = computed ?? computedEntries()
        let from = min(first, computed.keys.min() ?? today)
        let scores = LoopModel.scores(values: { computed[$0] ?? LoopModel.unknown }, from: from, to: today,
                                      frequency: frequency, numeric: habit.kind.isNumeric, atMost: atMost, target: target)
        return Array(scores.suffix(today - first + 1))
    }

    private func period(containing day: Int) -> (start: Int, end: Int) {
        let period = habit.schedule.period(containing: day, firstDay: habit.firstDay)
        return (period.lowerBound, period.upperBound)
    }

    private func doneCount(from start: Int, to end: Int) -> Int {
        (start...end).reduce(0) { $0 + (habit.isDone(on: $1) ? 1 : 0) }
    }
}
