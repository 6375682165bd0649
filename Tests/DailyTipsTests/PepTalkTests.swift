import Foundation
import Storage
import Testing
import TestSupport
import Vocabulary
@testable import DailyTips

/// Pep talks: raised once per occurrence, by the rules in `PepTalkRules`.
@MainActor
@Suite struct PepTalkTests {
    /// Weighs `kilograms(day)` at 07:00 on each of `days` days from `start`, taking the check-in's cards after each.
    func mornings(_ graph: TestGraph, from start: String, days: Int, kilograms: (Int) -> Double?)
        async throws -> [(day: Int, cards: CheckInCards)] {
        graph.clock.now = date(start + " 07:00")
        var out: [(Int, CheckInCards)] = []
        for day in 0..<days {
            if let weight = kilograms(day) { try await graph.app.weightEntryFeature.record(kilograms: weight) }
            out.append((day, try await graph.app.dailyTipsFeature.checkInCards()))
            graph.clock.advance(by: 86_400)
        }
        return out
    }

    func events(_ mornings: [(day: Int, cards: CheckInCards)]) -> [(day: Int, event: PepTalkEvent)] {
        mornings.compactMap { morning in morning.cards.pepTalk.map { (morning.day, $0.event) } }
    }

    @Test func aWeekOfWeighInsRaisesTheSevenDayStreakOnce() async throws {
        let graph = makeTestApp()
        let days = try await mornings(graph, from: "2026-06-02", days: 12) { _ in 80 }
        let raised = events(days)
        #expect(raised.filter { $0.event == .streak7 }.map(\.day) == [6], "the seventh morning, once: \(raised)")
        #expect(!raised.contains { $0.event == .streak30 })
        // The card is one of the streak's own.
        let card = try #require(days[6].cards.pepTalk)
        #expect(card.id.hasPrefix("pep-streak7-") && !card.text.isEmpty)
    }

    @Test func aReturnAfterThreeDaysAwayIsWelcomedOnceThatDay() async throws {
        let graph = makeTestApp()
        let days = try await mornings(graph, from: "2026-06-02", days: 8) { [0, 1, 5].contains($0) ? 80 : nil }
        #expect(events(days).map(\.event) == [.backAfterBreak])
        #expect(events(days).first?.day == 5)
        #expect(try await graph.app.dailyTipsFeature.checkInCards().pepTalk == nil, "not again on another check-in")

        // Two days away is not a break.
        let other = makeTestApp()
        let short = try await mornings(other, from: "2026-06-02", days: 5) { [0, 3].contains($0) ? 80 : nil }
        #expect(events(short).isEmpty)
    }

    @Test func milestonesTowardTheGoalAndTheGoalEachComeOnceEvenOnTheSameDay() async throws {
        let graph = makeTestApp()
        try await graph.app.progressFeature.setGoal(kilograms: 75)
        // 80 kg, then 74 kg every day: the trend closes in on 74 by 10 % a day.
        let days = try await mornings(graph, from: "2026-06-02", days: 45) { $0 == 0 ? 80 : 74 }
        let raised = events(days)
        for event in [PepTalkEvent.towardGoal1, .towardGoal5, .goalReached, .streak7, .streak30] {
            #expect(raised.filter { $0.event == event }.count == 1, "\(event) once: \(raised)")
        }
        #expect(!raised.contains { $0.event == .towardGoal10 }, "5.5 kg is not 10")
        // The trend reaches 75 kg (5 kg from 80) on the same morning: the goal first, the milestone the next check-in.
        let goal = try #require(raised.first { $0.event == .goalReached }?.day)
        let five = try #require(raised.first { $0.event == .towardGoal5 }?.day)
        #expect(five == goal + 1)
        // New bests come at most once a week.
        let bests = raised.filter { $0.event == .newBestTrend }.map(\.day)
        #expect(!bests.isEmpty)
        #expect(zip(bests, bests.dropFirst()).allSatisfy { $1 - $0 >= PepTalkRules.newBestSpacingDays })
    }

    @Test func milestonesAreInTheUnitAPersonWeighsIn() {
        let pounds = PepTalkRules.milestones(for: .pounds).map(\.kilograms)
        #expect(pounds.map { ($0 / WeightUnit.kilogramsPerPound).rounded() } == [2, 10, 20])
        #expect(PepTalkRules.milestones(for: .stones).map(\.kilograms) == pounds)
        #expect(PepTalkRules.milestones(for: .kilograms).map(\.kilograms) == [1, 5, 10])
        // 1.5 kg is past the first pound milestone (0.91 kg) and not the second (4.5 kg).
        let facts = CheckInFacts(day: 100, unit: .pounds, progressKilograms: 1.5, goalKilograms: 70)
        #expect(PepTalkRules.occurrences(facts).map(\.event) == [.towardGoal1])
        let far = CheckInFacts(day: 100, unit: .kilograms, progressKilograms: 10.2, goalKilograms: 70)
        let occurrence = PepTalkRules.occurrences(far).first
        #expect(occurrence?.event == .towardGoal10 && occurrence?.covers == ["towardGoal1", "towardGoal5"])
    }

    /// Issue 63, item 2: without a goal, a trend that went down is no step "toward your goal": no such pep talk.
    @Test func noMilestoneTowardAGoalIsRaisedWithoutAGoal() {
        let noGoal = CheckInFacts(day: 100, unit: .kilograms, progressKilograms: 6)
        #expect(!PepTalkRules.occurrences(noGoal).contains { [.towardGoal1, .towardGoal5, .towardGoal10].contains($0.event) })
        let withGoal = CheckInFacts(day: 100, unit: .kilograms, progressKilograms: 6, goalKilograms: 70)
        #expect(PepTalkRules.occurrences(withGoal).first?.event == .towardGoal5)
    }

    @Test func theLongestStreakReachedIsCelebratedAndCoversTheShorterOnesOfTheSameRun() {
        let year = CheckInFacts(day: 1000, currentStreak: 365, streakLastDay: 1000)
        let occurrence = PepTalkRules.occurrences(year).first
        #expect(occurrence?.event == .streak365)
        #expect(occurrence?.key == "streak365@636")
        #expect(occurrence?.covers == ["streak7@636", "streak30@636", "streak100@636"])
        #expect(PepTalkRules.occurrences(CheckInFacts(day: 1000, currentStreak: 100, streakLastDay: 999)).first?.key == "streak100@900")
        #expect(PepTalkRules.occurrences(CheckInFacts(day: 1000, currentStreak: 6, streakLastDay: 1000)).isEmpty)
        // A new run is a new occurrence: its key names its first day.
        var raised = ["streak7@636"]
        let again = PepTalkOccurrence(event: .streak7, key: "streak7@2000", covers: [])
        #expect(!PepTalkRules.wasRaised(again, in: raised, day: 2006))
        raised.append("newBestTrend@2000")
        let best = PepTalkOccurrence(event: .newBestTrend, key: "newBestTrend@2006", covers: [])
        #expect(PepTalkRules.wasRaised(best, in: raised, day: 2006), "a new best within a week of the last one waits")
        #expect(!PepTalkRules.wasRaised(best, in: raised, day: 2007))
    }

    @Test func yearsOfNewBestsNeverForgetAMilestone() {
        var state = TipDeckState(seed: 1)
        state.raise("towardGoal1")
        state.raise("goalReached@75000")
        for week in 0..<400 { state.raise("newBestTrend@\(week * 7)") }
        #expect(state.raised.count == TipDeckState.raisedLimit)
        #expect(state.raised.prefix(2) == ["towardGoal1", "goalReached@75000"])
        #expect(state.raised.last == "newBestTrend@2793")
    }

    @Test func aStreakRaisedBeforeIsNotRaisedAgainByAnotherProcess() async throws {
        let store = LocalDataStore.inMemory()
        let clock = TestClock(date("2026-06-02 07:00"))
        let first = makeTestApp(store: store, clock: clock)
        let days = try await mornings(first, from: "2026-06-02", days: 7) { _ in 80 }
        #expect(days.last?.cards.pepTalk?.event == .streak7)
        let second = makeTestApp(store: store, clock: clock)
        clock.now = date("2026-06-08 18:00")
        #expect(try await second.app.dailyTipsFeature.checkInCards().pepTalk == nil)
    }
}
