import Foundation
import Storage
import TextFormats

/// The `settings` table, in one place: one row per key, its statements, and
/// its form in a recovery snapshot (the `settings` member).
///
/// Adding a setting needs no column: an entry in `Setting.all`, and (when old
/// snapshots must not carry it) a `RecoverySnapshot.formatVersion` bump.
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

    /// The settings a snapshot carries from one installation to another: the
    /// person's choices. Everything else (the sync folder, a key this Trend
    /// does not know) belongs to the device and never crosses in a restore.
    public static let portableKeys = Setting.portableKeys

    /// One portable setting a restore would change, as stored (`nil`: not set).
    public struct Change: Sendable, Equatable {
        public let key: String
        public let from: String?
        public let to: String?
    }

    /// What replacing `current` with `incoming` would change, portable keys only, by key.
    public static func changes(from current: Part, to incoming: Part) -> [Change] {
        let old = Dictionary(current.rows.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        let new = Dictionary(incoming.rows.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        return portableKeys.sorted().compactMap { key in old[key] == new[key] ? nil : Change(key: key, from: old[key], to: new[key]) }
    }

    /// How many of a snapshot's settings a restore leaves out: device-local and unknown keys.
    public static func ignoredCount(in part: Part) -> Int {
        part.rows.filter { !portableKeys.contains($0.key) }.count
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

    /// The portable settings are checked as `set` checks them; the others are
    /// never restored, so only their number matters (see `ignoredCount`).
    public func keepingValid(_ part: Part) -> (valid: Part, dropped: [String]) {
        var keys = Set<String>()
        var valid: [Row] = []
        var dropped: [String] = []
        for row in part.rows {
            guard Self.portableKeys.contains(row.key) else {
                valid.append(row)  // Never restored; kept so the count of what is left out stays true.
                continue
            }
            if let problem = Self.problem(row, seen: keys) {
                dropped.append(problem)
            } else {
                keys.insert(row.key)
                valid.append(row)
            }
        }
        return (Part(rows: valid), dropped)
    }

    /// Why a portable setting cannot be kept, as `set` would refuse it (nil when it can): the one check a restore and a sync make.
    static func problem(_ row: Row, seen: Set<String>) -> String? {
        guard !seen.contains(row.key) else { return "the setting '\(row.key)' is repeated" }
        return Setting.problem(key: row.key, value: row.value)
    }

    /// Brings in the portable settings only: this installation's sync folder
    /// (and anything else device-local) stays as it is.
    public func replace(with part: Part, in connection: SQLiteConnection) throws {
        for key in Self.portableKeys.sorted() {
            try connection.run("DELETE FROM settings WHERE key = ?", [.text(key)])
        }
        for row in part.rows where Self.portableKeys.contains(row.key) {
            try connection.run("INSERT INTO settings(key, value) VALUES(?, ?)", [.text(row.key), .text(row.value)])
        }
    }

    /// Only the portable settings are replaced; this installation's own (the sync folder) stay, so only those are counted.
    public func replacedRows(_ part: Part, in connection: SQLiteConnection) throws -> (expected: Int, found: Int) {
        let keys = Self.portableKeys.sorted()
        let found = try connection.scalarInt("SELECT count(*) FROM settings WHERE key IN (\(keys.map { _ in "?" }.joined(separator: ", ")))",
                                             keys.map { .text($0) }) ?? 0
        return (part.rows.filter { Self.portableKeys.contains($0.key) }.count, found)
    }

    /// A merge keeps this installation's settings as they are.
    public func merge(_ part: Part, in connection: SQLiteConnection) throws -> SnapshotMergeCount {
        SnapshotMergeCount(duplicates: part.rows.count)
    }
}
