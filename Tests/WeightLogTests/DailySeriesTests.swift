import Foundation
import Testing
import TestSupport
@testable import WeightLog
import Vocabulary

@Suite struct DailySeriesTests {
    let utc = LocalDays(timeZone: TimeZone(identifier: "UTC")!)

    func entry(_ text: String, _ kilograms: Double, zone: String = "UTC") -> WeightEntry {
        WeightEntry(date: date(text, zone: zone), kilograms: kilograms)
    }

    @Test func theTrendFollowsTheGapAwareFormulaByHand() throws {
        let series = DailySeries(entries: [
            entry("2026-06-01 07:00", 80), entry("2026-06-02 07:00", 81), entry("2026-06-04 07:00", 79),
            entry("2026-06-14 07:00", 78),
        ], localDays: utc)
        // T1 = 80; T2 = 80 + 0.1·(81 − 80) = 80.1; T3 (gap 2) = 80.1 + 0.19·(79 − 80.1) = 79.891;
        // T4 (gap 10) = 79.891 + (1 − 0.9^10)·(78 − 79.891).
        let expected = [80, 80.1, 79.891, 79.891 + (1 - pow(0.9, 10)) * (78 - 79.891)]
        #expect(series.smoothedKilograms.count == 4)
        for (actual, wanted) in zip(series.smoothedKilograms, expected) {
            #expect(abs(actual - wanted) < 1e-12)
        }
    }

    @Test func severalWeighInsOnADayAreAveraged() {
        let series = DailySeries(entries: [
            entry("2026-06-01 23:00", 82), entry("2026-06-01 07:00", 80), entry("2026-06-02 07:00", 81),
        ], localDays: utc)
        #expect(series.kilograms == [81, 81])
        #expect(series.entryCounts == [2, 1])
    }

    @Test func appendingMatchesRebuilding() {
        var series = DailySeries(entries: [entry("2026-06-01 07:00", 80), entry("2026-06-03 07:00", 79)], localDays: utc)
        let sameDay = series.append(kilograms: 78, onDay: utc.day(of: date("2026-06-03 20:00")))
        let laterDay = series.append(kilograms: 77, onDay: utc.day(of: date("2026-06-05 08:00")))
        let earlierDay = series.append(kilograms: 77, onDay: utc.day(of: date("2026-05-30 08:00")))
        #expect(sameDay && laterDay && !earlierDay)
        let rebuilt = DailySeries(entries: [
            entry("2026-06-01 07:00", 80), entry("2026-06-03 07:00", 79), entry("2026-06-03 20:00", 78),
            entry("2026-06-05 08:00", 77),
        ], localDays: utc)
        #expect(series.days == rebuilt.days)
        for (a, b) in zip(series.smoothedKilograms, rebuilt.smoothedKilograms) { #expect(abs(a - b) < 1e-12) }
    }

    @Test(arguments: ["America/New_York", "Europe/Berlin", "Australia/Lord_Howe", "Asia/Kolkata", "UTC"])
    func localDaysAgreeWithCalendarAcrossDaylightSavingChanges(zone: String) {
        let timeZone = TimeZone(identifier: zone)!
        let days = LocalDays(timeZone: timeZone)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        var generator = SplitMix64(seed: 42)
        for _ in 0..<2_000 {
            let seconds = 1_600_000_000 + Double(generator.next() % 300_000_000)
            let instant = Date(timeIntervalSince1970: seconds)
            let parts = calendar.dateComponents([.year, .month, .day], from: instant)
            let expected = DayNumber.from(year: parts.year!, month: parts.month!, day: parts.day!)
            #expect(days.day(of: instant) == expected, "\(zone) \(instant)")
        }
    }

    /// The cursor that walks sorted instants once (insights read every weigh-in's local minute through it) says the
    /// same wall-clock time as the table's own search, on both sides of each change of offset.
    @Test(arguments: ["America/New_York", "Australia/Lord_Howe", "Asia/Kolkata"])
    func theCursorsWallClockIsTheTablesAcrossOffsetChanges(zone: String) {
        let days = LocalDays(timeZone: TimeZone(identifier: zone)!)
        var generator = SplitMix64(seed: 7)
        let instants = (0..<3_000).map { _ in 1_600_000_000 + Double(generator.next() % 300_000_000) }.sorted()
        var cursor = LocalDays.DayCursor(days)
        for seconds in instants {
            #expect(cursor.localSeconds(of: seconds) == seconds + days.offset(at: seconds), "\(zone) \(seconds)")
        }
    }

    @Test func dayNumbersRoundTripThroughCivilDates() {
        for day in stride(from: -30_000, through: 100_000, by: 37) {
            let (year, month, dayOfMonth) = DayNumber.civil(day)
            #expect(DayNumber.from(year: year, month: month, day: dayOfMonth) == day)
        }
        #expect(DayNumber.string(0) == "1970-01-01")
        #expect(DayNumber.weekdayName(DayNumber.from(year: 2026, month: 11, day: 29)) == "Sun")
    }

    @Test func startOfDayIsLocalMidnightEvenOnADaylightSavingDay() {
        let zone = TimeZone(identifier: "America/New_York")!
        let days = LocalDays(timeZone: zone)
        let day = DayNumber.from(year: 2026, month: 3, day: 8)
        #expect(days.startOfDay(day) == date("2026-03-08 00:00", zone: "America/New_York"))
        #expect(days.startOfDay(day + 1) == date("2026-03-09 00:00", zone: "America/New_York"))
    }
}
