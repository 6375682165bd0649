import Foundation
import Storage
import TextFormats
import Vocabulary

/// What Loop Habit Tracker's `HabitsCSVExporter` writes (v2.2, the integer
/// layout; iSoron/uhabits `uhabits-core/.../core/io/HabitsCSVExporter.kt`):
///
/// - `Habits.csv`: one row per habit (`HabitList.writeCSV`).
/// - `Checkmarks.csv`: `Date,<habit>,…,` then one row per day from today back
///   to the oldest original entry of any habit, each cell the day's computed
///   value (`-1` unknown, `0` no, `1` covered by a met quota, `2` done,
///   `3` skipped; a numeric day its amount × 1000), each followed by a comma.
/// - `Scores.csv`: the same rows with each habit's strength, `%.4f`.
/// - `NNN Name/Checkmarks.csv` (`date,value` for every known computed day,
///   newest first) and `NNN Name/Scores.csv` (`date,score` from today back to
///   the oldest known day).
///
/// Lines end in LF; dates are `yyyy-MM-dd`. Names are quoted (RFC 4180) only
/// when they hold a comma, quote or line break, where Loop's would break the row.
public enum HabitsCSVExport {
    /// Every file of Loop's export, by path relative to the export folder.
    public static func files(habits: [Habit], today: Int) -> [(path: String, text: String)] {
        let numbers = habits.map { Numbers(habit: $0, today: today) }
        var files: [(String, String)] = [("Habits.csv", habitsList(habits))]
        for (index, habit) in habits.enumerated() {
            let folder = String(format: "%03d %@", index + 1, sanitized(habit.name)).trimmingCharacters(in: .whitespaces)
            files.append((folder + "/Checkmarks.csv", numbers[index].knownDays.map { "\(DayNumber.string($0)),\(numbers[index].computed[$0]!)\n" }.joined()))
            let oldest = numbers[index].knownDays.last ?? today
            files.append((folder + "/Scores.csv", stride(from: today, through: min(oldest, today), by: -1).map {
                "\(DayNumber.string($0)),\(score(numbers[index].strength(on: $0)))\n"
            }.joined()))
        }
        files.append(("Checkmarks.csv", combined(habits: habits, numbers: numbers, today: today) { String($0.value(on: $1)) }))
        files.append(("Scores.csv", combined(habits: habits, numbers: numbers, today: today) { score($0.strength(on: $1)) }))
        return files
    }

    /// Loop's combined `Checkmarks.csv` alone.
    public static func checkmarks(habits: [Habit], today: Int) -> String {
        combined(habits: habits, numbers: habits.map { Numbers(habit: $0, today: today) }, today: today) { String($0.value(on: $1)) }
    }

    /// One habit's computed values and strengths, found once.
    struct Numbers {
        let firstDay: Int
        let computed: [Int: Int]
        let strengths: [Double]
        /// Days with a known computed value, newest first.
        let knownDays: [Int]
        /// The oldest day holding an original (stored) mark.
        let oldestOriginal: Int?

        init(habit: Habit, today: Int) {
            let statistics = HabitStatistics(habit: habit, today: today)
            computed = statistics.computedEntries()
            strengths = statistics.strengths(computed: computed)
            firstDay = habit.firstDay
            knownDays = computed.keys.filter { $0 <= today }.sorted(by: >)
            oldestOriginal = habit.marks.keys.min()
        }

        func value(on day: Int) -> Int { computed[day] ?? LoopModel.unknown }

        func strength(on day: Int) -> Double {
            let index = day - firstDay
            return index >= 0 && index < strengths.count ? strengths[index] : 0
        }
    }

    static func combined(habits: [Habit], numbers: [Numbers], today: Int, cell: (Numbers, Int) -> String) -> String {
        var text = "Date," + habits.map { field($0.name) + "," }.joined() + "\n"
        guard let oldest = numbers.compactMap(\.oldestOriginal).min(), oldest <= today else { return text }
        for day in stride(from: today, through: oldest, by: -1) {
            text += DayNumber.string(day) + ","
            for habitNumbers in numbers { text += cell(habitNumbers, day) + "," }
            text += "\n"
        }
        return text
    }

    /// `HabitList.writeCSV`: position, name, type, question, description,
    /// frequency, colour, unit, target type and value, archived.
    static func habitsList(_ habits: [Habit]) -> String {
        var text = "Position,Name,Type,Question,Description,FrequencyNumerator,FrequencyDenominator,Color,Unit,Target Type,Target Value,Archived?\n"
        for (index, habit) in habits.enumerated() {
            let period = habit.schedule.period
            let target: (type: String, value: String) = switch habit.kind {
            case .yesNo: ("", "")
            case let .atLeast(value): ("AT_LEAST", kotlinDouble(value))
            case let .atMost(value): ("AT_MOST", kotlinDouble(value))
            }
            let columns = [String(format: "%03d", index + 1), field(habit.name), habit.kind.isNumeric ? "NUMERICAL" : "YES_NO", "", "",
                           String(period.times), String(period.days), "#37474F", field(habit.unit), target.type, target.value, String(habit.archived)]
            text += columns.joined(separator: ",") + "\n"
        }
        return text
    }

    static func score(_ value: Double) -> String { String(format: "%.4f", value) }

    /// Kotlin's `Double.toString` for the numbers a target holds: `8.0`, `2.5`.
    static func kotlinDouble(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e7 ? String(format: "%.1f", value) : String(value)
    }

    /// Loop's `sanitizeFilename` (HabitsCSVExporter.kt: `[^ a-zA-Z0-9._-]+` removed, at most 100), but letters of
    /// any script kept: `005 Café sans sucre`, not Loop's `005 Caf sans sucre` (the folder's name is for people;
    /// Loop's importer reads the files, not the name). Combining marks stay with their letter.
    static func sanitized(_ name: String) -> String {
        String(String(name.unicodeScalars.filter {
            $0.properties.isAlphabetic || $0.properties.generalCategory == .nonspacingMark || ("0"..."9").contains($0)
                || " ._-".unicodeScalars.contains($0)
        }).prefix(100))
    }

    /// RFC 4180 quoting when a name holds a comma, quote or line break.
    static func field(_ text: String) -> String { CSVTable.field(text) }
}

extension HabitsFeature {
    /// Writes Loop's combined `Checkmarks.csv` of every habit (archived too) to `url`, atomically, 0600.
    public func exportCSV(to url: URL) async throws -> Int {
        try await load()
        let habits = self.habits, today = self.today
        // Built and written off the main actor: a large history or a slow disk never holds up the prompt.
        try await BlockingPool.shared.run { _ in
            try Data(HabitsCSVExport.checkmarks(habits: habits, today: today).utf8).write(to: url, options: [.atomic])
            chmod(url.path, 0o600)
        }
        return habits.count
    }

    /// Writes every file of Loop's export into the folder `url` (made if missing, 0700; files 0600, each atomically).
    public func exportLoopFolder(to url: URL) async throws -> Int {
        try await load()
        let habits = self.habits, today = self.today
        try await BlockingPool.shared.run { _ in
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            for (path, text) in HabitsCSVExport.files(habits: habits, today: today) {
                let file = url.appendingPathComponent(path)
                try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
                try Data(text.utf8).write(to: file, options: [.atomic])
                chmod(file.path, 0o600)
            }
        }
        return habits.count
    }
}
