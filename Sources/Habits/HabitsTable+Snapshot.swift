import Foundation
import Storage
import TextFormats
import Vocabulary

/// The habits and their days as a recovery snapshot holds them (the `habits`
/// and `habitRecords` members), checked, restored and merged by their owner.
extension HabitsTable {
    public var name: String { "habits" }

    /// Habits and their days as a snapshot holds them.
    public struct Part: SnapshotPart, Equatable {
        public var habits: [Row]
        public var records: [RecordRow]

        public init(habits: [Row] = [], records: [RecordRow] = []) {
            self.habits = habits
            self.records = records
        }

        public var rowCount: Int { habits.count }

        public func canonicalMembers() -> [(key: String, value: CanonicalJSON)] {
            var days = CanonicalJSON(reservingCapacity: records.count * 64 + 2)
            days.array(records) { out, record in
                // The note is written only when there is one, so snapshots without notes keep their bytes and hashes.
                if let note = record.note {
                    out.object(["day": .integer(record.day), "habitID": .string(record.habitID), "note": .string(note),
                                "status": .string(record.status), "value": .optional(record.value)])
                } else {
                    out.object(["day": .integer(record.day), "habitID": .string(record.habitID), "status": .string(record.status),
                                "value": .optional(record.value)])
                }
            }
            var list = CanonicalJSON()
            list.array(habits) { out, habit in
                // The unit and the reminder times are written only when there are some, so snapshots without them keep
                // their bytes and hashes.
                var members: [String: CanonicalJSON.Value] = [
                    "archived": .bool(habit.archived), "createdDay": .integer(habit.createdDay), "id": .string(habit.id),
                    "kind": .string(habit.kind), "name": .string(habit.name), "position": .integer(habit.position),
                    "schedule": .string(habit.schedule), "target": .optional(habit.target),
                ]
                if let unit = habit.unit, !unit.isEmpty { members["unit"] = .string(unit) }
                if let times = habit.reminders, !times.isEmpty { members["reminders"] = .string(times) }
                out.object(members)
            }
            return [("habitRecords", days), ("habits", list)]
        }
    }

    public func read(in connection: SQLiteConnection) throws -> Part {
        Part(habits: try Self.rows(in: connection), records: try Self.recordRows(in: connection))
    }

    /// The habits, counted without reading their days.
    public func rowCount(in connection: SQLiteConnection) throws -> Int {
        try connection.scalarInt("SELECT count(*) FROM habits") ?? 0
    }

    public func decode(from content: KeyedDecodingContainer<SnapshotKey>) throws -> Part {
        var habits = try content.decodeIfPresent([Row].self, forKey: SnapshotKey("habits")) ?? []
        // Format 1 stored a schedule in the words people type ("every day", "3/week"): read them as codes.
        for index in habits.indices where HabitSchedule(code: habits[index].schedule) == nil {
            if let schedule = HabitSchedule(text: habits[index].schedule) { habits[index].schedule = schedule.code }
        }
        return Part(habits: habits,
                    records: try content.decodeIfPresent([RecordRow].self, forKey: SnapshotKey("habitRecords")) ?? [])
    }

    public func keepingValid(_ part: Part) -> (valid: Part, dropped: [String]) {
        var ids = Set<String>(), names = Set<String>()
        var valid = Part()
        var dropped: [String] = []
        for row in part.habits {
            let name = row.name.trimmingCharacters(in: .whitespaces)
            if let problem = Self.problem(row, name: name, ids: ids, names: names) {
                dropped.append(problem)
                continue
            }
            ids.insert(row.id)
            names.insert(name.lowercased())
            valid.habits.append(row)
        }
        for record in part.records {
            if let problem = Self.problem(record, habits: ids) {
                dropped.append(problem)
            } else {
                valid.records.append(record)
            }
        }
        return (valid, dropped)
    }

    static func problem(_ row: Row, name: String, ids: Set<String>, names: Set<String>) -> String? {
        guard !row.id.isEmpty, row.id.count <= 64, !ids.contains(row.id) else { return "a habit id is empty, overlong or repeated" }
        guard HabitName.isAcceptable(name), !names.contains(name.lowercased()) else {
            return "the habit name '\(row.name.prefix(60))' is empty, too long or repeated"
        }
        do {
            _ = try habit(row)
        } catch {
            return "habit '\(name)': \(error)"
        }
        if let unit = row.unit, (try? HabitUnit.validated(unit)) == nil {  // The reason is the sentence below.
            return "habit '\(name)': its unit is longer than \(HabitUnit.maximumLength) characters or holds digits or control characters"
        }
        guard PlausibleTime.days.contains(row.createdDay) else { return "habit '\(name)' starts before 1900 or after 2199" }
        if let times = row.reminders, HabitReminderTimes.read(times) == nil {
            return "habit '\(name)': its reminder times '\(times.prefix(40))' are not times of day such as 09:30 21:00"
        }
        return nil
    }

    static func problem(_ record: RecordRow, habits: Set<String>) -> String? {
        guard habits.contains(record.habitID) else { return "a habit day belongs to no habit" }
        guard PlausibleTime.days.contains(record.day) else { return "a habit day is before 1900 or after 2199" }
        guard let mark = try? mark(record) else { return "a habit day has an unknown status" }  // The status is the problem.
        if case let .value(value) = mark, !HabitMark.mergedValues.contains(value) {
            return "a habit day holds a value outside 0–\(Int(HabitMark.mergedValues.upperBound))"
        }
        if let note = record.note, (try? HabitNote.typed(note)) != note {  // Untrimmed, too long or with control characters.
            return "a habit day's note is longer than \(HabitNote.maximumLength) characters or holds control characters"
        }
        return nil
    }

    public func replace(with part: Part, in connection: SQLiteConnection) throws {
        try connection.execute("DELETE FROM habit_records; DELETE FROM habits")
        for row in part.habits { try Self.insert(row, in: connection) }
        for record in part.records { try Self.insert(record, replacing: false, in: connection) }
    }

    /// Habits are matched by name (ignoring case); a new one is added after
    /// the local ones, and days the local habit already has are kept.
    public func merge(_ part: Part, in connection: SQLiteConnection) throws -> SnapshotMergeCount {
        let local = try Self.rows(in: connection)
        var localByName = Dictionary(local.map { ($0.name.lowercased(), $0.id) }, uniquingKeysWith: { first, _ in first })
        let localIDs = Set(local.map(\.id))
        var position = (local.map(\.position).max() ?? 0) + 1
        var idMap: [String: String] = [:]
        var count = SnapshotMergeCount()
        for habit in part.habits {
            if let id = localByName[habit.name.lowercased()] {
                idMap[habit.id] = id
                continue
            }
            var added = habit
            if localIDs.contains(added.id) { added.id = UUID().uuidString.lowercased() }
            added.position = position
            position += 1
            idMap[habit.id] = added.id
            localByName[habit.name.lowercased()] = added.id
            try Self.insert(added, in: connection)
            count.added += 1
        }
        var days = Set(try Self.recordRows(in: connection).map { "\($0.habitID)#\($0.day)" })
        for record in part.records {
            guard let id = idMap[record.habitID], days.insert("\(id)#\(record.day)").inserted else { continue }
            var added = record
            added.habitID = id
            try Self.insert(added, replacing: false, in: connection)
            count.addedChildren += 1
        }
        return count
    }
}
