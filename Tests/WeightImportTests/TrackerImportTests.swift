import Foundation
import Testing
import TestSupport
@testable import WeightImport
@testable import WeightLog
import Vocabulary

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

    /// Issue 18: body fat is kept where the file has it, in percent; a
    /// mass (Withings) becomes a share of the weight; empty and `--` cells
    /// leave the weigh-in without it.
    @Test(arguments: [
        ("garmin-weight-lbs.csv", [22.4, 22.6]),
        ("renpho-legacy.csv", [23.2, 23.2]),
        ("renpho-health-2025.tsv", [13.5, 13.5]),
        ("BODY_1609632000000.csv", [22.1, 22.0]),
        ("fitbit-weight-2025-09-12.json", [28.744]),
        ("withings-weight.csv", [17.2 / 81.32 * 100]),
    ])
    func bodyFatIsKeptInPercent(file: String, expected: [Double]) throws {
        let outcome = try read(file)
        let fat = outcome.weights.compactMap(\.entry.bodyFatPercent).map { ($0 * 1_000).rounded() / 1_000 }
        #expect(fat == expected.map { ($0 * 1_000).rounded() / 1_000 }, "\(file)")
    }

    @Test func eufyLifeInPoundsWithBodyFat() throws {
        let outcome = try read("eufylife-lbs.csv")
        #expect(outcome.format == .eufyLife && outcome.invalid.isEmpty && outcome.unit == .pounds && !outcome.unitAssumed)
        #expect(outcome.weights.map(\.date) == [try local("2024-03-02 07:15:00"), try local("2024-03-01 07:20:12")])
        #expect(outcome.weights.map { ($0.kilograms / WeightUnit.kilogramsPerPound * 10).rounded() / 10 } == [181.6, 182.2])
        #expect(outcome.weights.map(\.entry.bodyFatPercent) == [24.3, 24.5])
    }

    /// A family's EufyLife file: one person at a time, never everyone's weights in one trend.
    @Test func aFamilysEufyLifeFileIsReadForOnePerson() async throws {
        let graph = makeTestApp(clock: TestClock(date("2024-03-10 09:00")))
        let feature = graph.app.weightImportFeature
        let file = fixtureURL("apps/eufylife-family.csv")
        await #expect(throws: ImportError.severalPeople(file.path, members: ["Alex", "Sam Lee"])) {
            _ = try await feature.preview(file)
        }
        let alex = try await feature.preview(file, member: "alex")
        #expect(alex.member == "Alex" && alex.newEntries.map(\.kilograms) == [82.2, 82.4] && alex.invalid.isEmpty)
        #expect(alex.newEntries.map(\.bodyFatPercent) == [24.1, 24.3])
        // An import reads the rows as it writes them: everyone's rows were read before the refusal, and none stays.
        await #expect(throws: ImportError.severalPeople(file.path, members: ["Alex", "Sam Lee"])) {
            _ = try await feature.importFile(file)
        }
        #expect(try graph.store.read { try $0.scalarInt("SELECT count(*) FROM weight_entries") } == 0)
        let sam = try await feature.importFile(file, member: "Sam Lee")
        #expect(sam.imported == 1 && sam.preview.newCount == 1 && sam.preview.member == "Sam Lee")
        #expect(try graph.store.read { try $0.query("SELECT kilograms FROM weight_entries") { $0.double(0) } } == [61.2])
        await #expect(throws: ImportError.noSuchMember(file.path, member: "Kim", members: ["Alex", "Sam Lee"])) {
            _ = try await feature.importFile(file, member: "Kim")
        }
        let single = fixtureURL("apps/eufylife-lbs.csv")
        #expect(try await feature.preview(single).newEntries.count == 2, "one person's file needs no name")
        await #expect(throws: ImportError.noSuchMember(fixtureURL("apps/happy-scale.csv").path, member: "Alex", members: [])) {
            _ = try await feature.preview(fixtureURL("apps/happy-scale.csv"), member: "Alex")
        }
        #expect((try await graph.app.weightEntryFeature.allEntries()).map(\.kilograms) == [61.2], "only what was asked for was written")
    }

    @Test func googleFitDailySummariesGiveEachDaysAverage() throws {
        let outcome = try read("Daily Summaries.csv", unit: .pounds)
        #expect(outcome.format == .googleFit && outcome.invalid.isEmpty && outcome.unit == .kilograms)
        #expect(outcome.weights.map(\.kilograms) == [64.321])
        #expect(outcome.weights.map(\.date) == [try local("2020-11-19")])
        #expect(outcome.skipped == 1, "a day of steps without a weight is passed over, not an error")
    }

    /// Happy Scale: quoted `"Date","Pound(s)"`, a weight a day in pounds, whatever the display unit.
    @Test func happyScaleDaysInPounds() throws {
        let outcome = try read("happy-scale.csv", unit: .kilograms)
        #expect(outcome.format == .happyScale && outcome.invalid.isEmpty)
        #expect(outcome.unit == .pounds && !outcome.unitAssumed, "the column names the unit")
        #expect(outcome.weights.map { ($0.kilograms * 100).rounded() / 100 } == [82.19, 82.01, 81.83])
        #expect(outcome.weights.map(\.date) == [try local("2024-01-05"), try local("2024-01-06"), try local("2024-01-08")])
    }

    /// Columns named for their unit alone are weight columns in that unit.
    @Test func aColumnNamedForItsUnitIsTheWeight() throws {
        for (header, unit) in [("weight_kg", WeightUnit.kilograms), ("lbs", .pounds), ("Weight [kg]", .kilograms),
                               ("Kilogram(s)", .kilograms), ("weight_lbs", .pounds)] {
            #expect(WeightFileReader.isWeightHeader(header.lowercased()), "\(header)")
            #expect(WeightFileReader.unit(inHeader: header.lowercased()) == unit, "\(header)")
        }
        #expect(!WeightFileReader.isWeightHeader("bmi") && WeightFileReader.unit(inHeader: "weight") == nil)
    }

    /// Hacker's Diet Online's XML backup: each month in its own unit, entities decoded, the DTD never read.
    @Test func hackersDietXMLBackup() throws {
        let outcome = try read("hackdiet_db.xml", unit: .kilograms, zone: "UTC")
        #expect(outcome.format == .hackersDietXML && outcome.unit == .pounds && !outcome.unitAssumed)
        let kilograms = outcome.weights.map { ($0.kilograms * 1_000).rounded() / 1_000 }
        let expected = [207.2, 206.1, 205.4].map { ($0 * WeightUnit.kilogramsPerPound * 1_000).rounded() / 1_000 } + [92.8]
        #expect(kilograms == expected)
        #expect(outcome.weights.map(\.note) == [nil, "after the party, finally", "señor & <friends> €5", nil])
        #expect(outcome.weights.first?.date == (try local("2007-08-01 12:00", zone: "UTC")))
        #expect(outcome.invalid.count == 1 && outcome.invalid[0].reason.contains("2007-09-31"), "\(outcome.invalid)")
        #expect(outcome.invalid.first?.line == 19, "the line the day is on")
        #expect(outcome.skipped == 1, "the day without a weight")
    }

    /// Issue 32: the backup goes through libxml2's parser; one cut short (here at a day boundary, where the
    /// element finder before read it as whole) is refused at its end, nothing read.
    @Test func aHackersDietXMLBackupCutShortIsRefused() throws {
        let original = try String(contentsOf: fixtureURL("apps/hackdiet_db.xml"), encoding: .utf8)
        let cut = String(original.prefix(upTo: try #require(original.range(of: "</days></monthlog>\n<monthlog>")).lowerBound))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("hdo-cut-\(UUID().uuidString).xml")
        try cut.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }  // A temporary file; a leftover is harmless.
        let reader = WeightFileReader(displayUnit: .kilograms, dates: ImportDates(localDays: LocalDays.shared(for: .gmt)))
        #expect(throws: ImportError.unreadable(file.path, reason: "it ends at line 16 before <hackersdiet> closes: the backup was cut short, so nothing was imported")) {
            _ = try reader.read(file)
        }
    }

    /// Any cut or damage to an XML backup is read or refused, never a crash.
    @Test func aDamagedHackersDietXMLNeverCrashes() throws {
        let original = Array(try Data(contentsOf: fixtureURL("apps/hackdiet_db.xml")))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hdo-fuzz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }  // A temporary folder; leftovers are harmless.
        let reader = WeightFileReader(displayUnit: .kilograms, dates: ImportDates(localDays: LocalDays.shared(for: TimeZone(identifier: "UTC")!)))
        var random = SystemRandomNumberGenerator()
        var variants = stride(from: 40, to: original.count, by: 9).map { Array(original.prefix($0)) }
        for _ in 0..<150 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                let at = Int.random(in: 40..<bytes.count, using: &random)
                bytes[at] = [UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "/"), UInt8(ascii: "&"), 0, 0xFF].randomElement(using: &random)!
            }
            variants.append(bytes)
        }
        for (index, bytes) in variants.enumerated() {
            let file = directory.appendingPathComponent("v\(index).xml")
            try Data(bytes).write(to: file)
            _ = try? reader.read(file)  // Read or refused: both are answers; only a crash would fail.
        }
    }

    @Test func goldenCheetahBodyMeasures() throws {
        let outcome = try read("goldencheetah-weight.csv", unit: .pounds)
        #expect(outcome.format == .goldenCheetah && outcome.invalid.isEmpty && !outcome.unitAssumed)
        #expect(outcome.weights.map(\.kilograms) == [81.15, 80.90])
        #expect(outcome.weights.map(\.entry.bodyFatPercent) == [12.57, nil])
        #expect(outcome.weights.first?.note == "Here the comment text contain commas itself, so it needs quotes")
    }

    /// Issue 18: the unit is the file's, whatever the display unit: a pound
    /// log read by a kilogram user is not 2.2× too heavy, a stone month is
    /// kept in pounds, and each month's StartTrend row says its own unit.
    @Test(arguments: [WeightUnit.kilograms, .pounds, .stones])
    func hackersDietReadsItsUnitFromTheFile(display: WeightUnit) throws {
        let outcome = try read("hackdiet_db.csv", unit: display)
        #expect(outcome.format == .hackersDiet && outcome.invalid.isEmpty)
        #expect(outcome.unit == .pounds && !outcome.unitAssumed, "the Preferences row names pounds")
        let kilograms = outcome.weights.map(\.kilograms)
        let expected = [180 * WeightUnit.kilogramsPerPound, 200.5 * WeightUnit.kilogramsPerPound, 179.5 * WeightUnit.kilogramsPerPound, 80.5]
        #expect(kilograms.count == 4)
        for (read, wanted) in zip(kilograms, expected) { #expect(abs(read - wanted) < 1e-9) }
        #expect(outcome.weights.map(\.note) == [nil, "heavier, after the party", "señor €5", nil], "Latin-1 and Perl escapes decoded")
    }

    @Test func garminInKilogramsWithDayRowsOfEmptyCells() throws {
        let outcome = try read("garmin-weight-kg.csv", unit: .pounds)
        #expect(outcome.format == .garmin && outcome.invalid.isEmpty)
        #expect(outcome.weights.map(\.kilograms) == [80.4, 79.8, 80.9])
        #expect(outcome.weights.map(\.date) == [try local("2017-12-31 01:00"), try local("2017-12-31 13:30"), try local("2017-12-30 07:15")])
    }

    /// Issue 32, item 13: Garmin Connect's export for a European account: a BOM, and day rows day first
    /// (`" 21 Sep 2023"`); every weigh-in used to be refused as "a weigh-in before any day row".
    @Test func garminEuropeanDayRowsAreDayFirst() throws {
        let outcome = try read("garmin-weight-eu.csv", unit: .pounds)
        #expect(outcome.format == .garmin && outcome.invalid.isEmpty, "\(outcome.invalid)")
        #expect(outcome.weights.map(\.kilograms) == [80.4, 80.6, 80.2])
        #expect(outcome.weights.map(\.date) == [try local("2023-09-21 07:15"), try local("2023-09-20 22:40"), try local("2023-09-20 06:58")])
        #expect(outcome.weights.map(\.entry.bodyFatPercent) == [20.1, nil, 20.3])
        #expect(WeightFileReader.garminDay(" 21 Sep 2023") == "2023-09-21" && WeightFileReader.garminDay("Nov 25, 2025") == "2025-11-25")
        #expect(WeightFileReader.garminDay("21 Foo 2023") == nil && WeightFileReader.garminDay("32 Sep 2023") == nil)
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

    /// FatSecret's `weights.get_month` responses saved by a script: days since
    /// 1970 at local noon, kilograms (or pounds) and comments written as strings,
    /// a one-weigh-in month not wrapped in an array, a day without a weight listed.
    @Test func fatSecretMonthsFromItsPlatformAPI() throws {
        let outcome = try read("fatsecret-weights.json", unit: .pounds, zone: "Asia/Tokyo")
        #expect(outcome.format == .fatSecret && outcome.unit == .kilograms && !outcome.unitAssumed)
        #expect(outcome.weights.map(\.date) == [try local("2024-01-15 12:00", zone: "Asia/Tokyo"), try local("2024-01-16 12:00", zone: "Asia/Tokyo"),
                                                try local("2024-02-01 12:00", zone: "Asia/Tokyo")])
        #expect(outcome.weights.map { ($0.kilograms * 10).rounded() / 10 } == [75.5, 75.3, 75.3], "166.0 lb is 75.3 kg")
        #expect(outcome.weights.map(\.note) == ["after the holidays", nil, nil])
        #expect(outcome.invalid.map(\.line) == [3], "the day without a weight, named")
    }

    /// Health Connect's export, zipped as Android shares it and unzipped: its
    /// weight records in grams at their instants, body fat from the same
    /// instant, an impossible record named by its number, other tables unread.
    @Test(arguments: [("Health Connect.zip", ImportFormat.healthConnectZip), ("health_connect_export.db", .healthConnect)])
    func healthConnectExportDatabase(file: String, format: ImportFormat) throws {
        let outcome = try read(file, unit: .pounds)
        #expect(outcome.format == format && outcome.unit == .kilograms && !outcome.unitAssumed)
        #expect(outcome.weights.map(\.date) == [Date(timeIntervalSince1970: 1_767_339_005), Date(timeIntervalSince1970: 1_767_425_400)])
        #expect(outcome.weights.map(\.kilograms) == [81.4, 81.15])
        #expect(outcome.weights.map(\.entry.bodyFatPercent) == [22.4, nil])
        #expect(outcome.invalid.map(\.line) == [3], "600 kg")
        #expect(WeightImportFeature.isWeightDatabase(fixtureURL("apps/health_connect_export.db")))
        #expect(!WeightImportFeature.isWeightDatabase(fixtureURL("loop/loop-backup.db")), "a Loop backup stays a Loop backup")
    }

    @Test func timesAndDaysAsTheAppsWriteThem() {
        #expect(WeightFileReader.clock24("12:05 AM") == "00:05" && WeightFileReader.clock24("12:30 PM") == "12:30")
        #expect(WeightFileReader.clock24("9:25 pm") == "21:25" && WeightFileReader.clock24("01:00") == "01:00")
        #expect(WeightFileReader.clock24("13:00 PM") == nil && WeightFileReader.clock24("24:00") == nil)
        #expect(WeightFileReader.garminDay(" Nov 25, 2025") == "2025-11-25" && WeightFileReader.garminDay("Feb 30") == nil)
        #expect(WeightFileReader.monthDayYear("09/12/25") == "2025-09-12" && WeightFileReader.monthDayYear("13/01/25") == nil)
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
            #expect("\(error)".contains("holds photos/readme.txt, which is none of the exports") && "\(error)".contains("Apple Health's export.xml"), "\(error)")
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

/// The original Trend app's files.
@MainActor
@Suite struct OriginalTrendAppTests {
    func read(_ name: String) throws -> ReadOutcome {
        try WeightFileReader(displayUnit: .pounds, dates: ImportDates(localDays: LocalDays.shared(for: .gmt))).read(fixtureURL("apps/" + name))
    }

    @Test func itsRecoveryBackupOfFormatOneGivesItsWeighIns() throws {
        let outcome = try read("trend-app-backup-v1.json")
        #expect(outcome.format == .trendAppBackup && outcome.invalid.isEmpty && outcome.unit == .kilograms)
        #expect(outcome.weights.map(\.kilograms) == [70.8, 70.6])
        #expect(outcome.weights.map(\.id) == ["e621e1f8-c36c-495a-93fc-0c247a3e6e5f", "9b2a7c4e-1f3d-4e5a-8b6c-7d8e9f0a1b2c"])
        #expect(outcome.weights.map(\.note) == ["After the gym", nil], "an empty note is no note")
        #expect(outcome.weights.first?.date == Date(timeIntervalSince1970: 1_789_281_219))
    }

    @Test func itsWeightStoreExportIsATrendJSONExport() throws {
        let outcome = try read("trend-app-weight-store.json")
        #expect(outcome.format == .trendJSON && outcome.weights.map(\.kilograms) == [70.8])
    }
}

/// A file that almost fits says what it lacks.
@Suite struct NearMissImportTests {
    @Test func aCSVWithoutADateOrWeightColumnNamesWhatItHas() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let reader = WeightFileReader(displayUnit: .kilograms, dates: ImportDates(localDays: LocalDays.shared(for: .gmt)))
        let file = temp.url.appendingPathComponent("scale.csv")
        try "Day,Mass\n2026-10-01,80\n".write(to: file, atomically: true, encoding: .utf8)
        #expect(throws: ImportError.missingColumns(file.path, found: ["day", "mass"], missing: ["date"])) { try reader.read(file) }
        try "when,reading,fat\n2026-10-01,80,20\n".write(to: file, atomically: true, encoding: .utf8)
        #expect(throws: ImportError.missingColumns(file.path, found: ["when", "reading", "fat"], missing: ["weight"])) { try reader.read(file) }
        // A column named for its unit is the weight, in that unit.
        try "when,lbs,fat\n2026-10-01,176.4,20\n".write(to: file, atomically: true, encoding: .utf8)
        let read = try reader.read(file)
        #expect(read.unit == .pounds && read.weights.map { ($0.kilograms * 100).rounded() / 100 } == [80.01])
        try "just some words\n".write(to: file, atomically: true, encoding: .utf8)
        #expect(throws: ImportError.unknownFormat(file.path)) { try reader.read(file) }
    }
}
