import Foundation
import Storage

/// A file in `Tests/Fixtures`, the compatibility fixtures that never change.
public func fixtureURL(_ name: String) -> URL {
    // This file is Tests/TestSupport/Fixtures.swift; the fixtures sit beside its folder.
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures").appendingPathComponent(name)
}

/// A `trend.sqlite` written by a shipped version of Trend, with what that
/// version reported of it (`Tests/Fixtures/databases`, made by
/// `scripts/make-fixture-database.sh`; the README says from which commit).
public struct DatabaseFixture: Sendable, CustomStringConvertible {
    /// The schema version it was written at.
    public let schemaVersion: Int

    public init(schemaVersion: Int) {
        self.schemaVersion = schemaVersion
    }

    /// Every schema's database from 0.1.0 (schema 5) on, as the commits that first reached it wrote it; 11 is the
    /// history's own (see `historysSchema11`), which this Trend refuses.
    public static let all = [5, 6, 7, 8, 9, 10, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23].map(DatabaseFixture.init(schemaVersion:))

    /// Schema 11 as commit 83b75ce wrote it: the journal at 11, which the frozen migrations put at 12 (body fat is 11).
    public static let historysSchema11 = DatabaseFixture(schemaVersion: 11)

    /// Whether it holds tape measures (schema 19 on), and its report ends with `measurements`.
    public var hasMeasurements: Bool { schemaVersion >= 19 }

    public var description: String { "schema \(schemaVersion)" }

    public var url: URL { fixtureURL("databases/trend-schema-\(schemaVersion).sqlite") }

    /// Copies the database into `directory` as its `trend.sqlite` (writable: a fixture is never opened in place).
    public func copy(into directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let target = directory.appendingPathComponent("trend.sqlite")
        try Data(contentsOf: url).write(to: target)
    }

    /// The rows of habit days in a database file as stored (name, day, status, value), read without migrating it.
    public static func storedMarks(in file: URL) throws -> [String] {
        let connection = try SQLiteConnection.openUntrusted(path: file.path)
        return try connection.query("SELECT h.name, r.day, r.status, ifnull(r.value, '') FROM habit_records r JOIN habits h ON h.id = r.habit_id ORDER BY 1, 2") {
            "\($0.text(0)) \($0.int(1)) \($0.text(2)) \($0.text(3))"
        }
    }

    /// What the binary that wrote it printed with `--json`, one document a line:
    /// entries all, habits, habit show of each habit, settings, and `measurements` where it has them.
    public func expectedDocuments() throws -> [[String: Any]] {
        let text = try String(contentsOf: fixtureURL("databases/trend-schema-\(schemaVersion).expected.jsonl"), encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw CocoaError(.coderReadCorrupt)
            }
            return object
        }
    }
}
