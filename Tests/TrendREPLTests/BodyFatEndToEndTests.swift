import Foundation
import Testing
import TestSupport

/// Body fat from an import survives everything a weigh-in goes through:
/// `entries`, CSV and JSON exports re-imported elsewhere, a snapshot and its restore.
@Suite struct BodyFatEndToEndTests {
    func fat(_ directory: [String]) throws -> [Double?] {
        let entries = try #require(try runTrend(directory + ["--json", "-c", "entries all"]).documents().first?["entries"] as? [[String: Any]])
        return entries.sorted { ($0["date"] as? String ?? "") < ($1["date"] as? String ?? "") }.map { $0["bodyFatPercent"] as? Double }
    }

    @Test func bodyFatIsShownExportedAndBackedUp() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let data = ["--data-dir", temp.url.appendingPathComponent("data").path]
        #expect(try runTrend(data + ["-c", "import \(fixtureURL("apps/renpho-legacy.csv").path)"]).status == 0)
        #expect(try fat(data) == [23.2, 23.2])
        #expect(try runTrend(data + ["-c", "entries all"]).standardOutput.contains("23.2% fat"))

        for name in ["out.csv", "out.json"] {
            let file = temp.url.appendingPathComponent(name)
            #expect(try runTrend(data + ["-c", "export \(file.path)"]).status == 0)
            let elsewhere = ["--data-dir", temp.url.appendingPathComponent("from-\(name)").path]
            #expect(try runTrend(elsewhere + ["-c", "import \(file.path)"], environment: ["TZ": "Asia/Tokyo"]).status == 0)
            #expect(try fat(elsewhere) == [23.2, 23.2], "\(name)")
        }

        #expect(try runTrend(data + ["-c", "backup now", "-c", "delete-all-data"], input: "y\n").status == 0)
        #expect(try fat(data).isEmpty)
        #expect(try runTrend(data + ["-c", "restore latest"], input: "y\n").status == 0)
        #expect(try fat(data) == [23.2, 23.2])
    }
}
