import Foundation
import Testing
import TestSupport
import Vocabulary
@testable import TrendREPL

/// Issue 31, items 2 and 4: what the tape measures and body fat add to `summary`, the exports that carry
/// them out and back, and a measure's own SVG chart drawn by a real renderer.
@MainActor
@Suite struct BodyChangesScreenTests {
    /// Two weeks of weigh-ins with body fat and a waist taken on some days, in a graph of its own.
    func measuredWeeks(in directory: URL) async -> (TestGraph, ReplSession) {
        let graph = makeTestApp(clock: TestClock(date("2026-06-14 20:00")), calendar: calendar(zone: "UTC"), directory: directory)
        let session = ReplSession(app: graph.app, json: false, style: .plain, isInteractive: false)
        for day in 1...14 {
            let stamp = "2026-06-\(String(format: "%02d", day)) 07:00"
            _ = await session.execute("weigh \(82 - Double(day) * 0.1) fat \(30 - Double(day) * 0.2)% \(stamp)")
            if day % 3 == 0 { _ = await session.execute("measure waist \(90 - Double(day) * 0.25) \(stamp)") }
        }
        _ = await session.execute("measure neck 38.5 2026-06-13 21:00 note après le dîner")
        return (graph, session)
    }

    @Test func summaryShowsEachMeasuresChangeAgainstThePeriodBefore() async throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let (graph, session) = await measuredWeeks(in: temp.url)
        let shown = await session.execute("summary week")
        #expect(shown.succeeded, "\(shown.text)")
        for row in ["body fat", "lean mass", "waist", "neck"] {
            #expect(shown.text.split(separator: "\n").contains { $0.hasPrefix("  \(row) ") }, "\(row) in \(shown.text)")
        }
        // Its figures are the measures' own trends, by the weight's rule of a period's change.
        let json = ReplSession(app: graph.app, json: true, style: .plain, isInteractive: false)
        let document = try #require(try JSONSerialization.jsonObject(with: Data((await json.execute("summary week")).text.utf8)) as? [String: Any])
        let rows = try #require(document["bodyChanges"] as? [[String: Any]])
        let waist = try #require(rows.first { $0["name"] as? String == "waist" })
        let trend = try #require(try await graph.app.measurementsFeature.trend(of: .waist))
        let week = (try #require(document["period"] as? [String: String]))
        #expect(week["start"] == "2026-06-08" && week["end"] == "2026-06-14")
        let start = trend.series.days.firstIndex { $0 >= DayNumber.from(year: 2026, month: 6, day: 8) } ?? 0
        #expect(abs((waist["change"] as? Double ?? .nan) - (trend.trendCentimetres - trend.series.smoothedKilograms[start - 1])) < 1e-9)
        #expect(waist["quantity"] as? String == "centimetres")
        #expect(rows.first { $0["name"] as? String == "body fat" }?["previousChange"] is Double)
    }

    @Test func exportsCarryTheTapeMeasuresOutAndBackIn() async throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let (graph, session) = await measuredWeeks(in: temp.url.appendingPathComponent("a"))
        let stored = try await graph.app.measurementsFeature.measurements(in: DayRange(firstDay: nil, lastDay: nil, title: "all"))
        for name in ["back.csv", "back.json"] {
            let file = temp.url.appendingPathComponent(name)
            let written = await session.execute("export \(file.path)")
            #expect(written.text.contains("14 weigh-ins") && written.text.contains("and 5 tape measures"), "\(written.text)")
            let target = makeTestApp(clock: TestClock(date("2026-06-14 20:00")), calendar: calendar(zone: "UTC"),
                                     directory: temp.url.appendingPathComponent("b-\(name)"))
            let other = ReplSession(app: target.app, json: false, style: .plain, isInteractive: false)
            let imported = await other.execute("import \(file.path)")
            #expect(imported.text.contains("Imported 14 weigh-ins and 5 new tape measures."), "\(name): \(imported.text)")
            let back = try await target.app.measurementsFeature.measurements(in: DayRange(firstDay: nil, lastDay: nil, title: "all"))
            #expect(back.map(\.kind) == stored.map(\.kind) && back.map(\.date) == stored.map(\.date), "\(name)")
            #expect(back.map(\.centimetres) == stored.map(\.centimetres) && back.map(\.note) == stored.map(\.note), "\(name)")
            // A second import adds nothing.
            let again = await other.execute("import \(file.path)")
            #expect(!again.text.contains("new tape measure"), "\(name): \(again.text)")
            #expect(try await target.app.measurementsFeature.measurements(in: DayRange(firstDay: nil, lastDay: nil, title: "all")).count == 5)
        }
        let csv = try String(contentsOf: temp.url.appendingPathComponent("back.csv"), encoding: .utf8).split(separator: "\r\n")
        #expect(csv.first == "id,date,weight,unit,note,body_fat,typed_unit,waist_cm,neck_cm", "a column per measure that holds data")
        #expect(csv.contains { $0.hasPrefix(",2026-06-13T21:00:00Z,,,après le dîner,,,,38.5") }, "a measurement apart from a weigh-in has a row of its own")
    }

    @Test func aMeasureHasAnSVGChartOfItsOwn() async throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let (_, session) = await measuredWeeks(in: temp.url.appendingPathComponent("data"))
        let svg = temp.url.appendingPathComponent("waist.svg")
        let exported = await session.execute("export \(svg.path) 1m waist")
        #expect(exported.succeeded && exported.text.contains("(4 days)"), "\(exported.text)")
        let text = try String(contentsOf: svg, encoding: .utf8)
        #expect(text.contains(">Waist, 1 month (2026-06-03 – 2026-06-14)</text>") && text.contains(">daily waist</text>") && text.contains(">cm</text>"))
        #expect(text.contains("<polyline") && !text.contains("projection"))
        let png = temp.url.appendingPathComponent("waist.png")
        #expect(try runTool("/usr/bin/env", ["rsvg-convert", svg.path, "-o", png.path], mergingErrors: true).status == 0)
        let empty = await session.execute("export \(svg.path) 1m hips")
        let emptyText = try String(contentsOf: svg, encoding: .utf8)
        #expect(empty.succeeded && emptyText.contains("No hips in this range."))
    }
}
