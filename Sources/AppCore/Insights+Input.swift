import Foundation
import Habits
import Insights
import Vocabulary
import WeightLog

extension InsightsInput {
    /// What insights read, from the weight log and the habits as they are
    /// now: each weigh-in's local day and minute, and each habit's done and
    /// skipped days with the done days that make a week met. `onlyHabit`: that
    /// habit alone, by its id when the caller has it, otherwise by its name.
    @MainActor
    static func read(weights: WeightEntryFeature, habits: HabitsFeature, onlyHabit: (id: String?, name: String)? = nil) async throws -> InsightsInput {
        try await weights.load()
        let localDays = weights.localDays, samples = weights.samples
        var weighIns: [WeighIn] = []
        weighIns.reserveCapacity(samples.count)
        // The samples are in time order: one walk through the zone's transitions.
        var cursor = LocalDays.DayCursor(localDays)
        for (seconds, kilograms) in zip(samples.seconds, samples.kilograms) {
            let local = cursor.localSeconds(of: seconds)
            let day = Int((local / 86_400).rounded(.down))
            let minute = Int((local - Double(day) * 86_400) / 60)
            weighIns.append(WeighIn(day: day, minute: max(0, min(minute, 24 * 60 - 1)), kilograms: kilograms))
        }
        // A habit's day can meet a weigh-in only as the day before a morning or in a weigh-in's Monday-to-Sunday week:
        // the days a week before the first weigh-in and earlier are not read (a habit of thirty years, weighed for ten).
        let since = (weighIns.map(\.day).min() ?? weights.today) - InsightsCalculator.daysBeforeFirstWeighIn
        let done = switch onlyHabit {
        case nil: try await habits.doneDays(since: since)
        case let (id?, _)?: try await habits.doneDays(ofHabitWithID: id, since: since)
        case let (nil, name)?: try await habits.doneDays(ofHabitNamed: name, since: since)
        }
        let habitInputs = done.filter { !$0.habit.archived }.map { days in
            Habit(name: days.habit.name, firstDay: days.firstDay, doneDays: Set(days.done), skippedDays: Set(days.skipped),
                  weeklyQuota: weeklyQuota(days.habit.schedule))
        }
        return InsightsInput(weighIns: weighIns, habits: habitInputs, today: weights.today)
    }

    /// The done days that make a Monday-to-Sunday week met: the quota of an
    /// N-a-week habit, three quarters of the due days otherwise (5 of 7 for every day).
    static func weeklyQuota(_ schedule: HabitSchedule) -> Int {
        switch schedule {
        case .daily: 5
        case let .weekdays(days): max(1, Int((Double(days.count) * 0.75).rounded(.up)))
        case let .timesPerWeek(times): times
        case let .timesPerDays(times, days): max(1, Int((7 * Double(times) / Double(days)).rounded(.up)))
        }
    }
}
