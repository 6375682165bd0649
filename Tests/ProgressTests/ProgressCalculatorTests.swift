import Foundation
import Settings
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

    @Test func statisticsCoverTheWindow() throws {
        let data = history([(2, 80), (1, 82), (0, 81)])
        #expect(data.averageKilograms == 81)
        #expect(data.minimumKilograms == 80)
        #expect(data.maximumKilograms == 82)
        // Trend: 80, 80.2, 80.28 → change 0.28 up, with no goal: worsening.
        #expect(abs((data.changeKilograms ?? 0) - 0.28) < 1e-12)
        #expect(data.changeDirection == .worsening)
        // The fit through 80, 82, 81 rises 0.5 kg a day (clamped to 0.15) from 81.5 today; its 30 days
        // reach 86.0, so the domain spans 80…86 padded by 1 kg.
        let domain = try #require(data.domain)
        #expect(abs(domain.lowerBound - 79) < 1e-9 && abs(domain.upperBound - 87) < 1e-9, "\(domain)")
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

    @Test func theSlopeIsClampedAndNeedsThreeRecentDays() {
        let steep = history([(3, 200), (2, 150), (1, 100), (0, 60)])
        #expect(steep.projectedWeeklyChangeKilograms == -1.05)
        let sparse = history([(20, 80), (1, 80), (0, 79)], goal: 70)
        #expect(sparse.projectedWeeklyChangeKilograms == nil)
        #expect(sparse.projectionUnavailableReason == .notEnoughRecentWeighIns)
    }

    @Test func theGoalDateAndEveryReasonThereIsNone() {
        // The line through 81, 80, 79.5, 79: slope −0.65 a day (clamped to −0.15), level 78.9 today.
        let losing = history([(3, 81), (2, 80), (1, 79.5), (0, 79)], goal: 75)
        let slope = (losing.projectedWeeklyChangeKilograms ?? 0) / 7
        let level = losing.fittedKilograms ?? 0
        #expect(abs(level - 78.9) < 1e-9)
        #expect(losing.projectedGoalDay == today + Int(((75 - level) / slope).rounded(.up)))
        #expect(losing.projectedGoalDayRange.map { $0.contains(losing.projectedGoalDay ?? 0) } == true)
        #expect(losing.projectionUnavailableReason == nil)
        #expect(losing.changeDirection == .improving)

        #expect(history([(3, 81), (2, 80), (0, 79)]).projectionUnavailableReason == .noGoal)
        #expect(history([(3, 79), (2, 80), (0, 81)], goal: 70).projectionUnavailableReason == .movingAwayFromGoal)
        #expect(history([(3, 80.2), (2, 80.1), (0, 80)], goal: 50).projectionUnavailableReason == .moreThanAYearAway)
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
