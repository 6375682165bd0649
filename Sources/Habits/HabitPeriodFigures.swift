/// How the habits went over a stretch of days (a week, a month): one
/// computation behind the Monday review, and for any screen that looks back.
public struct HabitPeriodFigures: Sendable, Equatable {
    /// Due days done, and days due, summed over the habits.
    public let done: Int
    public let due: Int
    /// The longest streak still alive on the period's last day, and whose.
    public let longestStreak: (name: String, days: Int)?
    /// Each habit's own figures, in the habits' order.
    public let habits: [Habit]

    /// One habit over the period: due days done, days due, and its streak on the period's last day.
    public struct Habit: Sendable, Equatable {
        public let name: String
        public let done: Int
        public let due: Int
        public let streakDays: Int
    }

    public init(done: Int, due: Int, longestStreak: (name: String, days: Int)?, habits: [Habit] = []) {
        self.done = done
        self.due = due
        self.longestStreak = longestStreak
        self.habits = habits
    }

    /// Every due habit done, with at least one due.
    public var isComplete: Bool { due > 0 && done >= due }

    public static func == (lhs: HabitPeriodFigures, rhs: HabitPeriodFigures) -> Bool {
        lhs.done == rhs.done && lhs.due == rhs.due && lhs.longestStreak?.name == rhs.longestStreak?.name
            && lhs.longestStreak?.days == rhs.longestStreak?.days && lhs.habits == rhs.habits
    }
}

extension HabitStatistics {
    /// One habit's due and done days in `firstDay...lastDay` (up to today,
    /// from its first day), and the length of its streak on `lastDay` (the
    /// current streak, as `habits` shows it, when the period runs to today).
    ///
    /// Daily and weekday habits are due on each scheduled day: a done day is
    /// done, a missed or no day is due and not done (today too, while it is
    /// open), a skipped day is neither.
    /// An at-most habit is done on each day within its limit. A quota (N a
    /// week, N in M days) is due its share of the days, and done up to it.
    public func figures(from firstDay: Int, through lastDay: Int, computed: [Int: Int]? = nil)
        -> (done: Int, due: Int, streakDays: Int) {
        let computed = computed ?? computedEntries()
        let statuses = statuses(computed: computed)
        let first = max(firstDay, habit.firstDay), last = min(lastDay, today)
        var done = 0, due = 0
        if first <= last {
            for day in first...last {
                switch status(on: day, statuses: statuses) {
                case .done: done += 1; due += 1
                case .auto where isAtMost: done += 1; due += 1
                case .missed, .no, .overLimit: due += 1
                // Today counts while it can still be done: `habits` lists it as due, and so does the summary.
                case .pending, .partly: due += 1
                default: break
                }
            }
            if case let .timesPerWeek(times) = habit.schedule { due = share(times, of: 7, days: last - first + 1) }
            if case let .timesPerDays(times, length) = habit.schedule { due = share(times, of: length, days: last - first + 1) }
            done = min(done, due)
        }
        let runs = streaks(computed: computed)
        // A period that runs to today has the habits screen's streak; one that ended before, the streak as it
        // stood on its last day (the Monday review says what `habits` said on Sunday).
        guard lastDay < today else { return (done, due, currentStreak(streaks: runs)) }
        let run = runs.last { $0.contains(lastDay) }
        return (done, due, run.map { min(lastDay, $0.upperBound) - $0.lowerBound + 1 } ?? 0)
    }

    private var isAtMost: Bool { if case .atMost = habit.kind { true } else { false } }

    /// A quota's share of `days` days, at least one.
    private func share(_ times: Int, of length: Int, days: Int) -> Int {
        max(1, Int((Double(times) * Double(days) / Double(length)).rounded()))
    }
}

extension HabitsFeature {
    /// The habits' figures over the habit days `firstDay...lastDay` (archived habits left out).
    public func figures(from firstDay: Int, through lastDay: Int) async throws -> HabitPeriodFigures {
        try await load()
        let day = today
        var done = 0, due = 0
        var longest: (name: String, days: Int)?
        var each: [HabitPeriodFigures.Habit] = []
        for habit in habits where !habit.archived {
            let figures = HabitStatistics(habit: habit, today: day).figures(from: firstDay, through: lastDay)
            done += figures.done
            due += figures.due
            if figures.streakDays > (longest?.days ?? 0) { longest = (habit.name, figures.streakDays) }
            each.append(HabitPeriodFigures.Habit(name: habit.name, done: figures.done, due: figures.due, streakDays: figures.streakDays))
        }
        return HabitPeriodFigures(done: done, due: due, longestStreak: longest, habits: each)
    }
}
