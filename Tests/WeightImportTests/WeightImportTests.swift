import Foundation
import Settings
import Storage
import Testing
import TestSupport
@testable import WeightImport
@testable import WeightLog
import Vocabulary

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

    /// A one-shot `trend -c "import …"` never shows the log: the import does
    /// not read it afterwards (at a million rows that read cost 0.15 s); its
    /// first use reads the imported rows.
    @Test func anImportReadsNoLogThatWasNeverRead() async throws {
        defer { temp.remove() }
        let url = try file("w.csv", "date,weight\n2026-11-01 07:00,80\n2026-11-02 07:00,79.5\n")
        let g = try await graph()
        #expect(try await g.app.weightImportFeature.importFile(url).imported == 2)
        #expect(g.app.weightEntryFeature.checkIn().latestKilograms == nil, "nothing was read")
        try await g.app.weightEntryFeature.load()
        #expect(g.app.weightEntryFeature.checkIn().latestKilograms == 79.5)
        #expect(try await g.app.weightEntryFeature.allEntries().count == 2)
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
        #expect(preview.duplicates == 1 && preview.skipped == 0, "the placeholder is the file's copy of a weigh-in, not a row without one")
        let result = try await g.app.weightImportFeature.importFile(url)
        #expect(result.imported == 2 && result.preview.duplicates == 1 && result.preview.skipped == 0, "the import says what the preview said")
    }

    /// Issue 32, item 8: a note longer than a weigh-in keeps is cut, and the preview says where; the weigh-in stands.
    @Test func aNoteLongerThanAWeighInKeepsIsShortenedAndSaid() async throws {
        defer { temp.remove() }
        let long = String(repeating: "é", count: 600)
        let url = try file("long-note.csv", """
        date,weight,unit,note
        2026-01-02 07:00,80.5,kg,\(long)
        2026-01-03 07:00,80.4,kg,short
        """)
        let g = try await graph(zone: "UTC")
        let preview = try await g.app.weightImportFeature.preview(url)
        #expect(preview.shortenedNotes == [2] && preview.invalid.isEmpty && preview.newCount == 2)
        #expect(preview.newEntries[0].note?.count == WeightNote.maximumLength)
        let result = try await g.app.weightImportFeature.importFile(url)
        #expect(result.imported == 2 && result.preview.shortenedNotes == [2], "the import says what the preview said")
    }

    /// Issue 32, item 13: Libra writes the log, its last column, as it was typed: a `;` in it is part of the log.
    @Test func aLibraLogKeepsItsSemicolons() async throws {
        defer { temp.remove() }
        let url = try file("libra-log.csv", """
        #Version:6
        #Units:kg

        #date;weight;weight trend;body fat;body fat trend;log
        2013-01-01T06:33:12.000Z;80.5;80.5;;;ran 5 km; then pizza; no regrets
        2013-01-02T06:30:00.000Z;80.4;80.4;;;plain
        """)
        let g = try await graph(zone: "UTC")
        let preview = try await g.app.weightImportFeature.preview(url)
        #expect(preview.invalid.isEmpty)
        #expect(preview.newEntries.map(\.note) == ["ran 5 km; then pizza; no regrets", "plain"])
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

    /// Issue 32, item 10: an export.xml cut short, at a record boundary or inside a record, is refused, naming
    /// where it ends, and nothing is imported; before, one cut at a boundary imported as complete.
    @Test func anAppleHealthExportCutShortIsRefused() async throws {
        defer { temp.remove() }
        let whole = """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_US">
         <Record type="HKQuantityTypeIdentifierBodyMass" unit="kg" value="82.0" startDate="2026-06-02 07:05:00 -0400"/>
         <Record type="HKQuantityTypeIdentifierBodyMass" unit="kg" value="81.8" startDate="2026-06-03 07:05:00 -0400"/>
        </HealthData>

        """
        let g = try await graph()
        #expect(try await g.app.weightImportFeature.preview(try file("export.xml", whole)).newCount == 2)
        let atBoundary = try file("cut.xml", String(whole.prefix(upTo: whole.range(of: "</HealthData>")!.lowerBound)))
        await #expect(throws: ImportError.unreadable(atBoundary.path, reason: "it ends at line 5 before <HealthData> closes: the export was cut short, "
                                                      + "so nothing was imported; export it again")) {
            _ = try await g.app.weightImportFeature.importFile(atBoundary)
        }
        let inside = try file("cut-inside.xml", String(whole.prefix(upTo: whole.range(of: "value=\"81.8\"")!.lowerBound)))
        await #expect(throws: ImportError.unreadable(inside.path, reason: "it ends at line 4 before <HealthData> closes: the export was cut short, "
                                                      + "so nothing was imported; export it again")) {
            _ = try await g.app.weightImportFeature.preview(inside)
        }
        // Malformed inside (a tag broken on line 4) is refused at the line libxml2's parser names, nothing imported.
        let broken = try file("broken.xml", whole.replacingOccurrences(of: "unit=\"kg\" value=\"81.8\"", with: "unit=\"kg\" value=81.8"))
        do {
            _ = try await g.app.weightImportFeature.importFile(broken)
            Issue.record("a malformed export was imported")
        } catch let ImportError.unreadable(_, reason) {
            #expect(reason.hasPrefix("the XML parser stopped at line 4: ") && reason.hasSuffix("the export is damaged, so nothing was imported; export it again"), "\(reason)")
        }
        try await g.app.weightEntryFeature.load()
        #expect(g.app.weightEntryFeature.recentTrend(days: 1) == [nil], "nothing was written")
    }

    /// Issue 32, item 9: a zip whose member inflates far beyond any export (100 MB of step records in a few
    /// hundred KB, well-formed XML the parser reads on) is refused once it passes its cap; nothing is imported.
    /// One of zeros ahead of `<?xml` (the attack's bomb) stops at libxml2's first error, at once.
    @Test func aZipBombIsRefusedAtItsCap() async throws {
        defer { temp.remove() }
        let bomb = temp.url.appendingPathComponent("export.zip")
        let script = """
            import sys, zipfile
            with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:
                with z.open('apple_health_export/export.xml', 'w') as f:
                    f.write(b'<?xml version="1.0"?>\\n<HealthData locale="en">\\n')
                    record = b'<Record type="HKQuantityTypeIdentifierStepCount" unit="count" value="1"/>\\n'
                    for _ in range(100): f.write(record * ((1 << 20) // len(record)))
            """
        #expect(try runTool("/usr/bin/env", ["python3", "-c", script, bomb.path], mergingErrors: true).status == 0)
        let g = try await graph()
        do {
            _ = try await g.app.weightImportFeature.importFile(bomb)
            Issue.record("a zip bomb was read as an export")
        } catch let ImportError.unreadable(_, reason) {
            // It stops at the cap (at least 64 MB, else 200 times the archive), within the chunk that passed it.
            let archive = try #require(try FileManager.default.attributesOfItem(atPath: bomb.path)[.size] as? Int)
            let cap = max(64 << 20, 200 * archive)
            let stopped = reason.firstRange(of: /stopped after (\d+) bytes/).flatMap { Int(reason[$0].split(separator: " ")[2]) }
            #expect(reason.contains("expands to more than 200 times the archive's size"), "\(reason)")
            #expect(stopped.map { $0 <= cap && $0 > cap - (1 << 16) } == true, "\(reason), cap \(cap)")
        }
        let zeros = temp.url.appendingPathComponent("zeros.zip")
        let zeroScript = """
            import sys, zipfile
            with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_BZIP2) as z:
                with z.open('apple_health_export/export.xml', 'w') as f:
                    for _ in range(200): f.write(bytes(1 << 20))
                    f.write(b'<?xml version="1.0"?><HealthData locale="en"></HealthData>')
            """
        #expect(try runTool("/usr/bin/env", ["python3", "-c", zeroScript, zeros.path], mergingErrors: true).status == 0)
        // The scanner before read all 200 MB, found the root at the end and took it for an export.
        await #expect(throws: ImportError.notAppleHealth("\(zeros.path):apple_health_export/export.xml", root: "none")) {
            _ = try await g.app.weightImportFeature.importFile(zeros)
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
