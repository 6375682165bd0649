import Foundation
import Testing
import TestSupport

/// Issue 63, item 1: Loop's CSV export as Loop hands it over, `Loop Habits CSV 2027-02-14.zip`, imports as the
/// unzipped folder does. The archive is laid out as `HabitsCSVExporter.writeArchive` (iSoron/uhabits) writes it:
/// `Habits.csv`, `Checkmarks.csv` and `Scores.csv` at its top, a folder per habit (`001 Meditate/`) with its own
/// `Checkmarks.csv` (`Date,Value,Notes`) and `Scores.csv`; numeric days are the integers Loop keeps, × 1000
/// (`Entry.formattedValue`), so 60 push-ups is `60000`. Zipped by Python's `zipfile`, as Java's ZipOutputStream
/// would (deflated members, no folder entries).
@Suite struct LoopZipImportTests {
    let temp = TemporaryDirectory()

    func makeExport() throws -> (folder: URL, zip: URL) {
        let folder = temp.url.appendingPathComponent("Loop Habits CSV 2027-02-14")
        let files: [String: String] = [
            "Habits.csv": """
                Position,Name,Type,Question,Description,FrequencyNumerator,FrequencyDenominator,Color,Unit,Target Type,Target Value,Archived?
                001,Meditate,YES_NO,Did you meditate?,,1,1,#FF8F00,,,,false
                002,Push-ups,NUMERICAL,How many push-ups?,,1,1,#039BE5,push-ups,AT_LEAST,50.0,false

                """,
            "Checkmarks.csv": "Date,Meditate,Push-ups,\n2027-02-14,YES_MANUAL,60000,\n2027-02-13,SKIP,45000,\n2027-02-12,NO,UNKNOWN,\n2027-02-11,YES_MANUAL,0,\n",
            "Scores.csv": "Date,Meditate,Push-ups,\n2027-02-14,0.1254,0.0950,\n2027-02-13,0.0820,0.0400,\n",
            "001 Meditate/Checkmarks.csv": "Date,Value,Notes\n2027-02-14,YES_MANUAL,\n2027-02-13,SKIP,\n",
            "001 Meditate/Scores.csv": "Date,Score\n2027-02-14,0.1254\n",
            "002 Push-ups/Checkmarks.csv": "Date,Value,Notes\n2027-02-14,60000,felt strong\n",
            "002 Push-ups/Scores.csv": "Date,Score\n2027-02-14,0.0950\n",
        ]
        for (path, text) in files {
            let file = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
        let zip = temp.url.appendingPathComponent("Loop Habits CSV 2027-02-14.zip")
        let script = """
            import sys, zipfile, os
            folder, out = sys.argv[1], sys.argv[2]
            with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
                for name in ["Habits.csv", "001 Meditate/Scores.csv", "001 Meditate/Checkmarks.csv", "002 Push-ups/Scores.csv",
                             "002 Push-ups/Checkmarks.csv", "Scores.csv", "Checkmarks.csv"]:
                    archive.write(os.path.join(folder, name), name)
            """
        let zipped = try runTool("/usr/bin/python3", ["-c", script, folder.path, zip.path], mergingErrors: true)
        #expect(zipped.status == 0, "\(zipped.output)")
        return (folder, zip)
    }

    @Test func theZipImportsAsTheUnzippedFolderDoesWithAmountsAsLoopShowsThem() throws {
        defer { temp.remove() }
        let (folder, zip) = try makeExport()
        let fromFolder = try runTrend(["--data-dir", temp.url.appendingPathComponent("a").path, "--json", "-c", "import \"\(folder.path)\" preview"],
                                      clock: "2027-02-14 20:00:00")
        let fromZip = try runTrend(["--data-dir", temp.url.appendingPathComponent("b").path, "--json", "-c", "import \"\(zip.path)\" preview"],
                                   clock: "2027-02-14 20:00:00")
        #expect(fromZip.status == 0, "\(fromZip.standardError)")
        #expect(fromZip.standardOutput == fromFolder.standardOutput, "\(fromZip.standardOutput)\n\(fromFolder.standardOutput)")
        let imported = try runTrend(["--data-dir", temp.url.appendingPathComponent("b").path, "-c", "import \"\(zip.path)\"",
                                     "-c", "habit show Push-ups"], clock: "2027-02-14 20:00:00")
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.standardOutput.contains("Format: Loop Habit Tracker CSV export"), "\(imported.standardOutput)")
        let days = try runTrend(["--data-dir", temp.url.appendingPathComponent("b").path, "--json", "-c", "habits"], clock: "2027-02-14 20:00:00")
        let pushUps = (try days.documents().first?["habits"] as? [[String: Any]])?.first { $0["name"] as? String == "Push-ups" }
        // Loop keeps amounts × 1000: its 60000 is 60 push-ups, met against a target of 50.
        #expect(pushUps?["todayValue"] as? Double == 60 && pushUps?["doneToday"] as? Bool == true, "\(pushUps ?? [:])")
        // Nothing of the archive is left in the data directory.
        let scratch = temp.url.appendingPathComponent("b/.import")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: scratch.path)) ?? []).isEmpty)
    }

    @Test func aZipThatIsNoKnownExportSaysWhatItHoldsAndWhatTrendReads() throws {
        defer { temp.remove() }
        let zip = temp.url.appendingPathComponent("holiday.zip")
        try FileManager.default.createDirectory(at: temp.url, withIntermediateDirectories: true)
        let made = try runTool("/usr/bin/python3", ["-c", "import zipfile,sys; z=zipfile.ZipFile(sys.argv[1],'w'); z.writestr('photo.jpg','x'); z.writestr('notes.txt','y'); z.close()", zip.path])
        #expect(made.status == 0)
        let run = try runTrend(["--data-dir", temp.url.appendingPathComponent("d").path, "-c", "import \"\(zip.path)\""])
        #expect(run.status == 1 && run.standardError.contains("holds photo.jpg, notes.txt") && run.standardError.contains("Loop Habit Tracker's Habits.csv"),
                "\(run.standardError)")
    }
}
