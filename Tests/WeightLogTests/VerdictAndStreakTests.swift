import Foundation
import Testing
import TestSupport
@testable import WeightLog
import Vocabulary

@Suite struct VerdictAndStreakTests {
    let trend = DailyTrendManager()

    /// A series with one entry a day on the given day numbers.
    func series(_ pairs: [(Int, Double)]) -> DailySeries {
        let days = LocalDays(timeZone: TimeZone(identifier: "UTC")!)
        return DailySeries(sortedSeconds: pairs.map { Double($0.0) * 86_400 + 28_800 }, kilograms: pairs.map(\.1), localDays: days)
    }

    @Test func everyVerdict() {
        #expect(trend.verdicts(for: series([])).last == nil)
        #expect(trend.verdicts(for: series([(0, 80)])).last == .firstEntry)
        #expect(trend.verdicts(for: series([(0, 80), (1, 79.7)])).last == .movingDownward)
        #expect(trend.verdicts(for: series([(0, 80), (1, 80.3)])).last == .needsAttention)
        #expect(trend.verdicts(for: series([(0, 80), (1, 80.2)])).last == .holdingSteady)
        // Fourteen days of history and a flat last week: a plateau.
        let flat = (0...14).map { ($0, 80.0 + ($0 % 2 == 0 ? 0.05 : -0.05)) }
        #expect(trend.verdicts(for: series(flat)).last == .timeForReset)
        #expect(trend.verdicts(for: series(Array(flat.prefix(14)))).last == .holdingSteady, "13 days of history are not enough")
        // Only 3 weigh-in days in the last week: not enough to call it a plateau.
        #expect(trend.verdicts(for: series(flat.filter { $0.0 < 8 || $0.0 % 3 == 0 })).last == .holdingSteady)
    }

    /// A seeded diet: `rate` kg a day with noise of `noise` kg, one weigh-in a day.
    func diet(days: Int, start: Double = 90, rate: (Int) -> Double, noise: Double, seed: UInt64) -> [(Int, Double)] {
        var random = SplitMix64(seed: seed)
        var weight = start
        return (0..<days).map { day in
            weight += rate(day)
            let gaussian = (0..<12).map { _ in Double(random.next() % 1_000_000) / 1_000_000 }.reduce(0, +) - 6
            return (day, weight + gaussian * noise)
        }
    }

    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func aSteadyLossOf350GramsAWeekNeverAsksForAReset(seed: UInt64) {
        let days = diet(days: 60, rate: { _ in -0.05 }, noise: 0.05, seed: seed)
        #expect(!trend.verdicts(for: series(days)).contains(.timeForReset))
    }

    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func aPlateauOfTwoWeeksAfterALossAsksForAResetWithinIt(seed: UInt64) {
        // Five weeks of −0.5 kg a week, then two weeks flat: the two-week line falls under 0.1 kg a week after
        // about ten flat days (the 10 % trend would take about three weeks).
        let days = diet(days: 49, rate: { $0 < 35 ? -0.5 / 7 : 0 }, noise: 0.05, seed: seed)
        let verdicts = trend.verdicts(for: series(days))
        #expect(!verdicts.prefix(35).contains(.timeForReset), "not during the loss")
        #expect(verdicts.suffix(14).contains(.timeForReset), "within the two weeks of plateau: \(verdicts.suffix(14))")
        #expect(!verdicts.dropFirst(35).prefix(7).contains(.timeForReset), "not in the plateau's first week, while the line still falls")
    }

    /// The days judged from an index on (a check-in's last day, a week's seven) get the verdicts a judgement
    /// of every day gives them: the best trend before them is carried forward, the rest is theirs.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func judgingFromADayGivesTheVerdictsOfJudgingEveryDay(seed: UInt64) {
        let days = series(diet(days: 120, rate: { $0 < 50 ? -0.08 : ($0 < 80 ? 0 : 0.06) }, noise: 0.15, seed: seed))
        for goal in [nil, 70.0, 120.0] as [Double?] {
            let every = trend.verdicts(for: days, goalKilograms: goal)
            for first in [0, 1, 13, 49, 60, 113, 119] {
                #expect(trend.verdicts(for: days, goalKilograms: goal, from: first) == Array(every[first...]), "from \(first), goal \(String(describing: goal))")
                #expect(trend.verdict(at: first, for: days, goalKilograms: goal) == every[first])
            }
            #expect(trend.verdicts(for: days, goalKilograms: goal, from: 120).isEmpty)
        }
    }

    @Test func aGainGoalIsMirrored() {
        let gaining = diet(days: 40, start: 60, rate: { _ in 0.05 }, noise: 0.05, seed: 9)
        #expect(!trend.verdicts(for: series(gaining), goalKilograms: 70).contains(.timeForReset))
        let stalled = diet(days: 49, start: 60, rate: { $0 < 35 ? 0.5 / 7 : 0 }, noise: 0.05, seed: 9)
        #expect(trend.verdicts(for: series(stalled), goalKilograms: 70).suffix(14).contains(.timeForReset))
        // Without a goal the same rise is away from "down": a flat week there is judged as a loss would be.
        #expect(trend.verdicts(for: series(stalled)).suffix(14).contains(.timeForReset))
    }

    /// "Gaining" has one reference point, where the trend started (`DailySeries.isGaining(toward:)`): a loss that
    /// passes its goal and goes on is still progress of the plan, for every judgement alike. Judged from each day's
    /// own trend instead, the days below 80 took the goal as lying above, asked for a reset while the line fell
    /// 0.5 kg a week, and disagreed with the check-in's `isGaining` and its new best.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func aLossThatPassesItsGoalIsJudgedByWhereTheTrendStarted(seed: UInt64) throws {
        let days = series(diet(days: 70, start: 84, rate: { _ in -0.5 / 7 }, noise: 0.02, seed: seed))
        let goal = 82.5
        #expect(!days.isGaining(toward: goal))
        let crossed = try #require(days.smoothedKilograms.firstIndex { $0 < goal - WeightGoal.atGoalKilograms })
        #expect(crossed < 56, "the trend is past the goal for a fortnight at least")
        let verdicts = trend.verdicts(for: days, goalKilograms: goal)
        #expect(!verdicts[crossed...].contains(.timeForReset), "\(verdicts[crossed...])")
        // The verdict of every day agrees with a judgement of the log without a goal, whose progress is down too.
        #expect(verdicts == trend.verdicts(for: days))
        #expect(days.bestTrend(before: days.count - 1, gaining: days.isGaining(toward: goal)) == days.smoothedKilograms.dropLast().min())
    }

    @Test func theStreakCountsFromTodayOrFromYesterday() {
        let streaks = DailyStreakManager(trend: trend)
        let s = series([(1, 80), (2, 80), (4, 80), (5, 80), (6, 80)])
        #expect(streaks.currentStreak(in: s, today: 6) == 3)
        #expect(streaks.currentStreak(in: s, today: 7) == 3)
        #expect(streaks.currentStreak(in: s, today: 8) == 0)
        #expect(streaks.currentStreak(in: s, today: 3) == 2)
        #expect(streaks.bestStreak(in: s) == 3)
        #expect(streaks.currentStreak(in: series([]), today: 3) == 0)
    }

    @Test func theWeekRunsMondayToSundayWithStatuses() {
        let streaks = DailyStreakManager(trend: trend)
        let monday = DayNumber.from(year: 2026, month: 11, day: 23)
        let s = series([(monday - 1, 80), (monday, 79.5), (monday + 1, 79.6), (monday + 3, 80)])
        let week = streaks.week(in: s, today: monday + 4)
        #expect(week.map(\.day) == Array(monday..<monday + 7))
        #expect(week.map(\.status) == [.movingDownward, .holdingSteady, .noCheckIn, .needsAttention, .noCheckIn, .future, .future])
    }
}

/// Issue 28, item 3: the reset verdict says what the rate says. A day `summary` and `progress` rate as
/// moving toward the goal is never a plateau, and a plateau is a span the same rule rates as flat.
@Suite struct VerdictAgreesWithTheRateTests {
    @Test(arguments: [11, 12, 13, 14, 15] as [UInt64])
    func aResetDayIsADayTheTwoWeekRateCallsFlat(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let localDays = LocalDays(timeZone: TimeZone(identifier: "UTC")!)
        // Ten weeks of a diet that loses, stalls, loses again and bumps on weekends, one weigh-in most days.
        var weight = 90.0, seconds: [Double] = [], kilograms: [Double] = []
        for day in 0..<70 {
            weight += [0..<21: -0.07, 21..<42: 0.0, 42..<70: -0.05].first { $0.key.contains(day) }?.value ?? 0
            guard random.next() % 10 != 0 else { continue }
            let bump = day % 7 == 5 || day % 7 == 6 ? 0.3 : 0
            let noise = Double(random.next() % 1_000) / 1_000 * 0.4 - 0.2
            seconds.append(Double(day) * 86_400 + 25_200)
            kilograms.append(weight + bump + noise)
        }
        let series = DailySeries(sortedSeconds: seconds, kilograms: kilograms, localDays: localDays)
        let verdicts = DailyTrendManager().verdicts(for: series)
        for (index, verdict) in verdicts.enumerated() where verdict == .timeForReset {
            let day = series.days[index]
            let rate = series.rate(from: day - 13, through: day).rate
            #expect(rate.map { -$0.weeklyKilograms <= DailyTrendManager.plateauKilogramsAWeek } == true, "day \(day)")
        }
        #expect(verdicts[21..<42].contains(.timeForReset) || verdicts.isEmpty, "the stall is seen")
    }
}
