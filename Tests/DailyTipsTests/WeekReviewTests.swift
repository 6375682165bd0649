import Foundation
import Testing
import TestSupport
import Vocabulary
import WeightLog
@testable import DailyTips

/// The Monday review of last week: its figures for a known week, once.
@MainActor
@Suite struct WeekReviewTests {
    /// Two weeks of weigh-ins (the week before: 2 days; last week, 1–7 June 2026: 5 days) and a habit done every day.
    func knownWeeks(alsoAdding other: String? = nil) async throws -> TestGraph {
        let graph = makeTestApp(clock: TestClock(date("2026-06-01 06:00")))
        _ = try await graph.app.habitsFeature.add(name: "Read", schedule: .daily, kind: .yesNo)
        if let other { _ = try await graph.app.habitsFeature.add(name: other, schedule: .daily, kind: .yesNo) }
        graph.clock.now = date("2026-06-07 20:00")
        let weights: [(Int, Int, Double)] = [(5, 26, 81.0), (5, 28, 80.8), (6, 1, 80.6), (6, 2, 80.4), (6, 4, 80.0),
                                             (6, 6, 80.2), (6, 7, 79.9)]
        for (month, day, kilograms) in weights {
            try await graph.app.weightEntryFeature.record(kilograms: kilograms, when: .dayTime(year: 2026, month: month, day: day, hour: 7, minute: 0))
        }
        for day in 1...7 {
            _ = try await graph.app.habitsFeature.mark("Read", when: .day(year: 2026, month: 6, day: day), as: .done)
        }
        return graph
    }

    /// The trend by hand: 10 % of the way to each day's weight, per day of gap.
    static func trend(_ points: [(day: Int, kilograms: Double)]) -> [Double] {
        var out: [Double] = []
        for (index, point) in points.enumerated() {
            guard index > 0 else { out.append(point.kilograms); continue }
            let gap = Double(point.day - points[index - 1].day)
            out.append(out[index - 1] + (1 - pow(0.9, gap)) * (point.kilograms - out[index - 1]))
        }
        return out
    }

    @Test func theFirstCheckInOfMondayReviewsLastWeekWithItsOwnFigures() async throws {
        let graph = try await knownWeeks()
        graph.clock.now = date("2026-06-08 07:30")
        let cards = try await graph.app.dailyTipsFeature.checkInCards()
        let review = try #require(cards.weekReview)
        let monday = DayNumber.from(year: 2026, month: 6, day: 1)
        #expect(review.start == monday && review.end == monday + 6)
        #expect(review.week.daysWeighed == 5)
        let days = [(monday - 6, 81.0), (monday - 4, 80.8), (monday, 80.6), (monday + 1, 80.4), (monday + 3, 80.0),
                    (monday + 5, 80.2), (monday + 6, 79.9)]
        let trend = Self.trend(days)
        #expect(abs((review.week.trendChangeKilograms ?? 0) - (trend[6] - trend[1])) < 1e-9)
        // Five days of one week are too few for an honest rate (WeightRate's rule): no rate, and why.
        #expect(review.week.weeklyRateKilograms == nil)
        #expect(review.week.bestDay == monday + 6 && review.week.bestDayKilograms == 79.9)
        #expect(review.week.habitsDone == 7 && review.week.habitsDue == 7)
        #expect(review.week.longestStreakName == "Read" && review.week.longestStreakDays == 7)
        #expect(review.previousWeek.daysWeighed == 2)
        #expect(review.comparison(unit: .kilograms).contains("against 2"))
        #expect(cards.weekAhead != nil && cards.weekAhead != cards.tip?.text, "a suggestion besides the tip")
        // Every due habit was done: the week's pep talk.
        #expect(cards.pepTalk?.event == .habitWeek)

        let again = try await graph.app.dailyTipsFeature.checkInCards()
        #expect(again.weekReview == nil && again.weekAhead == nil && again.pepTalk == nil, "only the first check-in")
        #expect(again.tip == cards.tip)
        graph.clock.advance(by: 86_400)
        #expect(try await graph.app.dailyTipsFeature.checkInCards().weekReview == nil, "Tuesday")
    }

    @Test func aWeekWithAMissedHabitRaisesNoHabitPepTalk() async throws {
        let graph = try await knownWeeks(alsoAdding: "Walk")
        graph.clock.now = date("2026-06-08 07:30")
        let cards = try await graph.app.dailyTipsFeature.checkInCards()
        let review = try #require(cards.weekReview)
        // Walk was added on the 1st (the clock's day then) and never done.
        #expect(review.week.habitsDue == 14 && review.week.habitsDone == 7)
        #expect(cards.pepTalk?.event != .habitWeek)
    }

    @Test func theComparisonSaysHowTheWeekWentAgainstTheOneBefore() {
        let before = WeekFigures(daysWeighed: 4, trendChangeKilograms: -0.2)
        let better = WeekReview(start: 0, week: WeekFigures(daysWeighed: 6, trendChangeKilograms: -0.5), previousWeek: before, gaining: false)
        #expect(better.comparison(unit: .kilograms) == "Better than the week before: the trend changed −0.5 kg against −0.2 kg, on 6 days weighed against 4.")
        let worse = WeekReview(start: 0, week: WeekFigures(daysWeighed: 4, trendChangeKilograms: 0.1), previousWeek: before, gaining: false)
        #expect(worse.comparison(unit: .kilograms) == "Not as good as the week before: the trend changed +0.1 kg against −0.2 kg, on as many days weighed (4).")
        let gaining = WeekReview(start: 0, week: WeekFigures(daysWeighed: 4, trendChangeKilograms: 0.1), previousWeek: before, gaining: true)
        #expect(gaining.comparison(unit: .kilograms).hasPrefix("Better"))
        let same = WeekReview(start: 0, week: WeekFigures(daysWeighed: 4, trendChangeKilograms: -0.23), previousWeek: before, gaining: false)
        #expect(same.comparison(unit: .pounds).hasPrefix("About the same"))
        let none = WeekReview(start: 0, week: WeekFigures(), previousWeek: before, gaining: false)
        #expect(none.comparison(unit: .kilograms) == "No weigh-ins last week, after 4 days the week before.")
    }

    /// Issue 31: a week whose weight held while the lean mass rose says so, from the lean mass's trend.
    @Test func aWeekOfBodyFatCarriesItsLeanMassChange() async throws {
        let graph = makeTestApp(clock: TestClock(date("2026-06-07 20:00")))
        // The week before: 80 kg at 30 %; last week the weight holds and the fat falls, so the lean mass rises.
        let weighIns: [(Int, Int, Double, Double)] = [(5, 26, 80.0, 30), (5, 28, 80.1, 30), (6, 1, 80.0, 29), (6, 3, 80.1, 28.5),
                                                      (6, 5, 80.0, 28), (6, 7, 80.1, 27.5)]
        for (month, day, kilograms, fat) in weighIns {
            try await graph.app.weightEntryFeature.record(kilograms: kilograms, when: .dayTime(year: 2026, month: month, day: day, hour: 7, minute: 0),
                                                          bodyFatPercent: fat)
        }
        graph.clock.now = date("2026-06-08 07:30")
        let review = try #require(try await graph.app.dailyTipsFeature.checkInCards().weekReview)
        var lean: [Double] = []
        var previous: Int?
        for (month, day, kilograms, fat) in weighIns {
            let dayNumber = DayNumber.from(year: 2026, month: month, day: day)
            let value = kilograms * (1 - fat / 100)
            lean.append(previous.map { lean[lean.count - 1] + (1 - pow(0.9, Double(dayNumber - $0))) * (value - lean[lean.count - 1]) } ?? value)
            previous = dayNumber
        }
        let change = try #require(review.week.leanMassChangeKilograms)
        #expect(abs(change - (lean[5] - lean[1])) < 1e-9, "the trend at the week's end minus the one just before it")
        #expect(LeanMassChange.sentence(weightChange: review.week.trendChangeKilograms ?? 0, leanChange: change, unit: .kilograms)?
            .hasPrefix("Your weight held, your lean mass rose") == true)
        // Without body fat, nothing is said and nothing read.
        let plain = try await knownWeeks()
        plain.clock.now = date("2026-06-08 07:30")
        #expect(try #require(try await plain.app.dailyTipsFeature.checkInCards().weekReview).week.leanMassChangeKilograms == nil)
    }
}
