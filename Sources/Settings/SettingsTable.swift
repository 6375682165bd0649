import Foundation
import Storage

/// The `settings` table, in one place: one row per key, its statements, and
/// its form in a recovery snapshot (the `settings` member).
///
/// Adding a setting needs no column: a key in `LocalSettingsRepository.Key`,
/// its check in `validate`, and (when old snapshots must not carry it) a
/// `RecoverySnapshot.formatVersion` bump.
public struct SettingsTable: SnapshotSection {
    public init() {}

    /// One stored setting.
    public struct Row: Codable, Sendable, Equatable {
        public var key: String
        public var value: String

        public init(key: String, value: String) {
            self.key = key
            self.value = value
        }
    }

    static func rows(in connection: SQLiteConnection) throws -> [Row] {
        try connection.query("SELECT key, value FROM settings ORDER BY key") { Row(key: $0.text(0), value: $0.text(1)) }
    }

    /// Sets (or, with nil, removes) one key, inside the caller's transaction.
    static func write(key: String, value: String?, in connection: SQLiteConnection) throws {
        if let value {
            try connection.run("INSERT INTO settings(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                               [.text(key), .text(value)])
        } else {
            try connection.run("DELETE FROM settings WHERE key = ?", [.text(key)])
        }
    }

    // MARK: The snapshot form

    public var name: String { "settings" }

    /// Settings as a snapshot holds them, by key.
    public struct Part: SnapshotPart, Equatable {
        public var rows: [Row]

        public init(rows: [Row]) {
            self.rows = rows
        }

        public var rowCount: Int { rows.count }

        public func canonicalMembers() -> [(key: String, value: CanonicalJSON)] {
            var out = CanonicalJSON()
            out.array(rows) { out, row in out.object(["key": .string(row.key), "value": .string(row.value)]) }
            return [("settings", out)]
        }
    }

    public func read(in connection: SQLiteConnection) throws -> Part {
        Part(rows: try Self.rows(in: connection))
    }

    public func decode(from content: KeyedDecodingContainer<SnapshotKey>) throws -> Part {
        Part(rows: try content.decodeIfPresent([Row].self, forKey: SnapshotKey(name)) ?? [])
    }

    public func validate(_ part: Part) throws {
        var keys = Set<String>()
        for row in part.rows {
            guard keys.insert(row.key).inserted else { throw SnapshotValueError("the setting '\(row.key.prefix(64))' is repeated") }
            switch row.key {
            case LocalSettingsRepository.Key.unit:
                guard WeightUnit(rawValue: row.value) != nil else {
                    throw SnapshotValueError("the unit '\(row.value.prefix(20))' is unknown")
                }
            case LocalSettingsRepository.Key.goalKilograms:
                guard let goal = Double(row.value), WeightUnit.acceptedKilograms.contains(goal) else {
                    throw SnapshotValueError("the goal '\(row.value.prefix(20))' is outside 20–500 kg")
                }
            default:
                guard row.key.count <= 64, row.value.count <= 4_096 else { throw SnapshotValueError("a setting is overlong") }
            }
        }
    }

    public func replace(with part: Part, in connection: SQLiteConnection) throws {
        try connection.execute("DELETE FROM settings")
        for row in part.rows {
            try connection.run("INSERT INTO settings(key, value) VALUES(?, ?)", [.text(row.key), .text(row.value)])
        }
    }

    /// A merge keeps this installation's settings as they are.
    public func merge(_ part: Part, in connection: SQLiteConnection) throws -> SnapshotMergeCount {
        SnapshotMergeCount(duplicates: part.rows.count)
    }
}
