import Foundation
import Testing
import TestSupport
@testable import WeightImport
@testable import WeightLog
import Vocabulary

/// More trackers' exports: Renpho (both), Zepp Life, Withings, MyFitnessPal.
@MainActor
@Suite struct MoreTrackerExportTests {
    func read(_ name: String, unit: WeightUnit = .kilograms) throws -> ReadOutcome {
        let days = LocalDays.shared(for: try #require(TimeZone(identifier: "Europe/Berlin")))
        return try WeightFileReader(displayUnit: unit, dates: ImportDates(localDays: days)).read(fixtureURL("apps/" + name))
    }

    func local(_ text: String) throws -> Date {
        let days = LocalDays.shared(for: try #require(TimeZone(identifier: "Europe/Berlin")))
        return try #require(ImportDates(localDays: days).parse(text))
    }

    @Test func renphoLegacyWithItsRemarks() throws {
        let outcome = try read("renpho-legacy.csv", unit: .pounds)
        #expect(outcome.format == .renpho && outcome.unit == .kilograms && !outcome.unitAssumed && outcome.invalid.isEmpty)
        #expect(outcome.weights.map(\.kilograms) == [76.15, 77.15])
        #expect(outcome.weights.map(\.date) == [try local("2024-01-02 10:20:30"), try local("2024-01-01 10:20:30")])
        #expect(outcome.weights.map(\.note) == [nil, "after a long walk"])
    }

    @Test func renphoHealthTabSeparatedWithDottedDates() throws {
        let outcome = try read("renpho-health-2025.tsv")
        #expect(outcome.format == .renpho && outcome.invalid.isEmpty)
        #expect(outcome.weights.map(\.kilograms) == [69.1, 68.4])
        #expect(outcome.weights.map(\.date) == [try local("2026-10-07 20:34:03"), try local("2026-10-07 07:05:10")])
        #expect(outcome.skipped == 1, "a -- weight is a value the scale did not measure")
        #expect(outcome.weights.map(\.note) == [nil, nil], "issue 32: a -- in Remarks is no note, not the note '--'")
    }

    @Test func zeppLifeUnixSeconds() throws {
        let outcome = try read("BODY_1609632000000.csv", unit: .pounds)
        #expect(outcome.format == .zeppLife && outcome.invalid.isEmpty)
        #expect(outcome.weights.map(\.kilograms) == [80.25, 80.05], "the header's kg, not the display unit")
        #expect(outcome.weights.map(\.date) == [Date(timeIntervalSince1970: 1_609_459_200), Date(timeIntervalSince1970: 1_609_545_720)])
    }

    @Test func withingsAndMyFitnessPalAreNamed() throws {
        let withings = try read("withings-weight.csv", unit: .pounds)
        #expect(withings.format == .withings && withings.weights.map(\.kilograms) == [81.32, 81.60])
        #expect(withings.weights.map(\.note) == [nil, "before the run"])
        let diary = try read("Measurement-Summary-2020-01-01-to-2020-01-31.csv", unit: .pounds)
        #expect(diary.format == .myFitnessPal && diary.unitAssumed, "MyFitnessPal writes the account's unit and names none")
        #expect(diary.weights.count == 2)
    }

    /// Withings' older web export: lean mass instead of bone mass, and times on
    /// a 12-hour clock with a one-digit hour (`6:36 AM`; `12:34 AM` is 00:34).
    @Test func withingsOlderExportWithTwelveHourTimes() throws {
        let outcome = try read("Withings - Weight 2016.csv", unit: .pounds)
        #expect(outcome.format == .withings && outcome.invalid.isEmpty && outcome.unit == .kilograms)
        #expect(outcome.weights.map(\.date) == [try local("2016-05-31 06:36"), try local("2016-05-30 22:28"),
                                                 try local("2016-05-29 00:34"), try local("2016-05-27 07:18")])
        #expect(outcome.weights.map(\.kilograms) == [62.77, 63.82, 65.67, 63.41])
        #expect(outcome.weights.map { $0.entry.bodyFatPercent.map { ($0 * 10).rounded() / 10 } } == [13.3, 13.1, nil, 12.7])
        #expect(outcome.weights.map(\.note) == [nil, nil, nil, "after the run, tired"])
    }

    @Test func twelveHourClockTimes() throws {
        let dates = ImportDates(localDays: LocalDays.shared(for: .gmt))
        #expect(dates.parse("2016-05-31 6:36 AM") == dates.parse("2016-05-31 06:36"))
        #expect(dates.parse("2016-05-31 6:36 pm") == dates.parse("2016-05-31 18:36"))
        #expect(dates.parse("2016-05-31 12:34 AM") == dates.parse("2016-05-31 00:34"))
        #expect(dates.parse("2016-05-31 12:05 PM") == dates.parse("2016-05-31 12:05"))
        #expect(dates.parse("2016-05-31 11:59:30 PM") == dates.parse("2016-05-31 23:59:30"))
        #expect(dates.parse("2016-05-31 7:05") == dates.parse("2016-05-31 07:05"))
        #expect(dates.parse("2016-05-31 13:00 PM") == nil && dates.parse("2016-05-31 0:30 AM") == nil)
        #expect(dates.parse("2016-05-31 24:00") == nil && dates.parse("2016-05-31 6:6") == nil)
    }

    @Test func datesWithDotsSlashesAndTimestamps() throws {
        let dates = ImportDates(localDays: LocalDays.shared(for: .gmt))
        #expect(dates.parse("2026.10.07 20:34:03") == dates.parse("2026-10-07 20:34:03"))
        #expect(dates.parse("2026/10/07") == dates.parse("2026-10-07"))
        #expect(dates.parse("1609459200") == Date(timeIntervalSince1970: 1_609_459_200))
        #expect(dates.parse("1609459200000") == Date(timeIntervalSince1970: 1_609_459_200))
        #expect(dates.parse("16094592000") == nil && dates.parse("2026.10-07") == nil)
    }

    /// openScale 1.x wrote no header: `dateTime,weight,fat,water,muscle,waist,hip,comment`,
    /// day first, the comment unquoted; 1.0 put the user's number first and every user in one file.
    @Test func openScaleOneWithoutAHeader() throws {
        let outcome = try read("openscale-1.x.csv")
        #expect(outcome.format == .openScale && outcome.version == "the 1.x layout, without a header" && outcome.unitAssumed)
        #expect(outcome.invalid.isEmpty && outcome.weights.map(\.kilograms) == [80.5, 80.1, 81.0])
        #expect(outcome.weights.map(\.date) == [try local("2019-04-18 11:51"), try local("2019-04-19 07:02"), try local("2014-10-31 05:23")])
        #expect(outcome.weights.map(\.entry.bodyFatPercent) == [22.5, nil, nil], "a fat of 0.0 was not measured")
        #expect(outcome.weights.first?.note == "comment one,with a comma" && outcome.weights.last?.note == nil)

        let everyone = try read("openscale-1.0.csv")
        #expect(everyone.format == .openScale && everyone.version == "the 1.0 layout, the user first" && everyone.members == ["1", "2"])
        let days = LocalDays.shared(for: try #require(TimeZone(identifier: "Europe/Berlin")))
        var reader = WeightFileReader(displayUnit: .kilograms, dates: ImportDates(localDays: days))
        reader.member = "2"
        let second = try reader.read(fixtureURL("apps/openscale-1.0.csv"))
        let expected = try local("2014-11-01 07:00")
        #expect(second.weights.map(\.kilograms) == [62.3] && second.weights.first?.date == expected)
    }

    /// Zepp Life's newer BODY file: the instant in `time` with its offset
    /// (`2023-11-07 08:12:33+0000`), `null` for what the scale did not measure,
    /// a BOM. Its `time,weight,…,bmi` start must not pass for Garmin's header.
    @Test func zeppLifeNewerBodyFileWithTimes() throws {
        let outcome = try read("BODY_1699344000.csv")
        #expect(outcome.format == .zeppLife && outcome.invalid.isEmpty && outcome.unit == .kilograms && !outcome.unitAssumed)
        #expect(outcome.weights.map(\.date) == [Date(timeIntervalSince1970: 1_699_344_753), Date(timeIntervalSince1970: 1_699_430_110)])
        #expect(outcome.weights.map(\.kilograms) == [72.3, 72.1])
        #expect(outcome.weights.map(\.entry.bodyFatPercent) == [18.2, nil])
    }

    /// Garmin Connect's account export: weigh-ins are the records with a
    /// `weight` object (grams; `timestampGMT` as a GMT time or epoch ms; a
    /// `bodyFat` of 0 is a failed reading); other records are passed over.
    @Test func garminAccountExportBiometrics() throws {
        let outcome = try read("12345_userBioMetrics.json", unit: .pounds)
        #expect(outcome.format == .garminBiometrics && outcome.unit == .kilograms && !outcome.unitAssumed)
        #expect(outcome.weights.map(\.date) == [Date(timeIntervalSince1970: 1_661_839_920), Date(timeIntervalSince1970: 1_661_926_380)])
        #expect(outcome.weights.map(\.kilograms) == [79.8, 79.5])
        #expect(outcome.weights.map(\.entry.bodyFatPercent) == [21.3, nil])
        #expect(outcome.weights.map(\.id) == ["garmin-1661839920000", "garmin-1661926380000"])
        #expect(outcome.skipped == 2, "the height and VO2 max records")
        #expect(outcome.invalid.map(\.line) == [5], "795 g is no weigh-in")
    }
}
