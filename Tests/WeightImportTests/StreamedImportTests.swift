import Foundation
import Testing
import TestSupport
@testable import WeightImport
@testable import WeightLog

/// An import writes a large file's rows while it reads them (batches of
/// `WeightBatches.size`): it must store exactly the rows its preview calls
/// new, with the same counts, and a file that fails after some batches were
/// written must leave nothing behind.
@MainActor
@Suite struct StreamedImportTests {
    let temp = TemporaryDirectory()

    /// 25,000 rows over several batches: some repeat an earlier row, some a stored weigh-in, and the
    /// last tenth runs backwards, so the sorter's set is built halfway through a batch.
    func rows() -> [String] {
        var lines: [String] = []
        for index in 0..<22_500 {
            let minute = index % 5 == 4 ? index - 1 : index  // every fifth row repeats the moment before it
            lines.append(String(format: "%@,%.1f", stamp(minute), 70 + Double(minute % 40) / 10))
        }
        for index in (22_500..<25_000).reversed() { lines.append(String(format: "%@,%.1f", stamp(index), 70 + Double(index % 40) / 10)) }
        return lines
    }

    func stamp(_ minute: Int) -> String {
        let date = Date(timeIntervalSince1970: 1_600_000_000 + Double(minute) * 3_600)
        return ISO8601DateFormatter().string(from: date)
    }

    @Test func storesExactlyWhatThePreviewCallsNew() async throws {
        defer { temp.remove() }
        let url = temp.url.appendingPathComponent("many.csv")
        try Data((["date,weight"] + rows()).joined(separator: "\n").utf8).write(to: url)
        let graph = makeTestApp(clock: TestClock(date("2026-11-29 09:00")))
        // Already stored: the moments of rows 10 and 20,000.
        try graph.store.write { connection in
            for minute in [10, 20_000] {
                try connection.run("INSERT INTO weight_entries(id, instant, kilograms) VALUES (?, ?, ?)",
                                   [.text("stored-\(minute)"), .double(1_600_000_000 + Double(minute) * 3_600), .double(70 + Double(minute % 40) / 10)])
            }
        }
        let feature = graph.app.weightImportFeature
        let preview = try await feature.preview(url)
        #expect(preview.newCount == preview.newEntries.count)
        #expect(preview.duplicates == 4_500 + 2, "every fifth row of the first 22,500 and the two stored")
        let result = try await feature.importFile(url)
        #expect(result.imported == preview.newCount)
        #expect(result.preview.newCount == preview.newCount && result.preview.duplicates == preview.duplicates)
        #expect(result.preview.first == preview.first && result.preview.last == preview.last)
        let stored = try graph.store.read { try $0.query("SELECT instant, kilograms FROM weight_entries") { "\($0.double(0)) \($0.double(1))" } }
        let expected = preview.newEntries.map { "\($0.date.timeIntervalSince1970) \($0.kilograms)" } + ["1600036000.0 71.0", "1672000000.0 70.0"]
        #expect(Set(stored) == Set(expected) && stored.count == expected.count)
        #expect(try await feature.importFile(url).imported == 0, "a second import finds every row")
    }

    @Test func aFileRefusedAtItsEndAfterSomeBatchesLeavesNothing() async throws {
        defer { temp.remove() }
        // A family's EufyLife file of 30,000 rows, the second person only in the last: refused once the
        // reader has seen every row, after the first batches were written.
        var lines = ["Time,Family Members,WEIGHT (kg)"]
        lines += (0..<30_000).map { "\(stamp($0).replacingOccurrences(of: "T", with: " ").dropLast()),\($0 == 29_999 ? "Sam" : "Alex"),\(70 + $0 % 40)" }
        let url = temp.url.appendingPathComponent("family.csv")
        try Data(lines.joined(separator: "\n").utf8).write(to: url)
        let graph = makeTestApp(clock: TestClock(date("2026-11-29 09:00")))
        await #expect(throws: ImportError.severalPeople(url.path, members: ["Alex", "Sam"])) {
            _ = try await graph.app.weightImportFeature.importFile(url)
        }
        #expect(try graph.store.read { try $0.scalarInt("SELECT count(*) FROM weight_entries") } == 0)
        #expect(try graph.store.journalChanges(limit: 5).isEmpty)
        #expect(try await graph.app.weightImportFeature.importFile(url, member: "alex").imported == 29_999)
    }
}
