import Foundation
import Testing
import TestSupport
import Vocabulary
import WeightLog
@testable import Progress

@Suite struct ProgressCalculatorTests {
    let days = LocalDays(timeZone: TimeZone(identifier: "UTC")!)
    let today = DayNumber.from(year: 2026, month: 6, day: 30)

    /// One entry at 08:00 on each `today − offset`.
    func entries(_ pairs: [(Int, Double)]) -> [WeightEntry] {
        pairs.map { offset, kilograms in
            WeightEntry(date: Date(timeIntervalSince1970: Double(today - offset) * 86_400 + 28_800), kilograms: kilograms)
        }
    }

    func history(_ pairs: [(Int, Double)], range: ProgressRange = .quarter, goal: Double? = nil) -> WeightHistoryData {
        ProgressCalculator.history(entries: entries(pairs), localDays: days, today: today, range: range, goalKilograms: goal)
    }

    @Test func theWindowIncludesItsFirstDayAndNotTheDayBefore() {
        let data = history([(7, 90), (6, 80), (0, 79)], range: .week)
        #expect(data.points.map(\.day) == [today - 6, today])
        // The trend comes from the whole history: day −6 starts from 90, not from 80.
        #expect(abs(data.points[0].smoothedKilograms - 89) < 1e-12)
        #expect(history([(30, 90), (29, 80)], range: .month).points.map(\.day) == [today - 29])
        #expect(history([(400, 90), (0, 80)], range: .all).points.count == 2)
    }

    /// A range whose every trend lies past the goal is judged by where the whole log's trend started, as the
    /// check-in and the verdicts are (`DailySeries.isGaining(toward:)`): still falling is improving.
    @Test func aRangePastTheGoalKeepsThePlansDirection() {
        let pairs = (0...120).map { (120 - $0, 90 - Double($0) * 0.1) }
        let data = history(pairs, range: .month, goal: 85)
        #expect(data.points.allSatisfy { $0.smoothedKilograms < 85 })
        #expect((data.changeKilograms ?? 0) < -1)
        #expect(data.changeDirection == .improving)
        #expect(history(pairs.map { ($0.0, 180 - $0.1) }, range: .month, goal: 95).changeDirection == .improving, "a gain, mirrored")
    }

    @Test func statisticsCoverTheWindow() throws {
        let data = history([(2, 80), (1, 82), (0, 81)])
        #expect(data.averageKilograms == 81)
        #expect(data.minimumKilograms == 80)
        #expect(data.maximumKilograms == 82)
        // Trend: 80, 80.2, 80.28 → change 0.28 up, with no goal: worsening.
        #expect(abs((data.changeKilograms ?? 0) - 0.28) < 1e-12)
        #expect(data.changeDirection == .worsening)
        // Three days are too few for a rate (WeightRate: 8 weighed days over 2 weeks), so there is no
        // projection to make room for: the domain spans 80…82 padded by 1 kg.
        #expect(data.projectedWeeklyChangeKilograms == nil && data.rateShortfall?.moreWeighedDays == 5)
        let domain = try #require(data.domain)
        #expect(abs(domain.lowerBound - 79) < 1e-9 && abs(domain.upperBound - 83) < 1e-9, "\(domain)")
    }

    @Test func theRateIsTheSlopeOfTheLineThroughTheDailyMeansOfTheLast56Days() throws {
        // Means that fall exactly 0.1 kg a day, with a gap; an older day outside the 56 would pull the line if counted.
        var pairs: [(Int, Double)] = [(70, 60)]
        for offset in stride(from: 40, through: 0, by: -1) where offset % 5 != 3 { pairs.append((offset, 80 + 0.1 * Double(offset))) }
        let data = history(pairs)
        let weekly = try #require(data.projectedWeeklyChangeKilograms)
        #expect(abs(weekly + 0.7) < 1e-9)
        #expect(abs((data.energyBalanceKilocaloriesPerDay ?? 0) + 770) < 1e-6)
        // No lag: the line is at today's weight today, while the 10 % trend is still above it.
        #expect(abs((data.fittedKilograms ?? 0) - 80) < 1e-9)
        #expect((data.latestTrendKilograms ?? 0) > 80.5)
        #expect(data.projection.map(\.day) == Array((today + 1)...(today + 30)))
        #expect(abs((data.projection.last?.kilograms ?? 0) - 77) < 1e-9)
    }

    /// Days `offset...0`, each `start + step × (offset − day)`: a straight line over the last `offset + 1` days.
    func line(days offset: Int, from start: Double, step: Double) -> [(Int, Double)] {
        (0...offset).map { ($0, start + step * Double(offset - $0)) }
    }

    @Test func theSlopeIsClampedAndNeedsEnoughHistoryAndRecentDays() {
        let steep = history(line(days: 13, from: 200, step: -10))
        #expect(steep.projectedWeeklyChangeKilograms == -1.05)
        let sparse = history([(20, 80), (1, 80), (0, 79)], goal: 70)
        #expect(sparse.projectedWeeklyChangeKilograms == nil)
        #expect(sparse.projectionUnavailableReason == .notEnoughHistory)
        // Enough history, but none of it recent: 10 days weighed three weeks ago, and today.
        let stale = history(line(days: 10, from: 85, step: -0.1).map { ($0.0 + 20, $0.1) } + [(0, 80)], goal: 70)
        #expect(stale.projectionUnavailableReason == .notEnoughRecentWeighIns)
        #expect(stale.rateShortfall?.description.hasPrefix("too few recent days for a rate: 1 of the last 14") == true)
    }

    /// Issue 28, items 3 and 4: five days of a new log give no rate, no calories and no goal date, and say what is missing.
    @Test func aNewLogSaysHowManyMoreDaysARateNeeds() throws {
        let five = history(line(days: 4, from: 90, step: -0.15), goal: 80)
        #expect(five.projectedWeeklyChangeKilograms == nil && five.energyBalanceKilocaloriesPerDay == nil && five.projectedGoalDay == nil)
        #expect(five.projectionUnavailableReason == .notEnoughHistory)
        let shortfall = try #require(five.rateShortfall)
        #expect(shortfall.weighedDays == 5 && shortfall.spanDays == 5 && shortfall.moreWeighedDays == 3 && shortfall.moreDays == 9)
        #expect(shortfall.description == "too few days for a rate: 5 weighed over 5 days (it needs 8 over 2 weeks)")
        #expect(shortfall.goalDateNeeds == "A goal date needs 3 more weighed days and 9 more days.")
        #expect(WeightRate.Shortfall(weighedDays: 7, spanDays: 13, recentWeighedDays: nil).goalDateNeeds
                    == "A goal date needs 1 more weighed day and 1 more day.")
        // Eight weighed days over two weeks are enough.
        let enough = history(line(days: 13, from: 90, step: -0.1).filter { $0.0 % 2 == 1 || $0.0 == 0 }, goal: 80)
        #expect(enough.rateShortfall == nil && enough.projectedGoalDay != nil)
        #expect(abs((enough.projectedWeeklyChangeKilograms ?? 0) + 0.7) < 1e-9)
    }

    @Test func theGoalDateAndEveryReasonThereIsNone() {
        // The line through 14 days falling 0.1 kg a day to 79: level 79 today, slope −0.1 a day.
        let losing = history(line(days: 13, from: 80.3, step: -0.1), goal: 75)
        let slope = (losing.projectedWeeklyChangeKilograms ?? 0) / 7
        let level = losing.fittedKilograms ?? 0
        #expect(abs(level - 79) < 1e-9 && abs(slope + 0.1) < 1e-9)
        #expect(losing.projectedGoalDay == today + Int(((75 - level) / slope).rounded(.up)))
        #expect(losing.projectedGoalDayRange.map { $0.contains(losing.projectedGoalDay ?? 0) } == true)
        #expect(losing.projectionUnavailableReason == nil)
        #expect(losing.changeDirection == .improving)

        #expect(history(line(days: 13, from: 81, step: -0.1)).projectionUnavailableReason == .noGoal)
        #expect(history(line(days: 13, from: 79, step: 0.1), goal: 70).projectionUnavailableReason == .movingAwayFromGoal)
        #expect(history(line(days: 13, from: 80.2, step: -0.001), goal: 50).projectionUnavailableReason == .moreThanAYearAway)
        #expect(history(line(days: 13, from: 71, step: 0), goal: 70).projectionUnavailableReason == .atGoal)
        #expect(history([], goal: 70).projectionUnavailableReason == .notEnoughHistory)
        // Gaining toward a higher goal is improving.
        #expect(history([(3, 60), (2, 61), (0, 62)], goal: 70).changeDirection == .improving)
    }

    @Test func warmAndColdAgree() {
        let pairs: [(Int, Double)] = (0..<200).map { index in
            let wobble: Double = sin(Double(index))
            return (199 - index, 90 - Double(index) * 0.05 + wobble)
        }
        let cold = history(pairs, range: .halfYear, goal: 80)
        let series = DailySeries(entries: entries(pairs), localDays: days)
        let warm = ProgressCalculator.history(series: series, today: today, range: .halfYear, goalKilograms: 80)
        #expect(cold == warm)
    }
}
