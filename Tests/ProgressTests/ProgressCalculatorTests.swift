import Foundation
import Settings
import Testing
import TestSupport
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

    @Test func statisticsCoverTheWindow() throws {
        let data = history([(2, 80), (1, 82), (0, 81)])
        #expect(data.averageKilograms == 81)
        #expect(data.minimumKilograms == 80)
        #expect(data.maximumKilograms == 82)
        // Trend: 80, 80.2, 80.28 → change 0.28 up, with no goal: worsening.
        #expect(abs((data.changeKilograms ?? 0) - 0.28) < 1e-12)
        #expect(data.changeDirection == .worsening)
        let domain = try #require(data.domain)
        #expect(domain.lowerBound == 79 && domain.upperBound == 83)
    }

    @Test func theRateIsTheLeastSquaresSlopeOfTheLastFourteenDays() throws {
        // A trend that falls exactly 0.1 kg a day: weights chosen so each trend step is −0.1.
        var pairs: [(Int, Double)] = [(20, 90)]
        var trend = 90.0
        for offset in stride(from: 13, through: 0, by: -1) {
            let gap = offset == 13 ? 7 : 1
            let factor = 1 - pow(0.9, Double(gap))
            let target = trend - 0.1 * Double(gap == 7 ? 1 : 1)
            pairs.append((offset, trend + (target - trend) / factor))
            trend = target
        }
        let data = history(pairs)
        let weekly = try #require(data.projectedWeeklyChangeKilograms)
        #expect(abs(weekly + 0.7) < 1e-9)
        #expect(abs((data.energyBalanceKilocaloriesPerDay ?? 0) + 770) < 1e-6)
    }

    @Test func theSlopeIsClampedAndNeedsThreeRecentDays() {
        let steep = history([(3, 200), (2, 150), (1, 100), (0, 60)])
        #expect(steep.projectedWeeklyChangeKilograms == -1.05)
        let sparse = history([(20, 80), (1, 80), (0, 79)], goal: 70)
        #expect(sparse.projectedWeeklyChangeKilograms == nil)
        #expect(sparse.projectionUnavailableReason == .notEnoughRecentWeighIns)
    }

    @Test func theGoalDateAndEveryReasonThereIsNone() {
        // Trend 80 → 79.9 → … : ~−0.1/day is not exact here, so read the slope back and check the formula.
        let losing = history([(3, 81), (2, 80), (1, 79.5), (0, 79)], goal: 78)
        let slope = (losing.projectedWeeklyChangeKilograms ?? 0) / 7
        let trend = losing.latestTrendKilograms ?? 0
        #expect(losing.projectedGoalDay == today + Int(((78 - trend) / slope).rounded(.up)))
        #expect(losing.projectionUnavailableReason == nil)
        #expect(losing.changeDirection == .improving)

        #expect(history([(3, 81), (2, 80), (0, 79)]).projectionUnavailableReason == .noGoal)
        #expect(history([(3, 79), (2, 80), (0, 81)], goal: 70).projectionUnavailableReason == .movingAwayFromGoal)
        #expect(history([(3, 80.2), (2, 80.1), (0, 80)], goal: 60).projectionUnavailableReason == .moreThanAYearAway)
        #expect(history([(3, 71), (2, 71), (0, 71)], goal: 70).projectionUnavailableReason == .atGoal)
        #expect(history([], goal: 70).projectionUnavailableReason == .notEnoughRecentWeighIns)
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
