import Foundation
import Vocabulary

/// The figures the list and `habit show` present: strength, streaks and
/// today's status, from the loaded habits or, when nothing is loaded yet,
/// from each habit's checkpoint on (`HabitCheckpoint`).
extension HabitsFeature {
    /// The habits shown today (archived ones hidden).
    public func summaries() -> [HabitSummary] {
        let day = today
        return habits.filter { !$0.archived }.map { summary(of: $0, today: day) }
    }

    /// Every habit's figures today, the archived ones after the others (`habits all`).
    public func summariesIncludingArchived() throws -> [HabitSummary] {
        let shown = summaries()
        let ids = Set(shown.map(\.habit.id))
        return try shown + habits.filter { !ids.contains($0.id) }.map { try detail(of: $0.name, days: 1).summary }
    }

    /// One habit's figures today, as `summaries()` gives them (nil when it is archived or gone):
    /// what a command on one habit shows, without walking every other habit.
    public func summary(ofHabitWithID id: String) -> HabitSummary? {
        habits.first { $0.id == id && !$0.archived }.map { summary(of: $0, today: today) }
    }

    /// Every habit, archived ones too, in the order they were added: with their days when loaded, else without
    /// (what a name in a command's words is read against: `trend -c 'habit show Read'` reads no habit's days for it).
    public func habitsReadingLittle() async throws -> [Habit] {
        if hasLoaded {
            try await load()
            return habits
        }
        return try await storage.habitsWithoutMarks()
    }

    /// Today's list without every day of every habit, when nothing is loaded
    /// yet (`trend -c habits`): a habit whose walk can stop and go on
    /// (`HabitCheckpoint`) is read from its stored checkpoint with only the
    /// marks since, and gets a newer checkpoint when it has none or an old
    /// one. The numbers are those `summaries()` gives, to the last bit.
    /// A checkpoint that cannot be written (a read-only folder, a busy
    /// database) is only a slower list next time.
    public func summariesReadingLittle() async throws -> [HabitSummary] {
        if hasLoaded {
            try await load()
            return summaries()
        }
        let day = today
        var summaries: [HabitSummary] = []
        var checkpoints: [String: HabitCheckpoint] = [:]
        let (stored, version) = try await storage.habitsWithCheckpoints(before: day)
        for (habit, stored) in stored where !habit.archived {
            let statistics = HabitStatistics(habit: habit, today: day)
            let computed = statistics.computedEntries()
            let walk = statistics.walk(computed: computed, from: statistics.canResume ? stored : nil)
            summaries.append(summary(of: habit, today: day, computed: computed, walk: walk))
            checkpoints[habit.id] = Self.newCheckpoint(statistics, walk: walk, stored: stored)
        }
        if !checkpoints.isEmpty {
            try? await storage.saveCheckpoints(checkpoints, ifUnchangedSince: version)  // A cache: the next list walks again.
        }
        return summaries
    }

    /// The checkpoint to store after a walk: one `settledDays` back when the
    /// habit has none, or one over `refreshDays` older; nil when the walk
    /// cannot stop and go on, or began after that day.
    static func newCheckpoint(_ statistics: HabitStatistics, walk: HabitWalk, stored: HabitCheckpoint?) -> HabitCheckpoint? {
        let settled = statistics.today - HabitCheckpoint.settledDays
        guard statistics.canResume, stored.map({ settled - $0.throughDay >= HabitCheckpoint.refreshDays }) ?? true else { return nil }
        return walk.checkpoint(at: settled)
    }

    /// The habit in full over the last `days` days.
    public func detail(of name: String, days: Int = 60) throws -> HabitDetail {
        detail(of: try habit(named: name), days: days)
    }

    /// The same when nothing is loaded yet (`trend -c 'habit show Read'`):
    /// only the named habit's days are read, from its checkpoint on when it
    /// has one before the days shown (and the last year's, for the weekday counts).
    public func detailReadingLittle(of name: String, days: Int = 60) async throws -> HabitDetail {
        try await detailReadingLittle(of: try Self.habit(named: name, in: try await habitsReadingLittle()), days: days)
    }

    /// The same for a habit already named (`habitsReadingLittle()`, the command's boundary): its days are the one read.
    public func detailReadingLittle(of named: Habit, days: Int = 60) async throws -> HabitDetail {
        if hasLoaded {
            try await load()
            return try detail(of: named.name, days: days)
        }
        let day = today
        let (habit, stored, version) = try await storage.withMarks(named, resumingBefore: day - days + 1,
                                                                   marksSince: day - HabitDetail.weekdayCountDays + 1)
        let (detail, walk) = detail(of: habit, days: days, from: stored)
        if let checkpoint = Self.newCheckpoint(HabitStatistics(habit: habit, today: day), walk: walk, stored: stored) {
            try? await storage.saveCheckpoints([habit.id: checkpoint], ifUnchangedSince: version)  // A cache: the next read walks again.
        }
        return detail
    }

    private func detail(of habit: Habit, days: Int) -> HabitDetail {
        detail(of: habit, days: days, from: nil).detail
    }

    /// The detail, walked from the first day or on from `checkpoint` (before the first day shown).
    private func detail(of habit: Habit, days: Int, from checkpoint: HabitCheckpoint?) -> (detail: HabitDetail, walk: HabitWalk) {
        let day = today
        let statistics = HabitStatistics(habit: habit, today: day)
        let computed = statistics.computedEntries()
        let statuses = statistics.statuses(computed: computed)
        let walk = statistics.walk(computed: computed, from: checkpoint)
        let range = (day - days + 1)...day
        var doneByWeekday = Array(repeating: 0, count: 7)
        for markedDay in habit.marks.keys where markedDay > day - HabitDetail.weekdayCountDays && markedDay <= day
            && habit.isDone(on: markedDay) {
            doneByWeekday[DayNumber.weekdayFromMonday(markedDay)] += 1
        }
        let detail = HabitDetail(summary: summary(of: habit, today: day, computed: computed, walk: walk),
                                 days: range.map { ($0, statistics.status(on: $0, statuses: statuses)) },
                                 strengths: range.map { $0 >= habit.firstDay ? walk.score(on: $0) ?? 0 : 0 },
                                 doneByWeekday: doneByWeekday)
        return (detail, walk)
    }

    private func summary(of habit: Habit, today: Int) -> HabitSummary {
        let statistics = HabitStatistics(habit: habit, today: today)
        let computed = statistics.computedEntries()
        return summary(of: habit, today: today, computed: computed, walk: statistics.walk(computed: computed))
    }

    private func summary(of habit: Habit, today: Int, computed: [Int: Int], walk: HabitWalk) -> HabitSummary {
        let statistics = HabitStatistics(habit: habit, today: today)
        return HabitSummary(habit: habit, dueToday: habit.isDue(on: today) && habit.marks[today] != .no,
                            doneToday: statistics.isCompletedToday(computed: computed),
                            todayMark: habit.marks[today], todayStatus: statistics.todayStatus(computed: computed),
                            currentStreak: statistics.currentStreak(streaks: walk.streaks), bestStreak: walk.bestStreak,
                            strength: walk.strength)
    }
}
