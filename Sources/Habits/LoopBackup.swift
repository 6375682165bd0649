import Foundation
import Storage
import Vocabulary

/// A backup written by Loop Habit Tracker's "Export full backup" (a SQLite
/// file, `Loop Habits Backup YYYY-MM-DD HHMMSS.db`), read the way Loop's own
/// `LoopDBImporter` reads it (iSoron/uhabits, `core/io/LoopDBImporter.kt`,
/// `models/sqlite/records/HabitRecord.kt` and `EntryRecord.kt`): the
/// `Habits` table (name, `freq_num`/`freq_den`, `type` 0 yes/no or 1
/// numeric, `target_type` 0 at least or 1 at most, `target_value`,
/// `archived`, `position`) and the `Repetitions` table (`habit`, `timestamp`
/// in milliseconds at UTC midnight of the day, `value`: 2 yes, 0 no, 3 skip,
/// a numeric day's amount × 1000). Older backups lack the numeric columns
/// and `value`; those habits are yes/no and every repetition a yes.
///
/// The file is untrusted: opened read-only, its rows checked one by one; a
/// row that cannot be a habit or a day is reported, never guessed at.
public struct LoopBackup: Sendable, Equatable {
    public var habits: [Habit]
    /// What was left out and why, e.g. `habit 'X': frequency 9/7 is not a schedule`.
    public var problems: [String]
    /// What the reader had to take as given, in words (a lone Checkmarks.csv holds no schedules).
    public var assumptions: [String] = []

    /// Whether the file at `path` starts as a SQLite database does.
    public static func looksLikeOne(path: String) -> Bool {
        // A FIFO under the name would block an ordinary open: not a regular file is not one.
        guard let handle = try? UntrustedFile.open(path) else { return false }
        defer { try? handle.close() }  // Read-only: closing cannot lose anything.
        return (try? handle.read(upToCount: 16)) == Data("SQLite format 3\0".utf8)  // Unreadable is "not one".
    }

    public static let maximumHabits = 10_000
    public static let maximumDays = 5_000_000

    /// Reads the backup at `path`; `today` becomes the creation day of a habit without days.
    public static func read(path: String, today: Int) throws -> LoopBackup {
        let connection = try SQLiteConnection.openUntrusted(path: path)
        let tables = Set(try connection.query("SELECT lower(name) FROM sqlite_master WHERE type = 'table'") { $0.text(0) })
        guard tables.contains("habits"), tables.contains("repetitions") else { throw HabitsError.notALoopBackup(path) }
        let habitColumns = Set(try connection.query("SELECT lower(name) FROM pragma_table_info('Habits')") { $0.text(0) })
        let repetitionColumns = Set(try connection.query("SELECT lower(name) FROM pragma_table_info('Repetitions')") { $0.text(0) })
        func column(_ name: String, in columns: Set<String>, or fallback: String) -> String { columns.contains(name) ? name : fallback }
        let habitRows = try connection.query("""
            SELECT id, name, \(column("freq_num", in: habitColumns, or: "1")), \(column("freq_den", in: habitColumns, or: "1")),
                   \(column("archived", in: habitColumns, or: "0")), \(column("type", in: habitColumns, or: "0")),
                   \(column("target_type", in: habitColumns, or: "0")), \(column("target_value", in: habitColumns, or: "0")),
                   \(column("unit", in: habitColumns, or: "''"))
            FROM Habits ORDER BY \(column("position", in: habitColumns, or: "id")), id LIMIT \(maximumHabits + 1)
            """) { row in
            (id: row.int(0), name: row.optionalText(1) ?? "", numerator: row.int(2), denominator: row.int(3), archived: row.int(4) != 0,
             type: row.int(5), targetType: row.int(6), target: row.double(7), unit: row.optionalText(8) ?? "")
        }
        guard habitRows.count <= maximumHabits else { throw HabitsError.loopBackupTooLarge(path) }
        var result = LoopBackup(habits: [], problems: [])
        var byLoopID: [Int: Int] = [:]
        var names = Set<String>()
        for row in habitRows {
            let label = "habit '\(row.name.prefix(60))'"
            guard let validName = try? HabitName.validated(row.name) else {  // The reason is given in words below.
                result.problems.append("\(label): the name is empty, too long or holds control characters")
                continue
            }
            let name = HabitName.distinct(validName, taken: &names)
            if name != validName { result.assumptions.append("\(label) is a second habit of that name: it comes in as '\(name)'") }
            guard let schedule = schedule(numerator: row.numerator, denominator: row.denominator) else {
                result.problems.append("\(label): frequency \(row.numerator)/\(row.denominator) is not a schedule")
                continue
            }
            let kind: HabitKind
            switch (row.type, row.targetType) {
            case (0, _): kind = .yesNo
            case (1, 0) where row.target.isFinite && row.target >= 0: kind = .atLeast(row.target)
            case (1, 1) where row.target.isFinite && row.target >= 0: kind = .atMost(row.target)
            default:
                result.problems.append("\(label): type \(row.type) with target type \(row.targetType) is not a kind Loop has")
                continue
            }
            byLoopID[row.id] = result.habits.count
            // A unit Trend cannot hold (digits, too long) is left off; the habit and its days still come in.
            let unit = kind.isNumeric ? ((try? HabitUnit.validated(row.unit)) ?? "") : ""
            result.habits.append(Habit(name: name, schedule: schedule, kind: kind, createdDay: today, archived: row.archived, unit: unit))
        }
        let value = column("value", in: repetitionColumns, or: "2")
        let notes = column("notes", in: repetitionColumns, or: "NULL")
        let statement = try connection.prepare("SELECT habit, timestamp, \(value), \(notes) FROM Repetitions ORDER BY habit, timestamp")
        // Rows come by habit and moment, so a day's rows are together: a day is left out when none of its rows
        // could be read, and it is counted once however many rows repeat it (a file can hold a million of one day).
        var count = 0, refusedRows = 0, refusedDays = 0
        var day: (habit: Int, number: Int)?, dayKept = false, dayRefused = false
        func closeDay() { if dayRefused && !dayKept { refusedDays += 1 } }
        while try statement.step() {
            count += 1
            guard count <= maximumDays else { throw HabitsError.loopBackupTooLarge(path) }
            guard let index = byLoopID[statement.int(0)] else { continue }
            // Loop stores the UTC midnight of the day; any other moment counts for its UTC day.
            let milliseconds = statement.int(1)
            let number = milliseconds >= 0 ? milliseconds / 86_400_000 : -((-milliseconds + 86_399_999) / 86_400_000)
            if day?.habit != index || day?.number != number {
                closeDay()
                (day, dayKept, dayRefused) = ((index, number), false, false)
            }
            let rawValue = statement.int(2)
            guard PlausibleTime.days.contains(number),
                  let mark = mark(rawValue, numeric: result.habits[index].kind.isNumeric) else {
                refusedRows += 1
                dayRefused = true
                continue
            }
            dayKept = true
            if rawValue == LoopModel.unknown { continue }
            result.habits[index].marks[number] = mark
            // A note Trend cannot hold is cut to the limit, its control characters dropped: the day still comes in.
            if let note = statement.optionalText(3), let kept = HabitNote.imported(note) { result.habits[index].notes[number] = kept }
        }
        closeDay()
        if refusedDays > 0 {
            let rows = refusedRows > refusedDays ? " (\(refusedRows) rows)" : ""
            result.problems.append("\(counted(refusedDays, "day")) with an impossible date or value\(rows)")
        }
        return result
    }

    /// Loop's frequency as a schedule: 1/1 every day, N/7 N a week, N/M N in M days.
    static func schedule(numerator: Int, denominator: Int) -> HabitSchedule? {
        guard numerator >= 1, denominator >= 1, numerator <= denominator, denominator <= 365 else { return nil }
        if numerator == denominator { return .daily }
        return denominator == 7 ? .timesPerWeek(numerator) : .timesPerDays(times: numerator, days: denominator)
    }

    /// A stored Loop value as a mark; nil when it cannot be one. `-1` (unknown) reads as no mark.
    static func mark(_ value: Int, numeric: Bool) -> HabitMark? {
        if value == LoopModel.unknown { return .no }  // Dropped by the caller; any non-nil will do.
        if numeric {
            let amount = Double(value) / 1000
            return value >= 0 && HabitMark.acceptedValues.contains(amount) ? .value(amount) : nil
        }
        switch value {
        case LoopModel.yesManual, LoopModel.yesAuto: return .done
        case LoopModel.no: return .no
        case LoopModel.skip: return .skipped
        default: return nil
        }
    }
}
