import Foundation
import Storage
import Testing
import TestSupport

/// Issue 27, item 2: a `trend.sqlite` written by each shipped version
/// (`Tests/Fixtures/databases`) opens in this Trend with every weigh-in,
/// note, habit, mark and setting as the version that wrote it reported them,
/// and undo, backup and restore work on it.
@Suite struct DatabaseFixtureEndToEndTests {
    /// The moment the fixture's own report was made (scripts/make-fixture-database.sh).
    let clock = "2026-11-14 08:05:00"
    let habitNames = ["Read", "Drink water", "Gym", "Drinks", "Piano"]

    func report(_ directory: [String], measurements: Bool = false) throws -> [[String: Any]] {
        let run = try runTrend(directory + ["--json", "-c", "entries all", "-c", "habits"] + habitNames.flatMap { ["-c", "habit show \"\($0)\""] }
                               + ["-c", "settings"] + (measurements ? ["-c", "measurements"] : []), clock: clock)
        #expect(run.status == 0, "\(run.standardError)")
        return try run.documents()
    }

    /// Each weigh-in as id, instant, weight and note.
    func entries(_ document: [String: Any]) -> [String] {
        (document["entries"] as? [[String: Any]] ?? []).map { entry in
            "\(entry["id"] ?? "") \(entry["date"] ?? "") \(entry["kilograms"] ?? "") \(entry["note"] ?? "null")"
        }
    }

    /// Schema 11 as the history's commits made it (83b75ce: the journal at 11, body fat after it) is not schema 11
    /// as the migrations were frozen (body fat at 11, the journal at 12): no landing shipped it, and this Trend
    /// refuses it untouched, naming what to do, rather than build on tables it did not make.
    @Test func theHistorysSchema11IsRefusedUntouched() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        try DatabaseFixture.historysSchema11.copy(into: temp.url)
        let file = temp.url.appendingPathComponent("trend.sqlite")
        let before = try Data(contentsOf: file)
        let run = try runTrend(["--data-dir", temp.url.path, "-c", "entries all"], clock: clock)
        #expect(run.status != 0)
        #expect(run.standardError.contains("its schema version (11) does not match its tables; it was left untouched"), "\(run.standardError)")
        #expect(try Data(contentsOf: file) == before)
    }

    @Test(arguments: DatabaseFixture.all)
    func everyRowWrittenByAShippedVersionIsRead(fixture: DatabaseFixture) throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let data = temp.url.appendingPathComponent("data")
        try fixture.copy(into: data)
        let marks = try DatabaseFixture.storedMarks(in: data.appendingPathComponent(LocalDataStore.fileName))
        #expect(marks.count == 9)
        let expected = try fixture.expectedDocuments()
        let found = try report(["--data-dir", data.path], measurements: fixture.hasMeasurements)
        try #require(found.count == expected.count)

        #expect(entries(found[0]) == entries(expected[0]))
        #expect(entries(found[0]).count == 5)
        #expect(entries(found[0]).contains { $0.hasSuffix("café ☕, 5 km") })
        func habits(_ document: [String: Any]) -> [String] {
            (document["habits"] as? [[String: Any]] ?? []).map {
                "\($0["name"] ?? "") \($0["schedule"] ?? "") \($0["kind"] ?? "") \($0["target"] ?? "null") \($0["archived"] ?? "")"
            }
        }
        #expect(habits(found[1]) == habits(expected[1]))
        #expect(habits(found[1]).count == 4, "Piano is archived")
        // The days a yes/no habit was marked done or skipped, as each version shows them.
        for (index, name) in habitNames.enumerated() where ["Read", "Gym", "Piano"].contains(name) {
            func marked(_ document: [String: Any]) -> [String] {
                (document["days"] as? [[String: Any]] ?? []).compactMap { day in
                    let status = day["status"] as? String ?? ""
                    return ["done", "skipped"].contains(status) ? "\(day["date"] ?? "") \(status)" : nil
                }
            }
            #expect(marked(found[index + 2]) == marked(expected[index + 2]), "\(name)")
            #expect(!marked(found[index + 2]).isEmpty, "\(name)")
        }
        let settings = found[habitNames.count + 2], before = expected[habitNames.count + 2]
        for key in ["unit", "goalKilograms", "progressRange"] {
            #expect("\(settings[key] ?? "")" == "\(before[key] ?? "")", "\(key)")
        }
        if fixture.hasMeasurements {
            // Every tape measure: its id, moment, kind, girth, the unit it was typed in and its note.
            func measurements(_ document: [String: Any]) -> [String] {
                (document["measurements"] as? [[String: Any]] ?? []).map { row in
                    ["id", "date", "kind", "centimetres", "typedUnit", "note"].map { "\(row[$0] ?? "null")" }.joined(separator: " ")
                }
            }
            #expect(measurements(found[habitNames.count + 3]) == measurements(expected[habitNames.count + 3]))
            #expect(measurements(found[habitNames.count + 3]).count == 4)
        }
        // Every stored day is still there, value and all, once this Trend has opened the file.
        #expect(try DatabaseFixture.storedMarks(in: data.appendingPathComponent(LocalDataStore.fileName)) == marks)
    }

    @Test(arguments: DatabaseFixture.all)
    func undoBackupAndRestoreWorkOnADatabaseOfAShippedVersion(fixture: DatabaseFixture) throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let data = temp.url.appendingPathComponent("data")
        try fixture.copy(into: data)
        let directory = ["--data-dir", data.path]
        let before = entries(try #require(try report(directory).first))
        let change = try runTrend(directory + ["-c", "weigh 80", "-c", "habit done Gym", "-c", "undo", "-c", "undo"], clock: clock)
        #expect(change.status == 0, "\(change.standardError)")
        #expect(entries(try #require(try report(directory).first)) == before)
        let backup = try runTrend(directory + ["-c", "backup now", "-c", "delete-all-data", "-c", "restore latest"], clock: clock)
        #expect(backup.status == 0, "\(backup.standardOutput) \(backup.standardError)")
        #expect(entries(try #require(try report(directory).first)) == before)
    }
}
