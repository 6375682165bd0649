import Foundation
import Storage

/// Where weigh-ins are kept.
public protocol WeightRepository: Sendable {
    /// Every entry, oldest first.
    func allEntries() async throws -> [WeightEntry]
    func insert(_ entry: WeightEntry) async throws
    /// Replaces the entry with the same id; false when there is none.
    func update(_ entry: WeightEntry) async throws -> Bool
    /// Removes an entry; false when there is none.
    func delete(id: String) async throws -> Bool
    /// Adds many entries in one transaction, skipping ids already stored;
    /// returns how many were added.
    func insert(contentsOf entries: [WeightEntry]) async throws -> Int
    /// Changes when another process has written; see `LocalDataStore.externalVersion()`.
    func externalVersion() async throws -> Int
}

/// Weigh-ins in the `weight_entries` table.
public actor LocalWeightRepository: WeightRepository {
    private let store: LocalDataStore

    public init(store: LocalDataStore) {
        self.store = store
    }

    public func externalVersion() throws -> Int {
        try store.externalVersion()
    }

    public func allEntries() throws -> [WeightEntry] {
        try store.read { connection in
            try Self.allEntries(in: connection)
        }
    }

    public func insert(_ entry: WeightEntry) throws {
        try store.write { connection in
            try Self.insert(entry, in: connection)
        }
    }

    public func update(_ entry: WeightEntry) throws -> Bool {
        try store.write { connection in
            try connection.run("UPDATE weight_entries SET instant = ?, kilograms = ?, note = ? WHERE id = ?",
                               [.double(entry.date.timeIntervalSince1970), .double(entry.kilograms),
                                .optional(entry.note), .text(entry.id)]) > 0
        }
    }

    public func insert(contentsOf entries: [WeightEntry]) throws -> Int {
        try store.write { connection in
            // A large batch touches many pages of the id index; room for them in
            // memory saves spilling half-built pages to the journal again and again.
            if entries.count > 10_000 { try connection.execute("PRAGMA cache_size = -131072") }
            defer { try? connection.execute("PRAGMA cache_size = -2000") }
            let statement = try connection.prepare("INSERT OR IGNORE INTO weight_entries(id, instant, kilograms, note) VALUES(?, ?, ?, ?)")
            var added = 0
            for entry in entries {
                try statement.reset([.text(entry.id), .double(entry.date.timeIntervalSince1970), .double(entry.kilograms),
                                     .optional(entry.note)])
                while try statement.step() {}
                added += connection.changes
            }
            return added
        }
    }

    public func delete(id: String) throws -> Bool {
        try store.write { connection in
            try connection.run("DELETE FROM weight_entries WHERE id = ?", [.text(id)]) > 0
        }
    }

    /// Reads every entry inside a transaction the caller holds (backups, imports).
    public static func allEntries(in connection: SQLiteConnection) throws -> [WeightEntry] {
        try connection.query("SELECT id, instant, kilograms, note FROM weight_entries ORDER BY instant, id") { row in
            WeightEntry(id: row.text(0), date: Date(timeIntervalSince1970: row.double(1)),
                        kilograms: row.double(2), note: row.optionalText(3))
        }
    }

    /// Inserts inside a transaction the caller holds.
    public static func insert(_ entry: WeightEntry, in connection: SQLiteConnection) throws {
        try connection.run("INSERT INTO weight_entries(id, instant, kilograms, note) VALUES(?, ?, ?, ?)",
                           [.text(entry.id), .double(entry.date.timeIntervalSince1970), .double(entry.kilograms),
                            .optional(entry.note)])
    }
}
