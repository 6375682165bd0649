import Foundation

/// Everything a person keeps in Trend, table by table, as plain rows: what a
/// recovery snapshot holds and what a restore puts back. Storage owns the
/// schema, so it is the one place that reads and writes all of it at once.
public struct StoredContent: Sendable, Equatable, Codable {
    public struct Weight: Sendable, Equatable, Codable {
        public var id: String
        /// Seconds since 1970 (UTC).
        public var instant: Double
        public var kilograms: Double
        public var note: String?

        public init(id: String, instant: Double, kilograms: Double, note: String?) {
            self.id = id
            self.instant = instant
            self.kilograms = kilograms
            self.note = note
        }
    }

    public struct Habit: Sendable, Equatable, Codable {
        public var id: String
        public var name: String
        public var schedule: String
        public var kind: String
        public var target: Double?
        public var createdDay: Int
        public var archived: Bool
        public var position: Int

        public init(id: String, name: String, schedule: String, kind: String, target: Double?, createdDay: Int,
                    archived: Bool, position: Int) {
            self.id = id
            self.name = name
            self.schedule = schedule
            self.kind = kind
            self.target = target
            self.createdDay = createdDay
            self.archived = archived
            self.position = position
        }
    }

    public struct HabitRecord: Sendable, Equatable, Codable {
        public var habitID: String
        public var day: Int
        public var status: String
        public var value: Double?

        public init(habitID: String, day: Int, status: String, value: Double?) {
            self.habitID = habitID
            self.day = day
            self.status = status
            self.value = value
        }
    }

    public struct Setting: Sendable, Equatable, Codable {
        public var key: String
        public var value: String

        public init(key: String, value: String) {
            self.key = key
            self.value = value
        }
    }

    public var weights: [Weight]
    public var habits: [Habit]
    public var habitRecords: [HabitRecord]
    public var settings: [Setting]
    /// The daily-tip deck's state, as its owner stores it.
    public var tipDeck: String?

    public init(weights: [Weight] = [], habits: [Habit] = [], habitRecords: [HabitRecord] = [],
                settings: [Setting] = [], tipDeck: String? = nil) {
        self.weights = weights
        self.habits = habits
        self.habitRecords = habitRecords
        self.settings = settings
        self.tipDeck = tipDeck
    }

    public static let empty = StoredContent()

    /// Reads every table, in a stable order, inside the caller's transaction.
    public static func read(in connection: SQLiteConnection) throws -> StoredContent {
        StoredContent(
            weights: try connection.query("SELECT id, instant, kilograms, note FROM weight_entries ORDER BY instant, id") {
                Weight(id: $0.text(0), instant: $0.double(1), kilograms: $0.double(2), note: $0.optionalText(3))
            },
            habits: try connection.query("""
                SELECT id, name, schedule, kind, target, created_day, archived, position FROM habits ORDER BY position, id
                """) {
                Habit(id: $0.text(0), name: $0.text(1), schedule: $0.text(2), kind: $0.text(3), target: $0.optionalDouble(4),
                      createdDay: $0.int(5), archived: $0.int(6) != 0, position: $0.int(7))
            },
            habitRecords: try connection.query("SELECT habit_id, day, status, value FROM habit_records ORDER BY habit_id, day") {
                HabitRecord(habitID: $0.text(0), day: $0.int(1), status: $0.text(2), value: $0.optionalDouble(3))
            },
            settings: try connection.query("SELECT key, value FROM settings ORDER BY key") {
                Setting(key: $0.text(0), value: $0.text(1))
            },
            tipDeck: try connection.query("SELECT state FROM tip_deck WHERE id = 1") { $0.text(0) }.first
        )
    }

    /// Deletes every row of every table this content covers, inside the caller's transaction.
    public static func clear(in connection: SQLiteConnection) throws {
        try connection.execute("""
            DELETE FROM habit_records; DELETE FROM habits; DELETE FROM weight_entries;
            DELETE FROM settings; DELETE FROM tip_deck;
            """)
    }

    /// Inserts these rows inside the caller's transaction; a row whose key
    /// already exists makes the whole transaction fail.
    public func insert(in connection: SQLiteConnection) throws {
        let weight = try connection.prepare("INSERT INTO weight_entries(id, instant, kilograms, note) VALUES(?, ?, ?, ?)")
        for row in weights {
            try weight.reset([.text(row.id), .double(row.instant), .double(row.kilograms), .optional(row.note)])
            while try weight.step() {}
        }
        for row in habits {
            try connection.run("""
                INSERT INTO habits(id, name, name_key, schedule, kind, target, created_day, archived, position)
                VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, [.text(row.id), .text(row.name), .text(row.name.lowercased()), .text(row.schedule), .text(row.kind),
                      .optional(row.target), .int(row.createdDay), .int(row.archived ? 1 : 0), .int(row.position)])
        }
        let record = try connection.prepare("INSERT INTO habit_records(habit_id, day, status, value) VALUES(?, ?, ?, ?)")
        for row in habitRecords {
            try record.reset([.text(row.habitID), .int(row.day), .text(row.status), .optional(row.value)])
            while try record.step() {}
        }
        for row in settings {
            try connection.run("INSERT INTO settings(key, value) VALUES(?, ?)", [.text(row.key), .text(row.value)])
        }
        if let tipDeck {
            try connection.run("INSERT INTO tip_deck(id, state) VALUES(1, ?)", [.text(tipDeck)])
        }
    }
}

extension LocalDataStore {
    /// A consistent copy of everything (one read transaction).
    public func readContent() throws -> StoredContent {
        try readConsistently { try StoredContent.read(in: $0) }
    }

    /// Replaces everything with `content` in one transaction: all of it, or nothing.
    public func replaceContent(with content: StoredContent) throws {
        try write { connection in
            try StoredContent.clear(in: connection)
            try content.insert(in: connection)
        }
    }

    /// This installation's id, created on first use and kept in the database.
    public func installationID() throws -> String {
        try write(notifying: false) { connection in
            if let id = try connection.query("SELECT value FROM meta WHERE key = 'installationID'", row: { $0.text(0) }).first {
                return id
            }
            let id = UUID().uuidString.lowercased()
            try connection.run("INSERT INTO meta(key, value) VALUES('installationID', ?)", [.text(id)])
            return id
        }
    }
}
