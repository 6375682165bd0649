import Foundation
import Testing
import TestSupport

/// Issue 32, item 5: a damaged database is never written. Before, `backup now`
/// on a `trend.sqlite` with damaged pages said "it was left untouched" yet
/// switched its header to WAL and wrote its failure into `meta`.
@Suite struct DamagedDatabaseEndToEndTests {
    @Test func noCommandWritesToADatabaseWithDamagedPages() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        var csv = "date,weight,note\n"
        for index in 0..<20_000 { csv += "\(1_500_000_000 + index * 3_600),\(70 + index % 30),note number \(index) with some text\n" }
        let file = temp.url.appendingPathComponent("w.csv")
        try csv.write(to: file, atomically: true, encoding: .utf8)
        let data = temp.url.appendingPathComponent("data")
        let directory = ["--data-dir", data.path]
        #expect(try runTrend(directory + ["-c", "import '\(file.path)'"]).status == 0)
        try FileManager.default.removeItem(at: data.appendingPathComponent("Backups"))
        // Three runs of garbage in the rows' pages; the header and the schema stay readable.
        let database = data.appendingPathComponent("trend.sqlite")
        var bytes = try Data(contentsOf: database)
        for offset in [bytes.count / 3, bytes.count / 2, bytes.count / 2 + 40_000] {
            bytes.replaceSubrange(offset..<(offset + 3_000), with: Data(repeating: 0xA5, count: 3_000))
        }
        try bytes.write(to: database)
        for command in ["backup now", "entries all", "weigh 80", "export '\(temp.url.appendingPathComponent("out.csv").path)'"] {
            let run = try runTrend(directory + ["-c", command])
            #expect(run.status == 1, "\(command): \(run.standardOutput)")
            #expect(run.standardError.contains("damaged"), "\(command): \(run.standardError)")
            #expect(try Data(contentsOf: database) == bytes, "\(command) wrote to the damaged database")
        }
    }
}
