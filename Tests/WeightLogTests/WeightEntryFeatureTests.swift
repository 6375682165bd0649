import Foundation
import Storage
import Testing
import TestSupport
@testable import WeightLog
import Vocabulary

@MainActor
@Suite struct WeightEntryFeatureTests {
    @Test func recordsInTheDisplayUnitAndStoresKilograms() async throws {
        let graph = makeTestApp()
        let feature = graph.app.weightEntryFeature
        try await graph.app.settingsFeature.setUnit(named: "lb")
        let entry = try await feature.record(kilograms: try WeightInput.parse("181.6", defaultUnit: feature.unit))
        graph.clock.advance(by: 60)
        #expect(abs(entry.kilograms - 181.6 * 0.45359237) < 1e-12)
        let stones = try await feature.record(kilograms: try WeightInput.parse("12st 6lb", defaultUnit: feature.unit))
        #expect(abs(stones.kilograms - 174 * 0.45359237) < 1e-12)
        let stored = try await LocalWeightRepository(store: graph.store).allEntries()
        #expect(stored.map(\.kilograms) == [entry.kilograms, stones.kilograms])
    }

    @Test func whenFormsResolveAgainstTheInjectedClock() async throws {
        let zone = "America/New_York"
        let graph = makeTestApp(clock: TestClock(date("2026-03-09 07:30", zone: zone)), calendar: calendar(zone: zone))
        let feature = graph.app.weightEntryFeature
        let now = try await feature.record(kilograms: 80, when: .current)
        let yesterday = try await feature.record(kilograms: 80, when: .yesterday)
        let day = try await feature.record(kilograms: 80, when: .day(year: 2026, month: 3, day: 1))
        let timed = try await feature.record(kilograms: 80, when: .dayTime(year: 2026, month: 3, day: 8, hour: 6, minute: 15))
        #expect(now.date == date("2026-03-09 07:30", zone: zone))
        #expect(yesterday.date == date("2026-03-08 12:00", zone: zone))
        #expect(day.date == date("2026-03-01 12:00", zone: zone))
        #expect(timed.date == date("2026-03-08 06:15", zone: zone))
        await #expect(throws: WhenInputError.future("2026-03-10")) {
            try await feature.record(kilograms: 80, when: .day(year: 2026, month: 3, day: 10))
        }
        await #expect(throws: WhenInputError.impossible("2026-02-30")) {
            try await feature.record(kilograms: 80, when: .day(year: 2026, month: 2, day: 30))
        }
        #expect(try await feature.allEntries().count == 4)
    }

    @Test func unknownAndAmbiguousIdsChangeNothing() async throws {
        let graph = makeTestApp()
        let feature = graph.app.weightEntryFeature
        try await feature.record(kilograms: 80)
        await #expect(throws: WeightLogError.noSuchEntry("zzzz")) { try await feature.delete(id: "zzzz") }
        await #expect(throws: WeightLogError.idTooShort("ab")) { try await feature.delete(id: "ab") }
        #expect(try await feature.allEntries().count == 1)
    }

    /// Imported ids are time-first: two weigh-ins a minute apart share their
    /// first 8 characters, which `entries` shows. The refusal names prefixes
    /// that tell them apart, and one of those picks the weigh-in.
    @Test func anAmbiguousIdIsAnsweredWithPrefixesThatTellTheEntriesApart() async throws {
        let graph = makeTestApp()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ambiguous-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }  // A temporary folder: nothing to report.
        let csv = directory.appendingPathComponent("two.csv")
        try Data("""
            id,date,weight
            019ee28a-f3a1-7000-8000-000000000001,2026-06-01 07:00:00,80
            019ee28a-f3b2-7000-8000-000000000002,2026-06-01 07:00:40,80.2
            """.utf8).write(to: csv)
        #expect(try await graph.app.weightImportFeature.importFile(csv).imported == 2)
        let feature = graph.app.weightEntryFeature
        await #expect(throws: WeightLogError.ambiguousEntry("019ee28a", matches: ["019ee28a-f3a", "019ee28a-f3b"])) {
            try await feature.delete(id: "019ee28a")
        }
        #expect(try await feature.delete(id: "019ee28a-f3b").kilograms == 80.2)
        #expect(try await feature.allEntries().map(\.kilograms) == [80])
    }

    @Test func theCheckInShowsLatestTrendVerdictAndStreak() async throws {
        let graph = makeTestApp(clock: TestClock(date("2026-06-10 07:00")))
        let feature = graph.app.weightEntryFeature
        try await feature.record(kilograms: 80, when: .day(year: 2026, month: 6, day: 8))
        try await feature.record(kilograms: 79.5, when: .day(year: 2026, month: 6, day: 9))
        var checkIn = feature.checkIn()
        #expect(checkIn.latestKilograms == 79.5)
        #expect(abs((checkIn.trendKilograms ?? 0) - 79.95) < 1e-12)
        #expect(checkIn.verdict == .movingDownward)
        #expect(checkIn.currentStreak == 2)
        #expect(abs((checkIn.changeSincePreviousKilograms ?? 0) + 0.5) < 1e-12)

        graph.clock.advance(by: 86_400)
        checkIn = feature.checkIn()
        #expect(checkIn.currentStreak == 0)
        #expect(checkIn.day == DayNumber.from(year: 2026, month: 6, day: 11))
    }

    @Test(arguments: [("2026-03-06", "2026-03-10"), ("2026-10-30", "2026-11-03")])
    func theStreakHoldsAcrossADaylightSavingChange(first: String, last: String) async throws {
        let zone = "America/New_York"
        let clock = TestClock(date(last + " 23:30", zone: zone))
        let graph = makeTestApp(clock: clock, calendar: calendar(zone: zone))
        let feature = graph.app.weightEntryFeature
        var day = date(first + " 23:30", zone: zone)
        // Late-evening weigh-ins are where an hour of DST would push a day over midnight.
        while day <= clock.now {
            let parts = calendar(zone: zone).dateComponents([.year, .month, .day], from: day)
            try await feature.record(kilograms: 80, when: .dayTime(year: parts.year!, month: parts.month!, day: parts.day!, hour: 23, minute: 30))
            day = calendar(zone: zone).date(byAdding: .day, value: 1, to: day)!
        }
        #expect(feature.streak().currentStreak == 5)
        clock.advance(by: 60 * 60)
        #expect(feature.streak().currentStreak == 5, "counted from yesterday after midnight")
    }

    @Test func aTimeZoneChangeRecountsDaysInTheNewZone() async throws {
        let store = LocalDataStore.inMemory()
        let newYork = makeTestApp(store: store, clock: TestClock(date("2026-06-05 20:00", zone: "America/New_York")),
                                  calendar: calendar(zone: "America/New_York"))
        for day in 1...5 {
            try await newYork.app.weightEntryFeature.record(kilograms: 80, when: .dayTime(year: 2026, month: 6, day: day, hour: 20, minute: 0))
        }
        #expect(newYork.app.weightEntryFeature.streak().currentStreak == 5)
        // The same instants seen from Tokyo fall on June 2–6 (09:00), and it is already June 6 there.
        let tokyo = makeTestApp(store: store, clock: TestClock(date("2026-06-05 20:00", zone: "America/New_York")),
                                calendar: calendar(zone: "Asia/Tokyo"))
        try await tokyo.app.weightEntryFeature.load()
        let streak = tokyo.app.weightEntryFeature.streak()
        #expect(streak.currentStreak == 5)
        #expect(tokyo.app.weightEntryFeature.today == DayNumber.from(year: 2026, month: 6, day: 6))
        #expect(streak.week.first { $0.day == DayNumber.from(year: 2026, month: 6, day: 1) }?.status == .noCheckIn)
    }
}
