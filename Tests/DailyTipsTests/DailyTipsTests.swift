import Foundation
import Storage
import Testing
import TestSupport
import WeightLog
@testable import DailyTips

@MainActor
@Suite struct DailyTipsTests {
    @Test func theCatalogueIsCompleteAndWellFormed() throws {
        let catalogue = try TipCatalogue.bundled()
        #expect(catalogue.tips.count >= 120)
        #expect(Set(catalogue.tips.map(\.id)).count == catalogue.tips.count, "ids are unique")
        #expect(Set(catalogue.tips.map(\.category)) == Set(Tip.Category.allCases))
        for tip in catalogue.tips {
            let text = tip.text.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(!text.isEmpty, "\(tip.id) is empty")
            #expect(text.count <= 200, "\(tip.id) is \(text.count) characters")
        }
        #expect(Set(catalogue.tips.map(\.text)).count == catalogue.tips.count, "no tip is written twice")
        #expect(!catalogue.weekAhead.isEmpty)
    }

    @Test func theSameTipAllDayAndAfterARestartThenANewOneTomorrow() async throws {
        let store = LocalDataStore.inMemory()
        let clock = TestClock(date("2026-06-10 06:00"))
        let first = makeTestApp(store: store, clock: clock)
        let morning = try await first.app.dailyTipsFeature.todaysTip()
        clock.advance(by: 17 * 3600)
        #expect(try await first.app.dailyTipsFeature.todaysTip() == morning)

        let restarted = makeTestApp(store: store, clock: clock, tipSeed: 999)
        #expect(try await restarted.app.dailyTipsFeature.todaysTip() == morning, "the stored seed and tip win")

        clock.advance(by: 2 * 3600)
        let tomorrow = try await restarted.app.dailyTipsFeature.todaysTip()
        #expect(tomorrow != nil && tomorrow != morning)
    }

    @Test func noTipRepeatsUntilTheDeckIsDealtThenItIsReshuffled() async throws {
        let clock = TestClock(date("2026-01-01 09:00"))
        let graph = makeTestApp(clock: clock)
        let catalogue = try TipCatalogue.bundled()
        let everyday = catalogue.tips.filter { $0.category != .reset }
        var seen: [String] = []
        for _ in everyday.indices {
            let tip = try #require(try await graph.app.dailyTipsFeature.todaysTip())
            seen.append(tip.id)
            clock.advance(by: 86_400)
        }
        #expect(Set(seen).count == everyday.count, "every everyday tip once")
        var second: [String] = []
        for _ in everyday.indices {
            second.append(try #require(try await graph.app.dailyTipsFeature.todaysTip()).id)
            clock.advance(by: 86_400)
        }
        #expect(Set(second) == Set(seen), "the next cycle deals the whole deck again")
        #expect(second != seen, "in a new order")
        #expect(second.first != seen.last, "never the same tip two days running across the reshuffle")
    }

    @Test func tipNextDealsAnotherThatStaysForTheDay() async throws {
        let store = LocalDataStore.inMemory()
        let graph = makeTestApp(store: store)
        let first = try await graph.app.dailyTipsFeature.todaysTip()
        let next = try await graph.app.dailyTipsFeature.nextTip()
        #expect(next != nil && next != first)
        #expect(try await graph.app.dailyTipsFeature.todaysTip() == next)
        let restarted = makeTestApp(store: store)
        #expect(try await restarted.app.dailyTipsFeature.todaysTip() == next)
    }

    @Test func aResetVerdictBringsATipFromTheResetCategory() async throws {
        let clock = TestClock(date("2026-06-16 07:00"))
        let graph = makeTestApp(clock: clock)
        try await recordPlateau(graph.app.weightEntryFeature, days: 1...13)
        let ordinary = try await graph.app.dailyTipsFeature.todaysTip()
        #expect(ordinary?.category != .reset)
        // A flat fortnight: today's weigh-in makes the verdict timeForReset, and the day's tip follows.
        try await graph.app.weightEntryFeature.record(kilograms: 80.05)
        #expect(graph.app.weightEntryFeature.checkIn().verdict == .timeForReset)
        let reset = try await graph.app.dailyTipsFeature.todaysTip()
        #expect(reset?.category == .reset)
        #expect(try await graph.app.dailyTipsFeature.todaysTip() == reset, "and stays for the day")
    }

    @Test func onAResetDayTheFirstTipDrawnAtLaunchIsAlreadyAResetTip() async throws {
        // Yesterday's process left a plateau on disk; today's process launches
        // and draws its first tip before anything else has read the weight log.
        let store = LocalDataStore.inMemory()
        let clock = TestClock(date("2026-06-16 07:00"))
        let yesterday = makeTestApp(store: store, clock: clock)
        try await recordPlateau(yesterday.app.weightEntryFeature, days: 1...16)

        let today = makeTestApp(store: store, clock: clock, tipSeed: 11)
        today.app.applicationDidFinishLaunching()
        let first = try await today.app.dailyTipsFeature.todaysTip()
        #expect(first?.category == .reset)
        #expect(today.app.weightEntryFeature.checkIn().verdict == .timeForReset)
        #expect(try await today.app.dailyTipsFeature.todaysTip() == first, "the same tip all day")
    }

    @Test func theWeekAheadAppearsOnMondaysOnlyAcrossADaylightSavingChange() {
        let zone = "Europe/Berlin"
        // Sunday 2026-03-29 is the spring change in Berlin; Monday follows.
        let clock = TestClock(date("2026-03-29 23:30", zone: zone))
        let graph = makeTestApp(clock: clock, calendar: calendar(zone: zone))
        #expect(graph.app.dailyTipsFeature.weekAhead == nil)
        clock.advance(by: 60 * 60)
        #expect(graph.app.dailyTipsFeature.weekAhead != nil, "00:30 Monday, just after the change")
        clock.now = date("2026-03-30 23:59", zone: zone)
        #expect(graph.app.dailyTipsFeature.weekAhead != nil)
        clock.advance(by: 2 * 60)
        #expect(graph.app.dailyTipsFeature.weekAhead == nil, "Tuesday")
        clock.now = date("2026-10-26 00:10", zone: zone)
        #expect(graph.app.dailyTipsFeature.weekAhead != nil, "the Monday after the autumn change")
    }

    @Test func aMissingCatalogueIsReportedNotACrash() async throws {
        let store = LocalDataStore.inMemory()
        let feature = DailyTipsFeature(repository: LocalTipDeckRepository(store: store),
                                       catalogue: { throw TipCatalogueError.missing }, calendar: calendar(zone: "UTC"),
                                       currentDate: { Date(timeIntervalSince1970: 0) }, needsReset: { false }, seed: 1)
        await #expect(throws: TipCatalogueError.missing) { try await feature.todaysTip() }
        #expect(feature.weekAhead == nil)
    }

    /// One weigh-in a day in June 2026, alternating 80.0 and 80.1 kg: no progress at all.
    func recordPlateau(_ feature: WeightEntryFeature, days: ClosedRange<Int>) async throws {
        for day in days {
            try await feature.record(kilograms: day % 2 == 0 ? 80.0 : 80.1, when: .dayTime(year: 2026, month: 6, day: day, hour: 7, minute: 0))
        }
    }
}
