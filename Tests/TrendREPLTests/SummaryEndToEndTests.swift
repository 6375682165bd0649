import Foundation
import Testing
import TestSupport

/// Issue 28, item 7: summary's columns never run together, in any unit (in stones the lowest day read
/// `14 st 6.2 lb, Wed 11 Mar14 st 6.2 lb, Fri 6 Mar`).
@Suite struct SummaryEndToEndTests {
    @Test(arguments: ["kg", "lb", "st"])
    func summaryColumnsStayApartInEveryUnit(unit: String) throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let directory = ["--data-dir", temp.url.path]
        let clock = "2026-03-11 08:00:00"
        #expect(try runTrend(directory + ["-c", "set unit \(unit)", "-c", "weigh 92.1 kg 2026-03-06", "-c", "weigh 91.9 kg 2026-03-10",
                                         "-c", "weigh 92.0 kg"], clock: clock).status == 0)
        let summary = try runTrend(directory + ["-c", "summary"], clock: clock)
        let rows = summary.lines.filter { $0.hasPrefix("  lowest") || $0.hasPrefix("  highest") }
        #expect(rows.count == 2, "\(summary.standardOutput)")
        for row in rows {
            // Two cells after the label, each a weight and a day, with at least two spaces between them.
            let cells = row.dropFirst(15).split(separator: "  ", omittingEmptySubsequences: true).map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(cells.count == 2, "\(row)")
            #expect(cells.allSatisfy { $0.contains(", ") || $0 == "—" }, "\(row)")
        }
    }
}
