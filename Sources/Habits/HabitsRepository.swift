import Foundation
import Storage

/// Where habits and their days are kept.
public protocol HabitsRepository: Sendable {
    /// Every habit (archived too) with its marks, in the order they were added.
    func allHabits() async throws -> [Habit]
    /// Adds a habit with its marks; a name already taken (ignoring case) is refused.
    func insert(_ habit: Habit) async throws
    /// Saves name, schedule, kind and the archived flag.
    func update(_ habit: Habit) async throws
    /// Removes a habit and its days.
    func delete(id: String) async throws
    /// Sets or (with nil) clears one day's mark.
    func setMark(_ mark: HabitMark?, habitID: String, day: Int) async throws
    /// Changes when another process has written; see `LocalDataStore.externalVersion()`.
    func externalVersion() async throws -> Int
}

/// Why a habit write was refused by the database.
public struct DuplicateHabitName: Error, Equatable {
    public let name: String
}

/// Habits in the `habits` and `habit_records` tables.
public actor LocalHabitsRepository: HabitsRepository {
    private let store: LocalDataStore

    public init(store: LocalDataStore) {
        self.store = store
    }

    public func allHabits() throws -> [Habit] {
        try store.read { try Self.allHabits(in: $0) }
    }

    public func externalVersion() throws -> Int {
        try store.externalVersion()
    }

    public func insert(_ habit: Habit) throws {
        try store.write { connection in
            try Self.insert(habit, in: connection)
        }
    }

    public func update(_ habit: Habit) throws {
        let (schedule, kind, target) = Self.encode(habit)
        do {
            try store.write { connection in
                try connection.run("""
                    UPDATE habits SET name = ?, name_key = ?, schedule = ?, kind = ?, target = ?, archived = ? WHERE id = ?
                    """, [.text(habit.name), .text(habit.name.lowercased()), .text(schedule), .text(kind), .optional(target),
                          .int(habit.archived ? 1 : 0), .text(habit.id)])
            }
        } catch StorageError.sqlite(let code, _) where code & 0xFF == 19 {
            throw DuplicateHabitName(name: habit.name)
        }
    }

    public func delete(id: String) throws {
        try store.write { connection in
            try connection.run("DELETE FROM habits WHERE id = ?", [.text(id)])
        }
    }

    public func setMark(_ mark: HabitMark?, habitID: String, day: Int) throws {
        try store.write { connection in
            try Self.setMark(mark, habitID: habitID, day: day, in: connection)
        }
    }

    // MARK: Inside a caller's transaction (backups, restores)

    public static func allHabits(in connection: SQLiteConnection) throws -> [Habit] {
        var habits = try connection.query("""
            SELECT id, name, schedule, kind, target, created_day, archived FROM habits ORDER BY position, rowid
            """) { row -> Habit? in
            guard let schedule = HabitSchedule(text: row.text(2)), let kind = decodeKind(row.text(3), target: row.optionalDouble(4)) else {
                return nil
            }
            return Habit(id: row.text(0), name: row.text(1), schedule: schedule, kind: kind, createdDay: row.int(5),
                         archived: row.int(6) != 0)
        }.compactMap { $0 }
        let index = Dictionary(uniqueKeysWithValues: habits.enumerated().map { ($1.id, $0) })
        let records = try connection.query("SELECT habit_id, day, status, value FROM habit_records") { row in
            (row.text(0), row.int(1), row.text(2), row.optionalDouble(3))
        }
        for (habitID, day, status, value) in records {
            guard let position = index[habitID] else { continue }
            switch status {
            case "done": habits[position].marks[day] = .done
            case "skipped": habits[position].marks[day] = .skipped
            default: if let value, value.isFinite { habits[position].marks[day] = .value(value) }
            }
        }
        return habits
    }

    public static func insert(_ habit: Habit, in connection: SQLiteConnection) throws {
        let (schedule, kind, target) = encode(habit)
        do {
            try connection.run("""
                INSERT INTO habits(id, name, name_key, schedule, kind, target, created_day, archived, position)
                VALUES(?, ?, ?, ?, ?, ?, ?, ?, (SELECT COALESCE(MAX(position), 0) + 1 FROM habits))
                """, [.text(habit.id), .text(habit.name), .text(habit.name.lowercased()), .text(schedule), .text(kind),
                      .optional(target), .int(habit.createdDay), .int(habit.archived ? 1 : 0)])
        } catch StorageError.sqlite(let code, _) where code & 0xFF == 19 {
            throw DuplicateHabitName(name: habit.name)
        }
        for (day, mark) in habit.marks {
            try setMark(mark, habitID: habit.id, day: day, in: connection)
        }
    }

    static func setMark(_ mark: HabitMark?, habitID: String, day: Int, in connection: SQLiteConnection) throws {
        guard let mark else {
            try connection.run("DELETE FROM habit_records WHERE habit_id = ? AND day = ?", [.text(habitID), .int(day)])
            return
        }
        let (status, value): (String, SQLValue) = switch mark {
        case .done: ("done", .null)
        case .skipped: ("skipped", .null)
        case let .value(number): ("value", .double(number))
        }
        try connection.run("""
            INSERT INTO habit_records(habit_id, day, status, value) VALUES(?, ?, ?, ?)
            ON CONFLICT(habit_id, day) DO UPDATE SET status = excluded.status, value = excluded.value
            """, [.text(habitID), .int(day), .text(status), value])
    }

    static func encode(_ habit: Habit) -> (schedule: String, kind: String, target: Double?) {
        switch habit.kind {
        case .yesNo: return (habit.schedule.text, "yesno", nil)
        case let .atLeast(target): return (habit.schedule.text, "atLeast", target)
        case let .atMost(target): return (habit.schedule.text, "atMost", target)
        }
    }

    static func decodeKind(_ kind: String, target: Double?) -> HabitKind? {
        switch (kind, target) {
        case ("yesno", _): return .yesNo
        case let ("atLeast", target?) where target.isFinite: return .atLeast(target)
        case let ("atMost", target?) where target.isFinite: return .atMost(target)
        default: return nil
        }
    }
}
