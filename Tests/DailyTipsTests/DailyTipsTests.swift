import Foundation
import Storage
import Testing
import TestSupport
import Vocabulary
import WeightLog
@testable import DailyTips

/// The catalogue's quality rules: what the tips issue asks of every deck.
@Suite struct TipCatalogueQualityTests {
    let catalogue: TipCatalogue

    init() throws {
        catalogue = TipCatalogue.shipped
    }

    private var texts: [(id: String, text: String)] {
        catalogue.tips.map { ($0.id, $0.text) } + catalogue.pepTalks.map { ($0.id, $0.text) }
    }

    @Test func everyDeckIsAtItsMinimum() {
        #expect(catalogue.ids(in: .everyday).count >= 366, "no repeat within a year of daily use")
        #expect(catalogue.ids(in: .reset).count >= 40)
        #expect(catalogue.ids(in: .maintenance).count >= 40)
        #expect(catalogue.pepTalks.count >= 60)
        for event in PepTalkEvent.allCases {
            #expect(catalogue.ids(for: event).count >= 5, "\(event) has too few pep talks to vary")
        }
        let everydayCategories = Set(catalogue.tips.map(\.category).filter { $0.deck == .everyday })
        #expect(everydayCategories == Set(Tip.Category.allCases.filter { $0.deck == .everyday }), "every category is used")
    }

    @Test func noTextIsWrittenTwiceOrOpensLikeAnother() {
        var seenTexts: [String: String] = [:]
        var seenOpenings: [String: String] = [:]
        for (id, text) in texts {
            let normalised = text.lowercased()
            #expect(seenTexts[normalised] == nil, "\(id) repeats \(seenTexts[normalised] ?? "")")
            seenTexts[normalised] = id
            let opening = Self.firstFiveWords(text)
            #expect(seenOpenings[opening] == nil, "\(id) opens like \(seenOpenings[opening] ?? ""): '\(opening)'")
            seenOpenings[opening] = id
        }
    }

    @Test func everyTextIsWithinLengthAndClean() {
        for (id, text) in texts {
            #expect(!text.isEmpty && text.count <= 200, "\(id) is \(text.count) characters")
            #expect(text == text.trimmingCharacters(in: .whitespacesAndNewlines), "\(id) has stray spaces")
            #expect(!text.unicodeScalars.contains { $0.properties.generalCategory == .control }, "\(id) holds a control character")
        }
    }

    @Test func idsAreUniqueAndTheShippedOnesKeepTheirTexts() throws {
        let ids = texts.map(\.id)
        #expect(Set(ids).count == ids.count)
        // A stored deck remembers tips by id: an id shipped once never names another text.
        let shipped = try TipCatalogue.decode(Data(contentsOf: fixtureURL("tips-0.2.0.json")))
        #expect(shipped.tips.count == 129)
        for old in shipped.tips {
            let now = try #require(catalogue.tip(id: old.id), "\(old.id) was removed")
            #expect(now.text == old.text && now.category == old.category, "\(old.id) was given another text")
            #expect(now.edition == 1)
        }
        for tip in catalogue.tips where shipped.tip(id: tip.id) == nil {
            #expect(tip.edition >= 2, "\(tip.id) is new and says so")
        }
    }

    /// The ids come from each text's place in its group (`Tip.numbered`): a text put in the middle of a group
    /// would give every text after it another id. The second edition, as it shipped, keeps every id's text.
    @Test func theSecondEditionKeepsEveryIdsText() throws {
        let shipped = try TipCatalogue.decode(Data(contentsOf: fixtureURL("tips-edition-2.json")))
        #expect(shipped.tips.count == 462 && shipped.pepTalks.count == 66)
        for old in shipped.tips {
            let now = try #require(catalogue.tip(id: old.id), "\(old.id) was removed")
            #expect(now == old, "\(old.id) was given another text, category, edition or season")
        }
        let pepTalks = Dictionary(uniqueKeysWithValues: catalogue.pepTalks.map { ($0.id, $0) })
        for old in shipped.pepTalks {
            #expect(pepTalks[old.id] == old, "\(old.id) was removed or given another text")
        }
    }

    static func firstFiveWords(_ text: String) -> String {
        text.lowercased().split { !$0.isLetter && !$0.isNumber && $0 != "'" }.prefix(5).joined(separator: " ")
    }
}

@MainActor
@Suite struct DailyTipsTests {
    @Test func aYearOfMorningsDealsNoTipTwice() async throws {
        let clock = TestClock(date("2026-01-01 07:30"))
        let graph = makeTestApp(clock: clock)
        var seen: Set<String> = []
        var suggestions = 0
        for day in 0..<366 {
            // The check-in, as 'today' shows it: Mondays also deal a suggestion, which must not use up the days ahead.
            let cards = try await graph.app.dailyTipsFeature.checkInCards()
            if cards.weekAhead != nil { suggestions += 1 }
            #expect(cards.weekAhead != cards.tip?.text)
            let tip = try #require(cards.tip)
            #expect(!seen.contains(tip.id), "day \(day) repeats \(tip.id)")
            #expect(tip.category.deck == .everyday)
            seen.insert(tip.id)
            clock.advance(by: 86_400)
        }
        #expect(seen.count == 366)
        #expect(suggestions == 52, "one a Monday")
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

    @Test func theWholeDeckIsDealtThenReshuffledWithoutTheSameTipTwoDaysRunning() async throws {
        let clock = TestClock(date("2026-01-01 09:00"))
        let graph = makeTestApp(clock: clock)
        let everyday = TipCatalogue.shipped.ids(in: .everyday)
        var seen: [String] = []
        for _ in everyday.indices {
            seen.append(try #require(try await graph.app.dailyTipsFeature.todaysTip()).id)
            clock.advance(by: 86_400)
        }
        #expect(Set(seen) == Set(everyday), "every everyday tip once")
        let next = try #require(try await graph.app.dailyTipsFeature.todaysTip()).id
        #expect(next != seen.last, "never the same tip two days running across the reshuffle")
    }

    @Test func tipNextShowsAnotherWithoutReplacingTheTipOfTheDay() async throws {
        let store = LocalDataStore.inMemory()
        let graph = makeTestApp(store: store)
        let first = try #require(try await graph.app.dailyTipsFeature.todaysTip())
        var others: [String] = []
        for _ in 0..<20 {
            others.append(try #require(try await graph.app.dailyTipsFeature.anotherTip()).id)
        }
        #expect(Set(others).count == 20, "a repeated tip next walks on without repeats")
        #expect(!others.contains(first.id))
        #expect(try await graph.app.dailyTipsFeature.todaysTip() == first, "the tip of the day stays")
        let restarted = makeTestApp(store: store)
        #expect(try await restarted.app.dailyTipsFeature.todaysTip() == first)
    }

    @Test func aNewBestTrendDayGetsNoResetTipEvenOnAPlateau() {
        #expect(CheckInFacts(day: 20_000, needsReset: true).deck == .reset)
        #expect(CheckInFacts(day: 20_000, needsReset: true, isNewBestTrend: true).deck == .everyday)
        #expect(CheckInFacts(day: 20_000, isNearGoal: true, needsReset: true, isNewBestTrend: true).deck == .maintenance)
    }

    @Test func aResetVerdictBringsATipFromTheResetDeck() async throws {
        let clock = TestClock(date("2026-06-16 07:00"))
        let graph = makeTestApp(clock: clock)
        try await recordPlateau(graph.app.weightEntryFeature, days: 1...13)
        let ordinary = try await graph.app.dailyTipsFeature.todaysTip()
        #expect(ordinary?.category.deck == .everyday)
        // A flat fortnight: today's weigh-in makes the verdict timeForReset, and the day's tip follows.
        try await graph.app.weightEntryFeature.record(kilograms: 80.05)
        #expect(graph.app.weightEntryFeature.checkIn().verdict == .timeForReset)
        let reset = try await graph.app.dailyTipsFeature.todaysTip()
        #expect(reset?.category == .reset)
        #expect(try await graph.app.dailyTipsFeature.todaysTip() == reset, "and stays for the day")
        #expect(try await graph.app.dailyTipsFeature.anotherTip()?.category == .reset, "tip next stays in the day's deck")
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

    @Test func nearTheGoalTheTipsComeFromTheMaintenanceDeck() async throws {
        let clock = TestClock(date("2026-06-16 07:00"))
        let graph = makeTestApp(clock: clock)
        try await graph.app.progressFeature.setGoal(kilograms: 79.5)
        try await recordPlateau(graph.app.weightEntryFeature, days: 1...16)
        #expect(graph.app.weightEntryFeature.checkIn().isNearGoal)
        #expect(try await graph.app.dailyTipsFeature.todaysTip()?.category == .maintenance, "a plateau at the goal is maintenance")
        try await graph.app.progressFeature.setGoal(kilograms: 70)
        clock.advance(by: 86_400)
        #expect(try await graph.app.dailyTipsFeature.todaysTip()?.category == .reset)
    }

    @Test func aMissingCatalogueIsReportedNotACrash() async throws {
        let store = LocalDataStore.inMemory()
        let feature = DailyTipsFeature(repository: LocalTipDeckRepository(store: store),
                                       catalogue: { throw TipCatalogueError.unreadable("a test") }, calendar: calendar(zone: "UTC"),
                                       currentDate: { Date(timeIntervalSince1970: 0) },
                                       checkInFacts: { CheckInFacts(day: 0) }, weekFigures: { _ in WeekFigures() }, seed: 1)
        await #expect(throws: TipCatalogueError.unreadable("a test")) { try await feature.todaysTip() }
        await #expect(throws: TipCatalogueError.unreadable("a test")) { try await feature.checkInCards() }
    }

    @Test func aDeckSavedByTrend02CarriesOnWithoutRepeatingWhatItDealt() throws {
        // The state in Tests/Fixtures/snapshot-v1.json: position 1 of the everyday deck, movement-008 dealt.
        let saved = #"{"tipIsReset":false,"seed":635849817868298157,"reset":{"position":0,"cycle":0},"day":20786,"everyday":{"lastDealt":"movement-008","position":1,"cycle":0},"tipID":"movement-008"}"#
        var state = try JSONDecoder().decode(TipDeckState.self, from: Data(saved.utf8))
        #expect(state.tipDeck == .everyday)
        let deck = TipDeck(catalogue: TipCatalogue.shipped)
        #expect(deck.tip(for: 20786, deck: .everyday, state: &state)?.id == "movement-008", "the day's tip reads back")
        let next = try #require(deck.tip(for: 20787, deck: .everyday, state: &state))
        #expect(state.everyday.dealt == ["movement-008", next.id], "the position became the ids it counted")
        #expect(next.id != "movement-008")
        let reencoded = try JSONDecoder().decode(TipDeckState.self, from: JSONEncoder().encode(state))
        #expect(reencoded == state)
    }

    /// One weigh-in a day in June 2026, alternating 80.0 and 80.1 kg: no progress at all.
    func recordPlateau(_ feature: WeightEntryFeature, days: ClosedRange<Int>) async throws {
        for day in days {
            try await feature.record(kilograms: day % 2 == 0 ? 80.0 : 80.1, when: .dayTime(year: 2026, month: 6, day: day, hour: 7, minute: 0))
        }
    }
}

/// Issue 28, item 11: a tip of one season ("Make a plan for the holidays") is dealt only in it.
@Suite struct SeasonalTipTests {
    /// Every tip of two whole cycles of the everyday deck, drawn a tip a day from `start`.
    func dealt(from start: Int, seed: UInt64) -> [String] {
        let deck = TipDeck(catalogue: TipCatalogue.shipped)
        var state = TipDeckState(seed: seed)
        let count = TipCatalogue.shipped.ids(in: .everyday).count * 2
        return (0..<count).compactMap { offset in deck.another(for: start + offset % 20, deck: .everyday, state: &state)?.id }
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func aHolidayTipIsDealtInItsSeasonOnly(seed: UInt64) {
        let march = DayNumber.from(year: 2026, month: 3, day: 1), december = DayNumber.from(year: 2026, month: 12, day: 1)
        #expect(!dealt(from: march, seed: seed).contains("social-029"), "not in March")
        #expect(dealt(from: december, seed: seed).contains("social-029"), "in December")
        #expect(TipCatalogue.shipped.tip(id: "maintenance-037")?.isInSeason(month: 11) == true)
        #expect(TipCatalogue.shipped.tip(id: "maintenance-037")?.isInSeason(month: 4) == false)
    }
}
