import Foundation

/// Where the walk over a habit's days stood at the end of one day: the score
/// that day, and the streaks up to it. `habits` goes on from here instead of
/// from the habit's first day, so decades of marks are not read for a list.
///
/// Only where a day's computed entry depends on no later mark (`HabitStatistics.canResume`):
/// a daily or weekday schedule, or any numeric habit. Loop's quota intervals
/// (N times a week, N in M days, yes/no) slide back when a later check
/// arrives, so such habits are always walked whole.
///
/// Stored in `habit_checkpoints` (schema 13); SQLite triggers delete a
/// habit's checkpoint when a mark on or before its day changes, or the habit
/// itself does, in the same transaction as the change: an undo, a restore or
/// another process included.
public struct HabitCheckpoint: Sendable, Equatable {
    /// The last day the walk covered; always before today.
    public let throughDay: Int
    /// The first day of the score walk (`LoopModel.scores` from there).
    public let from: Int
    /// Loop's score at the end of `throughDay`.
    public let score: Double
    /// The longest streak that ended before the run holding `throughDay`.
    public let longestEndedStreak: Int
    /// The first day of the streak holding `throughDay`, when one does.
    public let runStart: Int?

    /// Whether the stored values can be a walk's (a damaged row is walked past, never trusted):
    /// the walk began by its day, the open streak lies within it, the score is Loop's 0…1.
    public var isPlausible: Bool {
        from <= throughDay && longestEndedStreak >= 0 && score.isFinite && (0...1).contains(score)
            && runStart.map { $0 >= from && $0 <= throughDay } ?? true
    }

    /// How many days before today a new checkpoint is taken: seventy, so
    /// backfilled marks ("habit done Read 3 days ago") leave it standing and
    /// the 60 days `habit show` draws begin after it (the detail goes on from
    /// the same checkpoint as the list).
    public static let settledDays = 70

    /// How old a checkpoint may grow before a newer one replaces it.
    public static let refreshDays = 30

    /// The days before `throughDay` whose marks the walk on still reads: the
    /// score's window (twice Loop's for a non-daily yes/no habit) and the week
    /// a done weekday covers ahead of it.
    public static func daysBefore(for frequency: LoopModel.Frequency) -> Int {
        2 * frequency.denominator + 7
    }
}

/// A habit's days walked, from a checkpoint or from its first day: what the list and the detail show of its history.
struct HabitWalk {
    /// Loop's score on each day from `firstScoredDay` to today.
    let scores: [Double]
    let firstScoredDay: Int
    /// The streaks from the checkpoint's open run on (all of them without one), oldest first.
    let streaks: [ClosedRange<Int>]
    /// The longest streak that ended before `streaks` begin.
    let longestEndedStreak: Int
    /// The first day of the score walk.
    let from: Int

    var strength: Double { scores.last ?? 0 }
    var bestStreak: Int { max(longestEndedStreak, streaks.map(\.count).max() ?? 0) }

    /// The score on `day`, when the walk covered it.
    func score(on day: Int) -> Double? {
        let index = day - firstScoredDay
        return index >= 0 && index < scores.count ? scores[index] : nil
    }

    /// The checkpoint at the end of `day`, which must lie in the walk and before today.
    func checkpoint(at day: Int) -> HabitCheckpoint? {
        let index = day - firstScoredDay
        guard index >= 0, index < scores.count - 1 else { return nil }
        let holding = streaks.first { $0.contains(day) }
        let ended = streaks.filter { $0.upperBound < day && $0 != holding }.map(\.count).max() ?? 0
        return HabitCheckpoint(throughDay: day, from: from, score: scores[index],
                               longestEndedStreak: max(longestEndedStreak, ended), runStart: holding?.lowerBound)
    }
}

extension HabitStatistics {
    /// Whether a day's computed entry depends only on marks up to it, so a
    /// walk can stop at a day and go on later (`HabitCheckpoint`).
    public var canResume: Bool {
        if habit.kind.isNumeric { return true }
        switch habit.schedule {
        case .daily, .weekdays: return true
        case .timesPerWeek, .timesPerDays: return frequency.denominator == 1
        }
    }

    /// The walk from the first day, or on from `checkpoint` (the habit then
    /// needs only the marks since `HabitCheckpoint.daysBefore` its day).
    func walk(computed: [Int: Int], from checkpoint: HabitCheckpoint? = nil) -> HabitWalk {
        let from = checkpoint?.from ?? scoreWalkStart(computed: computed)
        let resuming = checkpoint.map { (day: $0.throughDay, score: $0.score) }
        let scores = from <= today
            ? LoopModel.scores(values: { computed[$0] ?? LoopModel.unknown }, from: from, to: today, frequency: frequency,
                               numeric: habit.kind.isNumeric, atMost: atMost, target: target, resuming: resuming)
            : []
        let firstScoredDay = resuming.map { max(from, $0.day + 1) } ?? from
        guard let checkpoint else {
            return HabitWalk(scores: scores, firstScoredDay: firstScoredDay, streaks: streaks(computed: computed),
                             longestEndedStreak: 0, from: from)
        }
        var runs = streaks(computed: computed, after: checkpoint.throughDay)
        if let start = checkpoint.runStart {
            if let first = runs.first, first.lowerBound == checkpoint.throughDay + 1 {
                runs[0] = start...first.upperBound
            } else {
                runs.insert(start...checkpoint.throughDay, at: 0)
            }
        }
        return HabitWalk(scores: scores, firstScoredDay: firstScoredDay, streaks: runs,
                         longestEndedStreak: checkpoint.longestEndedStreak, from: from)
    }
}
