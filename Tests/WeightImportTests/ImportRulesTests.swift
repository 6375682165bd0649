import Foundation
import Testing
import TestSupport
@testable import WeightImport
@testable import WeightLog

/// What an import refuses whatever the file's format (issue 32, item 10): rows dated after the clock, and
/// files of a newer `formatVersion` than this Trend reads.
@MainActor
@Suite struct ImportRulesTests: ImportAndExportSuite {
    let temp = TemporaryDirectory()

    func graph() async throws -> TestGraph {
        makeTestApp(clock: TestClock(date("2026-11-29 09:00")), calendar: calendar(zone: "UTC"))
    }

    /// Issue 32, item 10: one rule for the future. A row dated more than five minutes after the clock is
    /// refused and listed, as a typed weigh-in is; before, rows up to 2199 came in.
    @Test func rowsDatedAfterTheClockAreRefusedAndListed() async throws {
        defer { temp.remove() }
        let url = try file("w.csv", "date,weight\n2026-11-29 08:00,80\n2026-11-29 09:04,80.2\n2026-11-29 09:06,80.1\n2199-01-01 07:00,79\n")
        let g = try await graph()
        let result = try await g.app.weightImportFeature.importFile(url)
        #expect(result.imported == 2, "now, and four minutes ahead (the clock's skew)")
        #expect(result.preview.invalid.map(\.line) == [4, 5])
        #expect(result.preview.invalid.allSatisfy { $0.reason.contains("in the future") }, "\(result.preview.invalid)")
    }

    /// Issue 32, item 10 (the original app's own test): a snapshot or export of a newer `formatVersion` is
    /// refused, naming the version; before, its rows were imported.
    @Test(arguments: [
        #"{"content": {"weights": []}, "formatVersion": 999}"#,
        #"{"formatVersion": 2, "weight": {"entries": [{"date": "2026-11-01T07:00:00Z", "kilograms": 80}]}}"#,
        #"{"entries": [{"date": "2026-11-01T07:00:00Z", "kilograms": 80}], "formatVersion": 999}"#,
    ])
    func aFileOfANewerFormatIsRefusedNamingItsVersion(text: String) async throws {
        defer { temp.remove() }
        let url = try file("new.json", text)
        let g = try await graph()
        await #expect(throws: ImportError.self) { _ = try await g.app.weightImportFeature.importFile(url) }
        do {
            _ = try await g.app.weightImportFeature.preview(url)
            Issue.record("the preview read it")
        } catch let error as ImportError {
            guard case let .newerFormat(_, version, _) = error else { Issue.record("\(error)"); return }
            #expect([2, 999].contains(version))
            #expect(error.description.contains("newer Trend"))
        }
        #expect(try await g.app.weightEntryFeature.allEntries().isEmpty)
    }
}
