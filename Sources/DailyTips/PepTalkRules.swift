import Vocabulary

/// What the check-in knows that pep talks and the deck of the day depend on;
/// filled from the weight log by `AppModel.assemble(_:)`.
public struct CheckInFacts: Sendable, Equatable {
    /// Today's local day.
    public var day: Int
    /// The trend is within `WeightGoal.atGoalKilograms` of the goal.
    public var isNearGoal: Bool
    /// Today's verdict is `timeForReset` (a plateau).
    public var needsReset: Bool
    public var unit: WeightUnit
    /// Whether the latest weigh-in is today's.
    public var weighedToday: Bool
    /// Today's trend beats every earlier one (see `CheckIn.isNewBestTrend`).
    public var isNewBestTrend: Bool
    /// The trend's progress from its start toward the goal, in kilograms.
    public var progressKilograms: Double?
    /// The goal in force, whether progress means gaining, and whether the trend has reached it.
    public var goalKilograms: Double?
    public var isGaining: Bool
    public var hasReachedGoal: Bool
    /// The weigh-in streak, and the day it ends on (today or yesterday).
    public var currentStreak: Int
    public var streakLastDay: Int?
    /// Days without a weigh-in before the latest one.
    public var daysAwayBeforeLatest: Int?

    public init(day: Int, isNearGoal: Bool = false, needsReset: Bool = false, unit: WeightUnit = .kilograms, weighedToday: Bool = false,
                isNewBestTrend: Bool = false, progressKilograms: Double? = nil, goalKilograms: Double? = nil,
                isGaining: Bool = false, hasReachedGoal: Bool = false, currentStreak: Int = 0, streakLastDay: Int? = nil, daysAwayBeforeLatest: Int? = nil) {
        self.day = day
        self.isNearGoal = isNearGoal
        self.needsReset = needsReset
        self.unit = unit
        self.weighedToday = weighedToday
        self.isNewBestTrend = isNewBestTrend
        self.progressKilograms = progressKilograms
        self.goalKilograms = goalKilograms
        self.isGaining = isGaining
        self.hasReachedGoal = hasReachedGoal
        self.currentStreak = currentStreak
        self.streakLastDay = streakLastDay
        self.daysAwayBeforeLatest = daysAwayBeforeLatest
    }
}

extension CheckInFacts {
    /// The deck that fits today: maintenance near the goal (a plateau there
    /// is the point), reset on a plateau, everyday otherwise. A day whose trend
    /// is the best yet is no plateau to reset from, whatever a fortnight's line says.
    public var deck: TipDeckKind {
        if isNearGoal { return .maintenance }
        return needsReset && !isNewBestTrend ? .reset : .everyday
    }
}

/// One thing worth a pep talk, named so it is celebrated once: `key` is
/// stored when it is raised, and `covers` are the smaller milestones a
/// bigger one makes moot (reaching 10 kg at once does not later bring 5).
public struct PepTalkOccurrence: Sendable, Equatable {
    public let event: PepTalkEvent
    public let key: String
    public let covers: [String]
}

/// When each pep talk is raised, most important first. Pure.
public enum PepTalkRules {
    /// Days away (without a weigh-in) that make a weigh-in a return.
    public static let daysAway = 3
    /// A new best trend is celebrated at most once in this many days: a
    /// steady loss sets one nearly every day.
    public static let newBestSpacingDays = 7
    public static let streaks = [365: PepTalkEvent.streak365, 100: .streak100, 30: .streak30, 7: .streak7]

    /// The progress milestones toward the goal, in kilograms: 1, 5 and 10 kg,
    /// or 2, 10 and 20 lb for a person who weighs in pounds or stones.
    public static func milestones(for unit: WeightUnit) -> [(kilograms: Double, event: PepTalkEvent)] {
        let steps: [Double] = unit == .kilograms ? [1, 5, 10] : [2, 10, 20]
        let unitKilograms = unit == .kilograms ? 1 : WeightUnit.kilogramsPerPound
        return zip(steps, [PepTalkEvent.towardGoal1, .towardGoal5, .towardGoal10]).map { ($0 * unitKilograms, $1) }
    }

    /// The occurrences today's facts hold, most important first.
    public static func occurrences(_ facts: CheckInFacts) -> [PepTalkOccurrence] {
        var found: [PepTalkOccurrence] = []
        if facts.hasReachedGoal, let goal = facts.goalKilograms {
            found.append(PepTalkOccurrence(event: .goalReached, key: "goalReached@\(Int((goal * 1000).rounded()))", covers: []))
        }
        // Progress "toward your goal" is said only where there is a goal: with none, a trend that went down is no milestone.
        if let progress = facts.progressKilograms, facts.goalKilograms != nil {
            let reached = milestones(for: facts.unit).filter { progress >= $0.kilograms - 1e-9 }
            if let biggest = reached.last {
                found.append(PepTalkOccurrence(event: biggest.event, key: biggest.event.rawValue,
                                               covers: reached.dropLast().map(\.event.rawValue)))
            }
        }
        if let last = facts.streakLastDay {
            let start = last - facts.currentStreak + 1
            let reached = streaks.keys.sorted().filter { facts.currentStreak >= $0 }
            if let biggest = reached.last, let event = streaks[biggest] {
                found.append(PepTalkOccurrence(event: event, key: "\(event.rawValue)@\(start)",
                                               covers: reached.dropLast().compactMap { streaks[$0].map { "\($0.rawValue)@\(start)" } }))
            }
        }
        if facts.weighedToday, let away = facts.daysAwayBeforeLatest, away >= daysAway {
            found.append(PepTalkOccurrence(event: .backAfterBreak, key: "backAfterBreak@\(facts.day)", covers: []))
        }
        if facts.isNewBestTrend {
            found.append(PepTalkOccurrence(event: .newBestTrend, key: "newBestTrend@\(facts.day)", covers: []))
        }
        return found
    }

    /// The fewest due habit-days a week must hold to be called a perfect habit week: a habit added on Sunday and done
    /// that day is a good start, not a week (a three-times-a-week habit done three times is one).
    public static let smallestPerfectWeek = 3

    /// Whether a week of `done` out of `due` habit-days is a perfect habit week.
    public static func isPerfectHabitWeek(done: Int, due: Int) -> Bool {
        due >= smallestPerfectWeek && done >= due
    }

    /// The occurrence for a week of every due habit done, the week starting on `monday`.
    public static func habitWeek(startingOn monday: Int) -> PepTalkOccurrence {
        PepTalkOccurrence(event: .habitWeek, key: "habitWeek@\(monday)", covers: [])
    }

    /// Whether `occurrence` was celebrated already (or is too soon after the last new best).
    static func wasRaised(_ occurrence: PepTalkOccurrence, in raised: [String], day: Int) -> Bool {
        if raised.contains(occurrence.key) { return true }
        guard occurrence.event == .newBestTrend else { return false }
        let prefix = PepTalkEvent.newBestTrend.rawValue + "@"
        return raised.contains { key in
            key.hasPrefix(prefix) && Int(key.dropFirst(prefix.count)).map { day - $0 < newBestSpacingDays } == true
        }
    }
}
