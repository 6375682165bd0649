import Foundation

/// How one day of a habit stands.
public enum HabitDayStatus: String, Sendable, Equatable {
    case done
    case skipped
    /// Due and not done, in a period that is over.
    case missed
    /// Not logged, but covered: a met quota's interval (Loop's YES_AUTO), the
    /// days after a done weekday until the next due one, or an unlogged
    /// at-most day (0 meets the limit).
    case auto
    /// Answered no, or a numeric day of nothing.
    case no
    /// A numeric day with some of its at-least target, short of it (6 of 8 glasses).
    case partly
    /// A numeric day over its at-most limit.
    case overLimit
    /// A weekday the schedule does not choose.
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
    /// Marked no, or a number of nothing.
    case no
    /// A number short of an at-least target, above nothing (6 of 8).
    case partly
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

    /// The status of every day from the first day to today, oldest first, read
    /// from Loop's computed entries: a day a met quota covers is `auto`, an
    /// unlogged at-most day meets its limit (`auto`), a day answered no or
    /// short of its target is `no`. An unlogged due day before today is
    /// `missed` (Loop's intervals begin at a check, so a later check cannot
    /// cover it); today is `pending`.
    /// - Complexity: O(days since the first day).
    public func statuses(computed: [Int: Int]? = nil) -> [HabitDayStatus] {
        let first = habit.firstDay
        guard first <= today else { return [] }
        let computed = computed ?? computedEntries()
        var result: [HabitDayStatus] = []
        result.reserveCapacity(today - first + 1)
        for day in first...today {
            let value = computed[day] ?? LoopModel.unknown
            switch value {
            case LoopModel.skip: result.append(.skipped)
            case LoopModel.unknown:
                if atMost { result.append(.auto) }
                else if case .weekdays = habit.schedule, !habit.schedule.isScheduledWeekday(day) { result.append(.notDue) }
                else { result.append(day == today ? .pending : .missed) }
            case _ where habit.kind.isNumeric:
                let amount = Double(value) / 1000
                if atMost { result.append(amount <= target ? .done : .overLimit) }
                else if amount >= target { result.append(.done) }
                else { result.append(amount > 0 ? .partly : (day == today ? .pending : .no)) }
            case LoopModel.yesManual: result.append(.done)
            case LoopModel.yesAuto: result.append(.auto)
            default: result.append(day == today ? .pending : .no)
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

    var target: Double { habit.kind.target ?? 0 }
    var atMost: Bool { if case .atMost = habit.kind { true } else { false } }

    /// The marks as Loop's original entries, by day.
    public var originalEntries: [Int: Int] {
        habit.marks.mapValues { mark in
            switch mark {
            case .skipped: LoopModel.skip
            case .no: LoopModel.no
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
        // A done due day covers the days that follow it until the next due one; a skipped one too (the weekend
        // after a skipped Friday keeps the streak, as the skip said it would).
        var computed = original
        for (day, value) in original where value == LoopModel.yesManual || value == LoopModel.skip {
            var next = day + 1
            while !habit.schedule.isScheduledWeekday(next), computed[next] == nil {
                computed[next] = value == LoopModel.skip ? LoopModel.skip : LoopModel.yesAuto
                next += 1
            }
        }
        return computed
    }

    /// Whether today counts as done, as Loop's `Habit.isCompletedToday()`
    /// (uhabits-core models/Habit.kt): a yes/no day neither NO nor unknown (so
    /// covered and skipped days too); a number that meets an at-least target.
    /// An at-most day is never complete while it lasts, since more may still
    /// come (Loop 303020a8); `todayStatus` says whether it is within its limit.
    public func isCompletedToday(computed: [Int: Int]) -> Bool {
        let value = computed[today] ?? LoopModel.unknown
        guard habit.kind.isNumeric else { return value != LoopModel.no && value != LoopModel.unknown }
        return !atMost && Double(value) / 1000 >= target
    }

    /// Whether today still asks something of the person: due, not done, not answered no, and not an at-most
    /// habit (nothing to do for a limit: a day with nothing logged keeps it, as Loop scores it).
    public func isStillDueToday(computed: [Int: Int]) -> Bool {
        habit.isDue(on: today) && !atMost && habit.marks[today] != .no && !isCompletedToday(computed: computed)
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
        return amount >= target ? .done : (amount > 0 ? .partly : .no)
    }

    /// Loop's streaks (`StreakList.recompute`), oldest first, in days that have happened since the habit
    /// began: a day a met quota or a done weekday covers ahead of today is not counted until it comes, nor
    /// one an interval reaches back to before the habit's first day. With `after`, only the days after that one are walked.
    public func streaks(computed: [Int: Int], after: Int? = nil) -> [ClosedRange<Int>] {
        let numeric = habit.kind.isNumeric, atMost = self.atMost, target = self.target
        guard let oldest = computed.keys.min(), let last = computed.keys.max() else { return [] }
        let first = max(oldest, habit.firstDay, (after ?? Int.min) + 1)
        guard first <= min(last, today) else { return [] }
        var counting: [Int] = []
        for day in first...min(last, today) {
            if let value = computed[day], LoopModel.countsForStreak(value, numeric: numeric, atMost: atMost, target: target) { counting.append(day) }
        }
        return LoopModel.streaks(counting: counting)
    }

    /// The streak holding today, or, while today is still open, the one that ended yesterday; its length in days.
    public func currentStreak(computed: [Int: Int]) -> Int {
        currentStreak(streaks: streaks(computed: computed))
    }

    /// The current streak from streaks already found.
    public func currentStreak(streaks runs: [ClosedRange<Int>]) -> Int {
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
        let from = scoreWalkStart(computed: computed)
        let scores = LoopModel.scores(values: { computed[$0] ?? LoopModel.unknown }, from: from, to: today,
                                      frequency: frequency, numeric: habit.kind.isNumeric, atMost: atMost, target: target)
        // The days before the walk begins have no score in Loop (0), whatever the habit's creation day.
        return Array(repeating: 0, count: max(0, from - first)) + Array(scores.suffix(today - max(first, from) + 1))
    }

    /// Where Loop's score walk begins (`Habit.recompute`, models/Habit.kt): at
    /// the oldest known computed entry, or today when there is none. Not the
    /// day the habit was made: an at-most habit made four days ago with
    /// nothing logged has no strength before today, not 1.0.
    func scoreWalkStart(computed: [Int: Int]) -> Int {
        min(computed.keys.min() ?? today, today)
    }
}
