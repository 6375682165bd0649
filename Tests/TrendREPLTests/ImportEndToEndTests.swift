import Foundation
import Testing
import TestSupport

/// Import and export through the built binary: the preview and the import
/// in JSON, versions named, and a family's file one person at a time.
@Suite struct ImportEndToEndTests {
    /// Issue 18: the preview names the format's version where the file shows it, and a file of no weigh-ins says so.
    @Test func thePreviewNamesTheVersionAndAFileWithoutWeighInsSaysSo() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let empty = temp.url.appendingPathComponent("empty.csv")
        try Data("date,weight\n".utf8).write(to: empty)
        let libra = temp.url.appendingPathComponent("libra.csv")
        try Data("#Version:6\n#Units:kg\n#date;weight;weight trend;body fat;body fat trend;log\n2026-01-01T07:00:00.000Z;80.2;80.2;;;\n".utf8)
            .write(to: libra)
        let run = try runTrend(["--data-dir", temp.url.appendingPathComponent("data").path, "-c", "import \(empty.path) preview",
                                "-c", "import \(libra.path) preview", "-c", "import \(fixtureURL("snapshot-v2.json").path) preview"])
        #expect(run.status == 0)
        #expect(run.standardOutput.contains("The file holds no weight records: nothing to import."), "\(run.standardOutput)")
        #expect(run.standardOutput.contains("Format: Libra CSV, version 6"))
        #expect(run.standardOutput.contains("Format: Trend recovery snapshot, format 2"))
    }

    @Test func importPreviewThenImportReportsInJSON() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let csv = temp.url.appendingPathComponent("w.csv")
        try Data("date,weight,unit\n2026-01-01,80,kg\n2026-01-02,abc,kg\n2026-13-01,80,kg\n".utf8).write(to: csv)
        let directory = ["--data-dir", temp.url.appendingPathComponent("data").path, "--json"]
        let run = try runTrend(directory + ["-c", "import \(csv.path) preview", "-c", "import \(csv.path)",
                                            "-c", "import \(csv.path)", "-c", "export \(temp.url.path)/out.json"])
        #expect(run.status == 0)
        let documents = try run.documents()
        #expect(documents.count == 4)
        #expect(documents[0]["format"] as? String == "csv")
        #expect(documents[0]["new"] as? Int == 1)
        #expect(documents[0]["imported"] is NSNull)
        let invalid = try #require(documents[0]["invalid"] as? [[String: Any]])
        #expect(invalid.map { $0["line"] as? Int } == [3, 4])
        #expect(documents[1]["imported"] as? Int == 1)
        #expect(documents[2]["duplicates"] as? Int == 1 && documents[2]["imported"] as? Int == 0)
        #expect(documents[3]["count"] as? Int == 1)
    }

    /// A family's EufyLife file: refused until a member is named; `member NAME` takes the rest of the line.
    @Test func aFamilyFileIsImportedOnePersonAtATime() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let file = fixtureURL("apps/eufylife-family.csv").path
        let directory = ["--data-dir", temp.url.appendingPathComponent("data").path]
        let refused = try runTrend(directory + ["-c", "import '\(file)'"])
        #expect(refused.status == 1 && refused.standardError.contains("2 people ('Alex', 'Sam Lee')"), "\(refused.standardError)")
        let run = try runTrend(directory + ["--json", "-c", "import '\(file)' member sam lee preview", "-c", "import '\(file)' member Sam Lee"])
        let documents = try run.documents()
        #expect(run.status == 0 && documents.count == 2)
        #expect(documents.map { $0["member"] as? String } == ["Sam Lee", "Sam Lee"])
        #expect(documents.map { $0["imported"] as? Int } == [nil, 1])
        let text = try runTrend(directory + ["-c", "import '\(file)' member Alex"]).standardOutput
        #expect(text.contains("Member: Alex") && text.contains("Imported 2 weigh-ins."), "\(text)")
    }
}
