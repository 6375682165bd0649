import Vocabulary

/// One day of the Monday–Sunday week view.
public struct WeekDay: Sendable, Equatable {
    /// What one day of the week view shows.
    public enum Status: String, Sendable, Equatable, Codable {
        case movingDownward, holdingSteady, needsAttention, timeForReset, noCheckIn, future
    }

    public let day: Int
    public let status: Status
}

/// Counts the weigh-in streak and lays out the current week.
public struct DailyStreakManager: Sendable {
    private let trend: DailyTrendManager

    public init(trend: DailyTrendManager) {
        self.trend = trend
    }

    /// Consecutive local days with an entry, counted back from today, or
    /// from yesterday when today has none yet.
    /// - Complexity: O(streak length + log days).
    public func currentStreak(in series: DailySeries, today: Int) -> Int {
        var index = series.firstIndex(onOrAfter: today + 1) - 1
        guard index >= 0 else { return 0 }
        var expected = series.days[index] == today ? today : today - 1
        var streak = 0
        while index >= 0, series.days[index] == expected {
            streak += 1
            expected -= 1
            index -= 1
        }
        return streak
    }

    /// The longest run of consecutive days with an entry.
    public func bestStreak(in series: DailySeries) -> Int {
        var best = 0, run = 0
        for index in series.days.indices {
            run = index > 0 && series.days[index] == series.days[index - 1] + 1 ? run + 1 : 1
            best = max(best, run)
        }
        return best
    }

    /// Monday to Sunday of the week holding `today`.
    public func week(in series: DailySeries, today: Int, goalKilograms: Double? = nil) -> [WeekDay] {
        let monday = today - DayNumber.weekdayFromMonday(today)
        // Only the week's days are judged.
        let first = series.firstIndex(onOrAfter: monday)
        let verdicts = trend.verdicts(for: series, goalKilograms: goalKilograms, from: first)
        return (monday..<monday + 7).map { day in
            if day > today { return WeekDay(day: day, status: .future) }
            let index = series.firstIndex(onOrAfter: day)
            guard index < series.count, series.days[index] == day else { return WeekDay(day: day, status: .noCheckIn) }
            return WeekDay(day: day, status: Self.status(verdicts[index - first]))
        }
    }

    private static func status(_ verdict: DailyVerdict) -> WeekDay.Status {
        switch verdict {
        case .firstEntry, .holdingSteady: return .holdingSteady
        case .movingDownward: return .movingDownward
        case .needsAttention: return .needsAttention
        case .timeForReset: return .timeForReset
        }
    }
}
