import Desktop
import Foundation
import Storage
import Vocabulary

/// The `habits` and `habit_records` tables, in one place: their columns,
/// every statement, the mapping of rows to `Habit`, and their form in a
/// recovery snapshot (the `habits` and `habitRecords` members).
///
/// Adding a column: a migration in `Schema`, the statements, mapping and
/// snapshot form here, and a `RecoverySnapshot.formatVersion` bump.
public struct HabitsTable: SnapshotSection {
    public init() {}

    /// A habit row as stored and as a snapshot holds it; schedule and kind in
    /// their stored codes (`HabitSchedule.code`, `HabitKind.code`).
    public struct Row: Codable, Sendable, Equatable {
        public var id: String
        public var name: String
        public var schedule: String
        public var kind: String
        public var target: Double?
        public var createdDay: Int
        public var archived: Bool
        public var position: Int
        /// What a numeric habit counts; absent in snapshots before Trend 0.3.0.
        public var unit: String?
        /// Its reminder times, `09:30 21:00` (`HabitReminderTimes`); absent where it has none, and in snapshots before 0.3.0.
        public var reminders: String?
    }

    /// One day of one habit, as stored.
    public struct RecordRow: Codable, Sendable, Equatable {
        public var habitID: String
        public var day: Int
        public var status: String
        public var value: Double?
        /// The day's note; absent in snapshots before Trend 0.3.0.
        public var note: String?
    }

    // MARK: Statements, inside a transaction the caller holds

    static func rows(in connection: SQLiteConnection) throws -> [Row] {
        try connection.query("""
            SELECT id, name, schedule, kind, target, created_day, archived, position, unit,
                (SELECT times FROM habit_reminders WHERE habit_id = habits.id) FROM habits ORDER BY position, id
            """) {
            Row(id: $0.text(0), name: $0.text(1), schedule: $0.text(2), kind: $0.text(3), target: $0.optionalDouble(4),
                createdDay: $0.int(5), archived: $0.int(6) != 0, position: $0.int(7), unit: $0.optionalText(8), reminders: $0.optionalText(9))
        }
    }

    static func recordRows(in connection: SQLiteConnection) throws -> [RecordRow] {
        try connection.query("SELECT habit_id, day, status, value, note FROM habit_records ORDER BY habit_id, day") {
            RecordRow(habitID: $0.text(0), day: $0.int(1), status: $0.text(2), value: $0.optionalDouble(3), note: $0.optionalText(4))
        }
    }

    /// Every habit with its marks, in the order they were added. A row Trend
    /// cannot read is an error naming it, never a habit quietly left out.
    public static func allHabits(in connection: SQLiteConnection) throws -> [Habit] {
        var habits = try rows(in: connection).map { row throws(HabitsError) in try habit(row) }
        for position in habits.indices {
            try readMarks(into: &habits[position], in: connection)
        }
        return habits
    }

    /// A habit's marks (and notes) from `since` on, all of them without it. One
    /// query along the primary key: no habit id per row, and the dictionary
    /// sized once (a century of days for 50 habits loads in well under a second).
    /// With `since`, `createdDay` moves back to the first mark, so `firstDay` stays true.
    static func readMarks(into habit: inout Habit, since: Int? = nil, notes withNotes: Bool = true,
                          in connection: SQLiteConnection) throws {
        let id = habit.id
        if since != nil {
            if let first = try connection.scalarInt("SELECT min(day) FROM habit_records WHERE habit_id = ?", [.text(id)]) {
                habit.createdDay = min(habit.createdDay, first)
            }
        }
        var notes: [Int: String] = [:]
        let days = try connection.query("""
            SELECT day, status, value, note FROM habit_records WHERE habit_id = ? AND day >= ? ORDER BY day
            """, [.text(id), .int(since ?? Int(Int64.min))]) { row in
            if withNotes, let note = row.optionalText(3) { notes[row.int(0)] = note }
            return (row.int(0), try mark(RecordRow(habitID: id, day: row.int(0), status: row.text(1), value: row.optionalDouble(2))))
        }
        var marks = [Int: HabitMark](minimumCapacity: days.count)
        for (day, mark) in days { marks[day] = mark }
        habit.marks = marks
        habit.notes = notes
    }

    /// Every habit without its marks, with the days it was done at all and the skipped days, oldest
    /// first: what relates habits to the weight. One query along each habit's primary key, and no
    /// marks, notes or dictionaries built (ten habits of thirty years in a few milliseconds).
    /// `since`: only the days from then on (what can meet a weigh-in), the first day still the habit's own.
    public static func doneDays(in connection: SQLiteConnection, onlyID: String? = nil, since: Int? = nil) throws -> [HabitDoneDays] {
        try rows(in: connection).filter { onlyID == nil || $0.id == onlyID }.map { row in
            let habit = try Self.habit(row)
            var done: [Int] = [], skipped: [Int] = [], first = habit.createdDay
            if since != nil, let earliest = try connection.scalarInt("SELECT min(day) FROM habit_records WHERE habit_id = ?", [.text(habit.id)]) {
                first = min(first, earliest)
            }
            _ = try connection.query("SELECT day, status, value FROM habit_records WHERE habit_id = ? AND day >= ? ORDER BY day",
                                     [.text(habit.id), .int(since ?? Int(Int64.min))]) { row in
                let day = row.int(0)
                first = min(first, day)
                switch try mark(RecordRow(habitID: habit.id, day: day, status: row.text(1), value: row.optionalDouble(2))) {
                case .skipped: skipped.append(day)
                case let mark where mark.isDoneAtAll: done.append(day)
                default: break
                }
            }
            return HabitDoneDays(habit: habit, firstDay: first, done: done, skipped: skipped)
        }
    }

    /// Every habit with only the marks that can decide today: those since the
    /// start of two of its periods back (a week for a daily habit, 2 × M + 14
    /// days for N in M days), its first day kept by moving `createdDay` back
    /// to its first mark. What `status` needs, without every day of decades.
    public static func recentHabits(today: Int, in connection: SQLiteConnection) throws -> [Habit] {
        var habits = try rows(in: connection).map { row throws(HabitsError) in try habit(row) }
        for position in habits.indices {
            try readMarks(into: &habits[position], since: today - Self.decidingDays(of: habits[position].schedule), notes: false,
                          in: connection)
        }
        return habits
    }

    /// Every habit with its stored checkpoint (one before `today`) where its
    /// walk can go on from one (`HabitStatistics.canResume`), and then only the
    /// marks the walk on reads; the others (and any without a checkpoint) with all their marks.
    public static func habitsWithCheckpoints(before today: Int, in connection: SQLiteConnection) throws
        -> [(habit: Habit, checkpoint: HabitCheckpoint?)] {
        try rows(in: connection).map { row in
            var habit = try Self.habit(row)
            let checkpoint = try readMarks(into: &habit, resumingBefore: today, in: connection)
            return (habit, checkpoint)
        }
    }

    /// Reads a habit's marks from its stored checkpoint on, when it has one
    /// before `day` and its walk can go on from one, and returns that
    /// checkpoint; otherwise every mark, and nil. Marks since `marksSince` are
    /// read in any case.
    static func readMarks(into habit: inout Habit, resumingBefore day: Int, marksSince: Int = .max,
                          in connection: SQLiteConnection) throws -> HabitCheckpoint? {
        let statistics = HabitStatistics(habit: habit, today: habit.createdDay)
        let stored = try connection.query("""
            SELECT through_day, first_day, score, longest_ended_streak, run_start FROM habit_checkpoints WHERE habit_id = ?
            """, [.text(habit.id)]) {
            HabitCheckpoint(throughDay: $0.int(0), from: $0.int(1), score: $0.double(2), longestEndedStreak: $0.int(3),
                            runStart: $0.optionalInt(4))
        }.first
        let checkpoint = statistics.canResume ? stored.flatMap { $0.throughDay < day && $0.isPlausible ? $0 : nil } : nil
        let since = checkpoint.map { min($0.throughDay - HabitCheckpoint.daysBefore(for: statistics.frequency), marksSince) }
        try readMarks(into: &habit, since: since, in: connection)
        return checkpoint
    }

    /// Stores checkpoints by habit id, replacing older ones; a habit deleted
    /// meanwhile gets none.
    public static func saveCheckpoints(_ checkpoints: [String: HabitCheckpoint], in connection: SQLiteConnection) throws {
        for (id, checkpoint) in checkpoints.sorted(by: { $0.key < $1.key }) {
            try connection.run("""
                INSERT INTO habit_checkpoints(habit_id, through_day, first_day, score, longest_ended_streak, run_start)
                SELECT ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM habits WHERE id = ?)
                ON CONFLICT(habit_id) DO UPDATE SET through_day = excluded.through_day, first_day = excluded.first_day,
                    score = excluded.score, longest_ended_streak = excluded.longest_ended_streak, run_start = excluded.run_start
                """, [.text(id), .int(checkpoint.throughDay), .int(checkpoint.from), .double(checkpoint.score),
                      .int(checkpoint.longestEndedStreak), checkpoint.runStart.map { .int($0) } ?? .null, .text(id)])
        }
    }

    /// How many days back a day's status can depend on for a schedule.
    static func decidingDays(of schedule: HabitSchedule) -> Int {
        switch schedule {
        case .daily, .weekdays: 14
        case .timesPerWeek: 28
        case let .timesPerDays(_, days): 2 * days + 14
        }
    }

    static func habit(_ row: Row) throws(HabitsError) -> Habit {
        guard let schedule = HabitSchedule(code: row.schedule) else {
            throw .unreadableHabit(name: row.name, detail: "its schedule '\(row.schedule.prefix(40))' is unknown")
        }
        guard let kind = HabitKind(code: row.kind, target: row.target) else {
            throw .unreadableHabit(name: row.name, detail: "its kind '\(row.kind.prefix(20))' or its target is unknown")
        }
        guard let reminders = HabitReminderTimes.read(row.reminders ?? "") else {
            throw .unreadableHabit(name: row.name, detail: "its reminder times '\(row.reminders?.prefix(40) ?? "")' are unknown")
        }
        var habit = Habit(id: row.id, name: row.name, schedule: schedule, kind: kind, createdDay: row.createdDay,
                          archived: row.archived, unit: row.unit ?? "")
        habit.reminders = reminders
        return habit
    }

    static func mark(_ record: RecordRow) throws(HabitsError) -> HabitMark {
        switch (record.status, record.value) {
        case ("done", _): return .done
        case ("skipped", _): return .skipped
        case ("no", _): return .no
        case let ("value", value?) where value.isFinite: return .value(value)
        default: throw .unreadableHabit(name: record.habitID, detail: "day \(record.day) holds '\(record.status.prefix(20))'")
        }
    }

    static func row(_ habit: Habit, position: Int) -> Row {
        Row(id: habit.id, name: habit.name, schedule: habit.schedule.code, kind: habit.kind.code,
            target: habit.kind.target, createdDay: habit.createdDay, archived: habit.archived, position: position,
            unit: habit.unit.isEmpty ? nil : habit.unit,
            reminders: habit.reminders.isEmpty ? nil : HabitReminderTimes.stored(habit.reminders))
    }

    static func record(_ mark: HabitMark, note: String? = nil, habitID: String, day: Int) -> RecordRow {
        switch mark {
        case .done: RecordRow(habitID: habitID, day: day, status: "done", value: nil, note: note)
        case .skipped: RecordRow(habitID: habitID, day: day, status: "skipped", value: nil, note: note)
        case .no: RecordRow(habitID: habitID, day: day, status: "no", value: nil, note: note)
        case let .value(number): RecordRow(habitID: habitID, day: day, status: "value", value: number, note: note)
        }
    }

    /// Adds a habit after the others, with its marks; a name already taken (ignoring case) is refused.
    public static func insert(_ habit: Habit, in connection: SQLiteConnection) throws {
        let position = try connection.scalarInt("SELECT COALESCE(MAX(position), 0) + 1 FROM habits") ?? 1
        try insert(row(habit, position: position), in: connection)
        for (day, mark) in habit.marks {
            try setMark(mark, note: habit.notes[day], habitID: habit.id, day: day, in: connection)
        }
    }

    static func insert(_ row: Row, in connection: SQLiteConnection) throws {
        do {
            try connection.run("""
                INSERT INTO habits(id, name, name_key, schedule, kind, target, created_day, archived, position, unit)
                VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, [.text(row.id), .text(row.name), .text(row.name.lowercased()), .text(row.schedule), .text(row.kind),
                      .optional(row.target), .int(row.createdDay), .int(row.archived ? 1 : 0), .int(row.position), .text(row.unit ?? "")])
        } catch StorageError.sqlite(let code, _) where code & 0xFF == 19 {
            throw HabitsError.duplicateName(row.name, archived: false)
        }
        if let times = row.reminders, !times.isEmpty { try setReminders(times, habitID: row.id, in: connection) }
    }

    /// Sets a habit's reminder times (`09:30 21:00`, `HabitReminderTimes.stored`), or with an empty text removes them.
    public static func setReminders(_ times: String, habitID: String, in connection: SQLiteConnection) throws {
        guard !times.isEmpty else {
            try connection.run("DELETE FROM habit_reminders WHERE habit_id = ?", [.text(habitID)])
            return
        }
        try connection.run("INSERT INTO habit_reminders(habit_id, times) VALUES(?, ?) ON CONFLICT(habit_id) DO UPDATE SET times = excluded.times",
                           [.text(habitID), .text(times)])
    }

    /// The reminders sent of the habit days from `day` on, on any device (`HabitReminderSent`).
    public static func remindersSent(since day: Int, in connection: SQLiteConnection) throws -> Set<HabitReminderSent> {
        Set(try connection.query("SELECT habit_id, moment FROM habit_reminders_sent WHERE moment >= ?",
                                 [.int(day * TimeOfDay.minutesInDay)]) { HabitReminderSent(habitID: $0.text(0), moment: $0.int(1)) })
    }

    /// Records reminders as sent, so no device sends them again (one that is there already stays as it is).
    public static func recordSent(_ sent: [HabitReminderSent], in connection: SQLiteConnection) throws {
        for reminder in sent {
            try connection.run("INSERT OR IGNORE INTO habit_reminders_sent(habit_id, moment) VALUES(?, ?)",
                               [.text(reminder.habitID), .int(reminder.moment)])
        }
    }

    /// Records the desktop notifications that carry reminders (one already recorded stays as it is).
    static func recordShown(_ shown: [OpenReminderNotification], in connection: SQLiteConnection) throws {
        for open in shown {
            try connection.run("INSERT OR IGNORE INTO reminder_notifications(server, id, habit_id, moment) VALUES(?, ?, ?, ?)",
                               [.text(open.notification.server), .int(Int(open.notification.id)), .text(open.reminder.habitID),
                                .int(open.reminder.moment)])
        }
    }

    /// The notifications this installation has on a desktop; a row that is not one (an id out of range) is left out.
    static func openNotifications(in connection: SQLiteConnection) throws -> [OpenReminderNotification] {
        try connection.query("SELECT server, id, habit_id, moment FROM reminder_notifications ORDER BY moment, id") { row in
            UInt32(exactly: row.int(1)).map {
                OpenReminderNotification(notification: ShownNotification(id: $0, server: row.text(0)),
                                         reminder: HabitReminderSent(habitID: row.text(2), moment: row.int(3)))
            }
        }.compactMap { $0 }
    }

    static func forgetNotifications(_ notifications: [ShownNotification], in connection: SQLiteConnection) throws {
        for notification in notifications {
            try connection.run("DELETE FROM reminder_notifications WHERE server = ? AND id = ?",
                               [.text(notification.server), .int(Int(notification.id))])
        }
    }

    /// Saves name, schedule, kind and the archived flag.
    public static func update(_ habit: Habit, in connection: SQLiteConnection) throws {
        let row = row(habit, position: 0)
        do {
            try connection.run("""
                UPDATE habits SET name = ?, name_key = ?, schedule = ?, kind = ?, target = ?, archived = ?, unit = ? WHERE id = ?
                """, [.text(row.name), .text(row.name.lowercased()), .text(row.schedule), .text(row.kind), .optional(row.target),
                      .int(row.archived ? 1 : 0), .text(row.unit ?? ""), .text(row.id)])
        } catch StorageError.sqlite(let code, _) where code & 0xFF == 19 {
            throw HabitsError.duplicateName(habit.name, archived: false)
        }
    }

    public static func delete(id: String, in connection: SQLiteConnection) throws {
        try connection.run("DELETE FROM habits WHERE id = ?", [.text(id)])
    }

    /// Sets or (with nil) clears one day's mark.
    public static func setMark(_ mark: HabitMark?, note: String? = nil, habitID: String, day: Int, in connection: SQLiteConnection) throws {
        guard let mark else {
            try connection.run("DELETE FROM habit_records WHERE habit_id = ? AND day = ?", [.text(habitID), .int(day)])
            return
        }
        try insert(record(mark, note: note, habitID: habitID, day: day), replacing: true, in: connection)
    }

    static func insert(_ record: RecordRow, replacing: Bool, in connection: SQLiteConnection) throws {
        let onConflict = replacing
            ? " ON CONFLICT(habit_id, day) DO UPDATE SET status = excluded.status, value = excluded.value, note = excluded.note" : ""
        try connection.run("INSERT INTO habit_records(habit_id, day, status, value, note) VALUES(?, ?, ?, ?, ?)" + onConflict,
                           [.text(record.habitID), .int(record.day), .text(record.status), .optional(record.value), .optional(record.note)])
    }
}
