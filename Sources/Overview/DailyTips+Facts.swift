import DailyTips
import Habits
import Vocabulary
import WeightLog

/// What the tips are told about the day and the week: the weight log's and
/// the habits' own values, handed across without a rule of their own.
extension CheckInFacts {
    public init(_ checkIn: CheckIn, unit: WeightUnit) {
        self.init(day: checkIn.day, isNearGoal: checkIn.isNearGoal, needsReset: checkIn.verdict == .timeForReset, unit: unit,
                  weighedToday: checkIn.latestDay == checkIn.day, isNewBestTrend: checkIn.isNewBestTrend,
                  progressKilograms: checkIn.progressKilograms, goalKilograms: checkIn.goalKilograms,
                  isGaining: checkIn.isGaining, hasReachedGoal: checkIn.hasReachedGoal,
                  currentStreak: checkIn.currentStreak,
                  streakLastDay: checkIn.currentStreak > 0 ? checkIn.latestDay : nil,
                  daysAwayBeforeLatest: checkIn.daysAwayBeforeLatest)
    }
}

extension WeekFigures {
    public init(weight: WeightPeriodFigures, habits: HabitPeriodFigures, leanMassChangeKilograms: Double?) {
        self.init(daysWeighed: weight.daysWeighed, trendChangeKilograms: weight.trendChangeKilograms,
                  weeklyRateKilograms: weight.weeklyRateKilograms, bestDay: weight.bestDay,
                  bestDayKilograms: weight.bestDayKilograms, habitsDone: habits.done, habitsDue: habits.due,
                  longestStreakName: habits.longestStreak?.name, longestStreakDays: habits.longestStreak?.days ?? 0,
                  leanMassChangeKilograms: leanMassChangeKilograms)
    }
}
