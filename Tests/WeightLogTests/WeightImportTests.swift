import Foundation
import Settings
import Storage
import Testing
import TestSupport
@testable import WeightLog

@MainActor
@Suite struct WeightImportTests {
    let temp = TemporaryDirectory()

    func file(_ name: String, _ text: String, bom: Bool = false, crlf: Bool = false) throws -> URL {
        let url = temp.url.appendingPathComponent(name)
        var body = crlf ? text.replacingOccurrences(of: "\n", with: "\r\n") : text
        if bom { body = "\u{FEFF}" + body }
        try Data(body.utf8).write(to: url)
        return url
    }

    func graph(zone: String = "UTC", unit: String = "kg") async throws -> TestGraph {
        let graph = makeTestApp(clock: TestClock(date("2026-11-29 09:00")), calendar: calendar(zone: zone))
        try await graph.app.settingsFeature.setUnit(named: unit)
        return graph
    }

    @Test func genericCSVWithHeadersInAnyOrderQuotedCommasBOMAndCRLF() async throws {
        defer { temp.remove() }
        let url = try file("any.csv", #"""
        note,Weight,Date,unit
        "after a run, tired",82.4,2026-11-01,kg
        "said ""hi""",181.6,2026-11-02 07:30,lb
        ,12st 6lb,2026-11-03T06:00:00+01:00,st
        ,600,2026-11-04,kg
        ,80,2026-02-30,kg
        ,,2026-11-05,kg
        ,80,2026-11-06,furlongs
        ,nan,2026-11-07,kg
        """#, bom: true, crlf: true)
        let g = try await graph()
        let preview = try await g.app.weightImportFeature.preview(url)
        #expect(preview.format == .genericCSV)
        #expect(preview.newEntries.count == 3)
        #expect(preview.newEntries[0].note == "after a run, tired")
        #expect(preview.newEntries[0].date == date("2026-11-01 12:00"), "a bare date is noon")
        #expect(preview.newEntries[1].note == "said \"hi\"")
        #expect(abs(preview.newEntries[1].kilograms - 181.6 * 0.45359237) < 1e-12)
        #expect(abs(preview.newEntries[2].kilograms - 174 * 0.45359237) < 1e-12)
        #expect(preview.newEntries[2].date == date("2026-11-03 05:00"))
        #expect(preview.invalid.map(\.line) == [5, 6, 7, 8, 9])
        #expect(preview.invalid[0].reason.contains("outside 20–500 kg"))
        #expect(preview.invalid[1].reason.contains("'2026-02-30' is not a date"))
        #expect(preview.invalid[2].reason == "no weight")
        #expect(preview.invalid[3].reason.contains("unknown unit 'furlongs'"))
        #expect(preview.invalid[4].reason.contains("'nan' is not a weight"))
        #expect(try await LocalWeightRepository(store: g.store).allEntries().isEmpty, "a preview writes nothing")
    }

    /// Issue 18: `…,kg,"unfinished` must not eat the next line. The quote is reported where it
    /// opens; a note that really spans two lines still reads; the rest of the file is read.
    @Test func anUnclosedQuoteIsReportedAtItsLineAndEatsNothing() async throws {
        defer { temp.remove() }
        let url = try file("quotes.csv", """
        date,weight,unit,note
        2026-01-01,70.1,kg,fine
        2026-01-02,70.2,kg,"unfinished
        2026-01-03,70.3,kg,after
        2026-01-04,70.4,kg,"two
        lines"
        2026-01-05,70.5,kg,"open at the end
        """)
        let g = try await graph()
        let preview = try await g.app.weightImportFeature.preview(url)
        #expect(preview.newEntries.map(\.kilograms) == [70.1, 70.3, 70.4])
        #expect(preview.newEntries.map(\.note) == ["fine", "after", "two\nlines"])
        #expect(preview.invalid.map(\.line) == [3, 7])
        #expect(preview.invalid.allSatisfy { $0.reason == "a quote opened on this line is never closed" })
    }

    @Test func aFileWithoutUnitsIsReadInTheDisplayUnitAndSaysSo() async throws {
        defer { temp.remove() }
        let url = try file("plain.csv", "date,weight\n2026-11-01,180\n")
        let g = try await graph(unit: "lb")
        let preview = try await g.app.weightImportFeature.preview(url)
        #expect(preview.unitAssumed && preview.unit == .pounds)
        #expect(abs((preview.newEntries.first?.kilograms ?? 0) - 180 * 0.45359237) < 1e-12)
    }

    @Test func importMergesOnceAndAReimportFindsOnlyDuplicates() async throws {
        defer { temp.remove() }
        let url = try file("w.csv", "date,weight\n2026-11-01 07:00,80\n2026-11-02 07:00,79.5\n2026-11-02 07:00,79.5\n")
        let g = try await graph()
        try await g.app.weightEntryFeature.record(kilograms: 80, when: .dayTime(year: 2026, month: 11, day: 1, hour: 7, minute: 0))
        _ = try await g.app.progressFeature.prepare()
        let result = try await g.app.weightImportFeature.importFile(url)
        #expect(result.imported == 1)
        #expect(result.preview.duplicates == 2, "one already in the log, one repeated in the file")
        #expect(try await g.app.weightEntryFeature.allEntries().count == 2, "the log was refreshed")
        #expect(g.app.progressFeature.progressSnapshot?.points.count == 2, "and the progress shown")
        let again = try await g.app.weightImportFeature.importFile(url)
        #expect(again.imported == 0 && again.preview.duplicates == 3 && again.preview.newEntries.isEmpty)
    }

    @Test func weightDiaryUnitsRowAndIgnoredRows() async throws {
        defer { temp.remove() }
        let url = try file("diary.csv", """
        units,lbs
        goal,160
        height,70
        birthdate,1980-01-01
        gender,female
        date,weight
        2026-10-01,170.2
        2026-10-02,
        2026-10-03,169.8
        """)
        let g = try await graph()
        let preview = try await g.app.weightImportFeature.preview(url)
        #expect(preview.format == .weightDiary)
        #expect(preview.unit == .pounds && !preview.unitAssumed)
        #expect(preview.newEntries.map { ($0.kilograms / 0.45359237 * 10).rounded() / 10 } == [170.2, 169.8])
        #expect(preview.invalid.isEmpty && preview.skipped == 1)
    }

    /// Issue 18: Weight Diary's columns are date, weight, body fat, note; the body fat is never the note.
    @Test func weightDiaryBodyFatIsNotTheNote() async throws {
        defer { temp.remove() }
        let url = try file("diary-fat.csv", """
        units,kg
        2026-10-01,70.8,20.2,After the gym
        2026-10-02,70.6,20.1
        2026-10-03,70.4,,rest day
        """)
        let g = try await graph()
        let preview = try await g.app.weightImportFeature.preview(url)
        #expect(preview.newEntries.map(\.note) == ["After the gym", nil, "rest day"])
    }

    @Test func libraWithVersionUnitsAndUTCInstants() async throws {
        defer { temp.remove() }
        let url = try file("libra.csv", """
        #Version:6
        #Units:kg

        #date;weight;weight trend;body fat;body fat trend;comment
        2013-01-01T06:33:12.000Z;80.5;80.5;;;new year
        2013-01-02T06:30:00.000Z;;80.4;20.1;20.1;
        2013-01-03T06:31:00.000Z;80.1;80.4;;;
        """)
        let g = try await graph(zone: "America/New_York")
        let preview = try await g.app.weightImportFeature.preview(url)
        #expect(preview.format == .libra)
        #expect(preview.newEntries.map(\.kilograms) == [80.5, 80.1])
        #expect(preview.newEntries[0].note == "new year")
        #expect(preview.newEntries[0].date == Date(timeIntervalSince1970: 1_357_021_992), "UTC, whatever the local zone")
        #expect(preview.skipped == 1)
    }

    /// Issue 18: Libra 6 calls the note column `log`; older Libra files carry a midnight
    /// placeholder beside the real weigh-in of the same day and weight, which is dropped.
    @Test func libraSixNotesAndMidnightPlaceholders() async throws {
        defer { temp.remove() }
        let url = try file("libra6.csv", """
        #Version:6
        #Units:kg

        #date;weight;weight trend;body fat;body fat trend;log
        2013-01-01T00:00:00.000Z;80.5;80.5;;;
        2013-01-01T06:33:12.000Z;80.5;80.5;;;after the holidays
        2013-01-02T00:00:00.000Z;80.2;80.4;;;midnight and alone
        """)
        let g = try await graph(zone: "UTC")
        let preview = try await g.app.weightImportFeature.preview(url)
        #expect(preview.newEntries.map(\.kilograms) == [80.5, 80.2])
        #expect(preview.newEntries.map(\.note) == ["after the holidays", "midnight and alone"])
        #expect(preview.newEntries[0].date == Date(timeIntervalSince1970: 1_357_021_992))
        #expect(preview.skipped == 1)
    }

    /// Issue 18: openScale 2.0–2.1.1 wrote its dateTime day first (`18.04.2019 11:51`).
    @Test func openScaleTwoPointZeroDayFirstDates() async throws {
        defer { temp.remove() }
        let url = try file("openScale-2.0.csv", """
        "dateTime","weight","fat","water","muscle","lbw","bone","waist","hip","comment"
        "18.04.2019 11:51","74.3","21.0","55.0","35.0","0.0","0.0","0.0","0.0",""
        "19.04.2019 07:02","74.1","0.0","0.0","0.0","0.0","0.0","0.0","0.0","morning"
        "31.02.2019 07:02","74.1","0.0","0.0","0.0","0.0","0.0","0.0","0.0",""
        """)
        let g = try await graph(zone: "UTC")
        let preview = try await g.app.weightImportFeature.preview(url)
        #expect(preview.format == .openScale)
        #expect(preview.newEntries.map(\.kilograms) == [74.3, 74.1])
        #expect(preview.newEntries[0].date == date("2019-04-18 11:51"))
        #expect(preview.newEntries[1].note == "morning")
        #expect(preview.invalid.map(\.line) == [4])
    }

    /// Issue 18: XML that is not Apple Health's is refused by its root element; a file of
    /// stray `<` is refused too, read in one pass (it took a minute a megabyte before).
    @Test func xmlThatIsNotAHealthExportIsRefused() async throws {
        defer { temp.remove() }
        let gpx = try file("track.xml", """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1"><trk><trkseg><trkpt lat="46.5" lon="6.6"><ele>372</ele></trkpt></trkseg></trk></gpx>
        """)
        let stray = try file("stray.xml", "<?xml version=\"1.0\"?>\n" + String(repeating: "<", count: 200_000))
        let g = try await graph()
        await #expect(throws: ImportError.notAppleHealth(gpx.path, root: "gpx")) { try await g.app.weightImportFeature.preview(gpx) }
        await #expect(throws: ImportError.notAppleHealth(stray.path, root: "none")) { try await g.app.weightImportFeature.preview(stray) }
    }

    @Test func openScaleNewAndOldLayouts() async throws {
        defer { temp.remove() }
        let current = try file("os.csv", "DATE,TIME,Weight,Fat,Water\n2026-05-01,07:15,82.1,20,55\n2026-05-02,07:20,81.9,20,55\n")
        let older = try file("os-old.csv", "\"dateTime\",\"weight\",\"fat\"\n\"2019-01-06 07:30\",\"80.2\",\"0.0\"\n")
        let g = try await graph()
        let new = try await g.app.weightImportFeature.preview(current)
        #expect(new.format == .openScale)
        #expect(new.newEntries.map(\.date) == [date("2026-05-01 07:15"), date("2026-05-02 07:20")])
        let old = try await g.app.weightImportFeature.preview(older)
        #expect(old.format == .openScale && old.newEntries.map(\.kilograms) == [80.2])
    }

    @Test func hackersDietSkipsNonDataRowsAndEmptyWeights() async throws {
        defer { temp.remove() }
        let url = try file("hdo.csv", """
        Epoch,2026-01-01
        Date,Weight,Rung,Flag,Comment
        2026-01-01,180.5,12,0,Start
        2026-01-02,,12,0,
        Monthly summary,,,,
        2026-01-03,179.0,13,1,
        """)
        let g = try await graph(unit: "lb")
        let preview = try await g.app.weightImportFeature.preview(url)
        #expect(preview.format == .hackersDiet)
        #expect(preview.newEntries.count == 2 && preview.newEntries[0].note == "Start")
        #expect(preview.invalid.isEmpty && preview.skipped == 2)
    }

    /// Issue 18: Hacker's Diet Online writes characters above U+00FF as `\x{20ac}`.
    @Test func hackersDietPerlEscapesAreDecoded() {
        #expect(WeightFileReader.perlEscapes(#"cost 5 \x{20ac}, caf\x{e9}"#) == "cost 5 €, café")
        #expect(WeightFileReader.perlEscapes(#"no \x{zz} here \x{110000}"#) == #"no \x{zz} here \x{110000}"#)
    }

    @Test func appleHealthKeepsOnlyBodyMassRecords() async throws {
        defer { temp.remove() }
        let url = try file("export.xml", """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE HealthData [
        <!ELEMENT HealthData (ExportDate,Me,(Record)*)>
        <!ATTLIST Record type CDATA #REQUIRED unit CDATA #IMPLIED value CDATA #IMPLIED startDate CDATA #REQUIRED>
        ]>
        <HealthData locale="en_US">
         <ExportDate value="2026-06-02 08:00:00 -0400"/>
         <Me HKCharacteristicTypeIdentifierDateOfBirth=""/>
         <Record type="HKQuantityTypeIdentifierStepCount" unit="count" value="5000" startDate="2026-06-01 07:00:00 -0400"/>
         <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Scale" unit="lb" value="181.6" startDate="2026-06-01 07:01:00 -0400"/>
         <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Phone" unit="kg" value="82.0" startDate="2026-06-02 07:05:00 -0400"/>
         <Record type="HKQuantityTypeIdentifierBodyMass" unit="kg" value="8200" startDate="2026-06-03 07:05:00 -0400"/>
         <Record type="HKQuantityTypeIdentifierBodyMass" unit="kg" value="80" startDate="yesterday"/>
        </HealthData>
        """)
        let g = try await graph()
        let preview = try await g.app.weightImportFeature.preview(url)
        #expect(preview.format == .appleHealth)
        #expect(preview.newEntries.count == 2)
        #expect(preview.newEntries[0].date == date("2026-06-01 11:01"))
        #expect(abs(preview.newEntries[0].kilograms - 181.6 * 0.45359237) < 1e-12)
        #expect(preview.invalid.map(\.line) == [12, 13], "line numbers of the file, DTD and all")
    }

    @Test func exportThenImportIntoAnEmptyDirectoryGivesBackTheSameEntries() async throws {
        defer { temp.remove() }
        let g = try await graph(unit: "lb")
        try await g.app.weightEntryFeature.record(kilograms: 80.123456789, when: .dayTime(year: 2026, month: 11, day: 1, hour: 7, minute: 3),
                                                  note: "with, comma and \"quotes\"")
        try await g.app.weightEntryFeature.record(kilograms: 79.5)
        for (name, kilograms) in [("out.csv", false), ("out-kg.csv", true), ("out.json", false)] {
            let url = temp.url.appendingPathComponent(name)
            if name.hasSuffix(".json") { _ = try await g.app.weightImportFeature.exportJSON(to: url) }
            else { _ = try await g.app.weightImportFeature.exportCSV(to: url, unit: kilograms ? .kilograms : .pounds) }
            let fresh = try await graph(unit: "st")
            let result = try await fresh.app.weightImportFeature.importFile(url)
            #expect(result.imported == 2, "\(name): \(result.preview.invalid)")
            let back = (try await fresh.app.weightEntryFeature.allEntries())
            let original = (try await g.app.weightEntryFeature.allEntries())
            #expect(back.map(\.id) == original.map(\.id), "\(name)")
            #expect(back.map(\.date) == original.map(\.date), "\(name)")
            #expect(back.map(\.note) == original.map(\.note), "\(name)")
            for (a, b) in zip(back, original) { #expect(abs(a.kilograms - b.kilograms) < 1e-9, "\(name)") }
        }
    }

    @Test func unreadableAndForeignFilesAreRefusedWithAMessage() async throws {
        defer { temp.remove() }
        let g = try await graph()
        await #expect(throws: ImportError.self) { _ = try await g.app.weightImportFeature.preview(temp.url.appendingPathComponent("missing.csv")) }
        await #expect(throws: ImportError.self) { _ = try await g.app.weightImportFeature.preview(temp.url) }
        let foreign = try file("notes.txt", "shopping list\nmilk\neggs\n")
        await #expect(throws: ImportError.unknownFormat(foreign.path)) { _ = try await g.app.weightImportFeature.preview(foreign) }
        let binary = temp.url.appendingPathComponent("blob.bin")
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(to: binary)
        await #expect(throws: ImportError.self) { _ = try await g.app.weightImportFeature.preview(binary) }
    }
}

/// The export's instants are written without a formatter per row, and read
/// exactly as ISO8601DateFormatter writes them.
@Suite struct ExportInstantTests {
    @Test(arguments: ["UTC", "Europe/Berlin", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe", "Pacific/Chatham"])
    func instantsMatchTheFoundationFormatter(zone: String) throws {
        let timeZone = try #require(TimeZone(identifier: zone))
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = timeZone
        formatter.formatOptions = [.withInternetDateTime]
        let local = DateFormatter()
        local.locale = Locale(identifier: "en_US_POSIX")
        local.timeZone = timeZone
        local.dateFormat = "yyyy-MM-dd HH:mm"
        let days = LocalDays.shared(for: timeZone)
        var random = SystemRandomNumberGenerator()
        // Every DST change of 2026 and its neighbours, and random instants from 1900 to 2100.
        var instants: [Double] = (0..<2_000).map { _ in Double(Int.random(in: -2_208_988_800...4_102_444_800, using: &random)) }
        for transition in LocalDays.shared(for: timeZone).transitions where transition > 1_767_225_600 && transition < 1_798_761_600 {
            instants += [transition - 1, transition, transition + 1]
        }
        for instant in instants {
            let date = Date(timeIntervalSince1970: instant)
            #expect(days.internetDateTime(date) == formatter.string(from: date), "\(zone) \(instant)")
            #expect(days.localMinute(date) == local.string(from: date), "\(zone) \(instant)")
        }
    }
}

/// The big trackers' exports, from real layouts (Tests/Fixtures/README.md).
@MainActor
@Suite struct TrackerExportTests {
    func read(_ name: String, unit: WeightUnit = .kilograms, zone: String = "Europe/Berlin") throws -> ReadOutcome {
        let days = LocalDays.shared(for: try #require(TimeZone(identifier: zone)))
        return try WeightFileReader(displayUnit: unit, dates: ImportDates(localDays: days)).read(fixtureURL("apps/" + name))
    }

    func local(_ text: String, zone: String = "Europe/Berlin") throws -> Date {
        let timeZone = try #require(TimeZone(identifier: zone))
        return try #require(ImportDates(localDays: LocalDays.shared(for: timeZone)).parse(text))
    }

    @Test func garminInPoundsWithTwelveHourTimes() throws {
        let outcome = try read("garmin-weight-lbs.csv")
        #expect(outcome.format == .garmin && outcome.invalid.isEmpty)
        #expect(outcome.weights.map(\.date) == [try local("2025-11-25 09:25"), try local("2025-11-24 00:05"), try local("2025-11-24 19:40")])
        let pounds = outcome.weights.map { ($0.kilograms / WeightUnit.kilogramsPerPound * 10).rounded() / 10 }
        #expect(pounds == [157.4, 157.2, 158.0], "the unit comes from the cell, not the display unit")
    }

    @Test func garminInKilogramsWithDayRowsOfEmptyCells() throws {
        let outcome = try read("garmin-weight-kg.csv", unit: .pounds)
        #expect(outcome.format == .garmin && outcome.invalid.isEmpty)
        #expect(outcome.weights.map(\.kilograms) == [80.4, 79.8, 80.9])
        #expect(outcome.weights.map(\.date) == [try local("2017-12-31 01:00"), try local("2017-12-31 13:30"), try local("2017-12-30 07:15")])
    }

    @Test func samsungHealthTimesAreUTCAndWeightsKilograms() throws {
        let outcome = try read("com.samsung.health.weight.20260115093000.csv", unit: .pounds)
        #expect(outcome.format == .samsungHealth && outcome.unit == .kilograms)
        #expect(outcome.weights.map(\.kilograms) == [82.4, 82.1])
        // 06:58 UTC is 07:58 in Berlin (its time_offset, UTC+0100).
        #expect(outcome.weights.first?.date == Date(timeIntervalSince1970: 1_768_028_280))
        #expect(try local("2026-01-10 07:58") == outcome.weights.first?.date)
        #expect(outcome.skipped == 1 && outcome.invalid.isEmpty, "a row without a weight is passed over")
    }

    @Test func fitbitWeightsArePoundsAtLocalTimes() throws {
        let outcome = try read("fitbit-weight-2025-09-12.json", zone: "America/Chicago")
        #expect(outcome.format == .fitbit && outcome.unit == .pounds && outcome.invalid.isEmpty)
        #expect(outcome.weights.map { ($0.kilograms / WeightUnit.kilogramsPerPound * 10).rounded() / 10 } == [198.1, 197.6])
        #expect(outcome.weights.map(\.date) == [try local("2025-09-12 09:13:26", zone: "America/Chicago"),
                                                try local("2025-09-13 09:00", zone: "America/Chicago")])
        #expect(outcome.weights.map(\.id) == ["fitbit-1757668406000", "fitbit-1757754000000"], "a second import finds them again")
    }

    @Test func timesAndDaysAsTheAppsWriteThem() {
        #expect(WeightFileReader.clock24("12:05 AM") == "00:05" && WeightFileReader.clock24("12:30 PM") == "12:30")
        #expect(WeightFileReader.clock24("9:25 pm") == "21:25" && WeightFileReader.clock24("01:00") == "01:00")
        #expect(WeightFileReader.clock24("13:00 PM") == nil && WeightFileReader.clock24("24:00") == nil)
        #expect(WeightFileReader.garminDay(" Nov 25, 2025") == "2025-11-25" && WeightFileReader.garminDay("Feb 30") == nil)
        #expect(WeightFileReader.monthDayYear("09/12/25") == "2025-09-12" && WeightFileReader.monthDayYear("13/01/25") == nil)
    }
}

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

    @Test func datesWithDotsSlashesAndTimestamps() throws {
        let dates = ImportDates(localDays: LocalDays.shared(for: .gmt))
        #expect(dates.parse("2026.10.07 20:34:03") == dates.parse("2026-10-07 20:34:03"))
        #expect(dates.parse("2026/10/07") == dates.parse("2026-10-07"))
        #expect(dates.parse("1609459200") == Date(timeIntervalSince1970: 1_609_459_200))
        #expect(dates.parse("1609459200000") == Date(timeIntervalSince1970: 1_609_459_200))
        #expect(dates.parse("16094592000") == nil && dates.parse("2026.10-07") == nil)
    }
}

/// Apple Health's export.zip, read through libarchive without extracting.
@MainActor
@Suite struct AppleHealthZipTests {
    func reader() -> WeightFileReader {
        WeightFileReader(displayUnit: .kilograms, dates: ImportDates(localDays: LocalDays.shared(for: .gmt)))
    }

    @Test func theExportXMLInsideTheZipIsRead() throws {
        let outcome = try reader().read(fixtureURL("apps/export.zip"))
        #expect(outcome.format == .appleHealthZip && outcome.invalid.isEmpty)
        #expect(outcome.weights.count == 2)
        #expect(outcome.weights.first?.kilograms == 82.4)
        #expect(abs((outcome.weights.last?.kilograms ?? 0) - 181.2 * WeightUnit.kilogramsPerPound) < 1e-9)
        // 07:01 at +0100 is 06:01 UTC.
        #expect(outcome.weights.first?.date == Date(timeIntervalSince1970: 1_780_293_660))
    }

    @Test func aZipWithoutAnExportIsRefusedWithItsReason() {
        #expect(throws: ImportError.self) { try reader().read(fixtureURL("apps/not-health.zip")) }
        do {
            _ = try reader().read(fixtureURL("apps/not-health.zip"))
        } catch {
            #expect("\(error)".contains("holds no export.xml"))
        }
    }

    @Test func aDamagedZipIsReportedNotACrash() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        var bytes = try Data(contentsOf: fixtureURL("apps/export.zip"))
        bytes = bytes.prefix(bytes.count / 2)
        let url = temp.url.appendingPathComponent("broken.zip")
        try bytes.write(to: url)
        #expect(throws: ImportError.self) { try reader().read(url) }
    }
}
