import Foundation
import Testing
import Vocabulary
import WeightLog
@testable import Progress

/// The goal projection on seeded realistic diets (DESIGN.md §3): −0.5 kg a
/// week, daily noise σ 0.5 kg, weekend bumps of +0.4 kg, one or two
/// weigh-ins on most days and none on some, holidays of 4 and 7 days. From
/// the fifth week on: a date every day, day-to-day moves of at most 7 days
/// on 90 % of days and never more than 30, a median error of at most 25 % of
/// the time left.
@Suite struct ProjectionStabilityTests {
    static let start = 90.0, goal = 80.0, rate = -0.5 / 7
    /// 2026-01-05, a Monday.
    static let firstDay = DayNumber.from(year: 2026, month: 1, day: 5)

    /// Standard normal noise from a seeded generator (Box–Muller).
    struct Noise {
        var random: SplitMix64
        mutating func gaussian() -> Double {
            let u = max(Double(random.next() % 1_000_000_000) / 1_000_000_000, 1e-12)
            let v = Double(random.next() % 1_000_000_000) / 1_000_000_000
            return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
        }
        mutating func uniform() -> Double { Double(random.next() % 1_000_000) / 1_000_000 }
    }

    static func diet(seed: UInt64) -> DailySeries {
        var noise = Noise(random: SplitMix64(seed: seed))
        let holidays = Set(Array(45..<49) + Array(90..<97))
        var seconds: [Double] = [], kilograms: [Double] = []
        for offset in 0..<160 where !holidays.contains(offset) {
            let roll = noise.uniform()
            let count = roll < 0.12 ? 0 : (roll > 0.7 ? 2 : 1)
            let day = firstDay + offset
            let bump = DayNumber.weekdayFromMonday(day) >= 5 ? 0.4 : 0
            for index in 0..<count {
                seconds.append(Double(day) * 86_400 + (index == 0 ? 7 : 19) * 3_600)
                kilograms.append(start + rate * Double(offset) + bump + 0.5 * noise.gaussian())
            }
        }
        return DailySeries(sortedSeconds: seconds, kilograms: kilograms, localDays: LocalDays(timeZone: TimeZone(identifier: "UTC")!))
    }

    @Test(arguments: Array(1...12) as [UInt64])
    func theGoalDateHoldsStillAndIsRightOnARealisticDiet(seed: UInt64) {
        let series = Self.diet(seed: seed)
        let trueDay = Self.firstDay + Int(((Self.goal - Self.start) / Self.rate).rounded())
        var moves: [Int] = [], errors: [Double] = []
        var previous: Int?
        // From the fifth week until 1.8 kg before the goal, short of the "at goal" band (±1.1 kg).
        for today in (Self.firstDay + 28)...(trueDay - 25) {
            let data = ProgressCalculator.history(series: series, today: today, range: .quarter, goalKilograms: Self.goal)
            guard let day = data.projectedGoalDay else {
                Issue.record("no goal date on day \(today - Self.firstDay): \(String(describing: data.projectionUnavailableReason))")
                continue
            }
            #expect(data.projectedGoalDayRange.map { $0.contains(day) } == true)
            errors.append(Double((day - trueDay).magnitude) / Double(trueDay - today))
            if let previous { moves.append(abs(day - previous)) }
            previous = day
        }
        moves.sort()
        errors.sort()
        let p90 = moves[Int(Double(moves.count) * 0.9)]
        #expect(p90 <= 7, "90 % of day-to-day moves within 7 days; the 90th percentile is \(p90)")
        #expect((moves.last ?? 0) <= 30, "no move over 30 days; the largest is \(moves.last ?? 0)")
        #expect(errors[errors.count / 2] <= 0.25, "median error \(errors[errors.count / 2]) of the time left")
    }

    @Test func theRateAndTheCaloriesComeFromTheSameFitAsTheDate() {
        let series = Self.diet(seed: 3)
        let today = Self.firstDay + 60
        let data = ProgressCalculator.history(series: series, today: today, range: .quarter, goalKilograms: Self.goal)
        let fit = ProgressCalculator.fit(series: series, end: series.firstIndex(onOrAfter: today + 1), today: today)
        #expect(fit != nil)
        #expect(data.projectedWeeklyChangeKilograms == fit.map { 7 * $0.slope })
        #expect(data.energyBalanceKilocaloriesPerDay == fit.map { $0.slope * 7_700 })
        #expect(abs((data.projectedWeeklyChangeKilograms ?? 0) + 0.5) < 0.15, "close to the true −0.5 kg a week")
        #expect(data.projection.count == 30)
        #expect(data.projection.first?.day == today + 1)
        #expect(abs((data.projection.last?.kilograms ?? 0) - ((data.fittedKilograms ?? 0) + 30 * (fit?.slope ?? 0))) < 1e-9)
    }
}
