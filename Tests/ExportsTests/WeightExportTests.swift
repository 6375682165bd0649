import Foundation
import Testing
import TestSupport
@testable import Exports
@testable import WeightLog
import Vocabulary

/// Trend's own exports (`ExportsFeature`), written and read back by the import (the original app's importer too).
@MainActor
@Suite struct WeightExportTests: ImportAndExportSuite {
    let temp = TemporaryDirectory()

    @Test func exportThenImportIntoAnEmptyDirectoryGivesBackTheSameEntries() async throws {
        defer { temp.remove() }
        let g = try await graph(unit: "lb")
        try await g.app.weightEntryFeature.record(kilograms: 80.123456789, when: .dayTime(year: 2026, month: 11, day: 1, hour: 7, minute: 3),
                                                  note: "with, comma and \"quotes\"")
        try await g.app.weightEntryFeature.record(kilograms: 79.5)
        // Each unit a CSV is written in (a stone user's is pounds), and JSON; read back under another time zone.
        for (name, unit) in [("out.csv", WeightUnit.pounds), ("out-kg.csv", .kilograms), ("out-st.csv", WeightUnit.stones.fileUnit),
                             ("out.json", nil)] {
            let url = temp.url.appendingPathComponent(name)
            if let unit { _ = try await g.app.exportsFeature.exportCSV(to: url, unit: unit) }
            else { _ = try await g.app.exportsFeature.exportJSON(to: url) }
            let fresh = try await graph(zone: "Pacific/Chatham", unit: "st")
            let result = try await fresh.app.weightImportFeature.importFile(url)
            #expect(result.imported == 2, "\(name): \(result.preview.invalid)")
            let back = (try await fresh.app.weightEntryFeature.allEntries())
            let original = (try await g.app.weightEntryFeature.allEntries())
            #expect(back.map(\.id) == original.map(\.id), "\(name)")
            #expect(back.map(\.date) == original.map(\.date), "\(name)")
            #expect(back.map(\.note) == original.map(\.note), "\(name)")
            for (a, b) in zip(back, original) { #expect(abs(a.kilograms - b.kilograms) < 1e-9, "\(name)") }
        }
    }

    /// The original Trend app's `WeightStore` and `WeightEntry`, as its
    /// importer decodes a JSON export (3DaysOfSwift/Trend-iOS-App-Swift-Concurrency:
    /// `Protocols/WeightRepository.swift`, `Data Types/WeightEntry.swift`,
    /// `WeightImportFileReader.decode`: a file with `formatVersion` is taken
    /// for its recovery backup, any other object for a `WeightStore`).
    struct OriginalWeightStore: Decodable {
        struct Entry: Decodable {
            let id: UUID
            var date: Date
            var kilograms: Double
            var note: String
        }
        var entries: [Entry]
        var goalKilograms: Double?
    }

    /// Issue 18: Trend's JSON export is what the original app reads — with
    /// the goal, a note always a string, a UUID for every id — and Trend reads
    /// its own extras back (an imported id, body fat).
    @Test func theJSONExportIsReadByTheOriginalAppsImporterAndRoundTrips() async throws {
        defer { temp.remove() }
        let g = try await graph(unit: "st")
        let fitbit = try file("weight-2025-09-12.json", """
            [{"logId": 1757668406000, "weight": 198.1, "fat": 28.7, "date": "09/12/25", "time": "09:13:26", "source": "Aria"}]
            """)
        _ = try await g.app.weightImportFeature.importFile(fitbit)
        try await g.app.weightEntryFeature.record(kilograms: 80.5, note: "after the run")
        try await g.app.progressFeature.setGoal(kilograms: 75)
        let url = temp.url.appendingPathComponent("export.json")
        #expect(try await g.app.exportsFeature.exportJSON(to: url).entries == 2)

        let data = try Data(contentsOf: url)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["formatVersion"] == nil, "the original app would take it for its own recovery backup")
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let store = try decoder.decode(OriginalWeightStore.self, from: data)
        #expect(store.goalKilograms == 75)
        #expect(store.entries.map(\.note) == ["", "after the run"])
        let original = try await g.app.weightEntryFeature.allEntries()
        #expect(store.entries.map(\.date) == original.map(\.date))
        #expect(store.entries[1].id.uuidString.lowercased() == original[1].id)

        let fresh = try await graph()
        #expect(try await fresh.app.weightImportFeature.importFile(url).imported == 2)
        let back = try await fresh.app.weightEntryFeature.allEntries()
        #expect(back.map(\.id) == original.map(\.id), "fitbit-… comes back as itself")
        #expect(back.map(\.bodyFatPercent) == [28.7, nil])
        #expect(back.map(\.note) == [nil, "after the run"])
    }

    /// The export's quick UUID check says what Foundation's parser says.
    @Test func theUUIDCheckAgreesWithFoundation() {
        var samples = (0..<200).map { _ in UUID().uuidString } + (0..<200).map { _ in UUID().uuidString.lowercased() }
        samples += ["", "fitbit-1757668406000", "7e403594-f5f6-4725-8bbd-1e8aeb8920a", "7e403594-f5f6-4725-8bbd-1e8aeb8920aff",
                    "7e403594f5f6-4725-8bbd-1e8aeb8920af-", "7e403594-f5f6-4725-8bbd-1e8aeb8920ag", "zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz"]
        for sample in samples {
            #expect(UUIDText.isUUID(sample) == (UUID(uuidString: sample) != nil), "\(sample)")
        }
        #expect(WeightExport.uuid(for: "fitbit-1") == WeightExport.uuid(for: "fitbit-1"))
        #expect(UUID(uuidString: WeightExport.uuid(for: "fitbit-1")) != nil && WeightExport.uuid(for: "fitbit-1") != WeightExport.uuid(for: "fitbit-2"))
    }

    /// The original app's CSV reader takes kg or lb in a `unit` column: a stone user's CSV is written in pounds.
    @Test func aStoneUsersCSVIsWrittenInPounds() async throws {
        defer { temp.remove() }
        let g = try await graph(unit: "st")
        try await g.app.weightEntryFeature.record(kilograms: 80)
        #expect(g.app.exportsFeature.displayUnit.fileUnit == .pounds)
        let url = temp.url.appendingPathComponent("out.csv")
        _ = try await g.app.exportsFeature.exportCSV(to: url, unit: g.app.exportsFeature.displayUnit.fileUnit)
        let rows = try String(contentsOf: url, encoding: .utf8).split(separator: "\r\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        #expect(rows[0].contains("date") && rows[0].contains("weight") && rows[0].contains("unit"))
        #expect(rows[1][3] == "lb")
    }
}

/// Issue 28, item 6: a weigh-in keeps the unit it was typed in, so an export writes `202.8,lb`, not `91.98853263600002,kg`.
@MainActor
@Suite struct TypedUnitExportTests {
    @Test func aWeightTypedInPoundsExportsAsTyped() async throws {
        let temporary = TemporaryDirectory()
        defer { temporary.remove() }
        let graph = makeTestApp(clock: TestClock(date("2026-05-20 09:00")))
        let feature = graph.app.weightEntryFeature
        try await feature.record(kilograms: WeightUnit.pounds.kilograms(from: 202.8), typedUnit: .pounds)
        try await feature.record(kilograms: WeightUnit.pounds.kilograms(from: 174), when: .yesterday, typedUnit: .stones)
        try await feature.record(kilograms: 91.5, when: .relative(.daysAgo(2), hour: nil, minute: nil))
        let file = temporary.url.appendingPathComponent("w.csv")
        _ = try await graph.app.exportsFeature.exportCSV(to: file, unit: .kilograms)
        let rows = try String(contentsOf: file, encoding: .utf8).split(separator: "\r\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        #expect(rows.map { "\($0[2]),\($0[3])" } == ["91.5,kg", "174.0,lb", "202.8,lb"])
        #expect(rows.map { String($0[6]) } == ["", "st", "lb"])
        let forced = temporary.url.appendingPathComponent("kg.csv")
        _ = try await graph.app.exportsFeature.exportCSV(to: forced, unit: .kilograms, keepsTypedUnits: false)
        let kilograms = try String(contentsOf: forced, encoding: .utf8).split(separator: "\r\n").dropFirst().map { $0.split(separator: ",")[3] }
        #expect(kilograms == ["kg", "kg", "kg"])
        // The file comes back with the same weights and units.
        let target = makeTestApp(clock: TestClock(date("2026-05-20 09:00")))
        _ = try await target.app.weightImportFeature.importFile(file)
        let back = try await target.app.weightEntryFeature.allEntries()
        #expect(back.map(\.typedUnit) == [nil, .stones, .pounds])
        #expect(zip(back, try await feature.allEntries()).allSatisfy { abs($0.kilograms - $1.kilograms) < 1e-9 })
    }
}
