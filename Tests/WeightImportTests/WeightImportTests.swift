import Foundation
import Testing
import TestSupport
@testable import WeightImport
@testable import WeightLog

@MainActor
@Suite struct WeightImportTests: ImportAndExportSuite {
    let temp = TemporaryDirectory()

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
