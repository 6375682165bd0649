import Foundation
import Settings

/// Habit history in Loop Habit Tracker's combined layout: a `Date` column,
/// one column per habit, one row per day, newest first. Yes/no days are `2`
/// done, `3` skipped, `0` not done; numeric days hold their value (empty when
/// none was recorded); `-1` before a habit's first day.
public enum HabitsCSVExport {
    public static func csv(habits: [Habit], today: Int) -> String {
        guard let first = habits.map(\.firstDay).min(), first <= today else {
            return "Date" + habits.map { "," + field($0.name) }.joined() + "\r\n"
        }
        var lines = ["Date" + habits.map { "," + field($0.name) }.joined()]
        lines.reserveCapacity(today - first + 2)
        for day in stride(from: today, through: first, by: -1) {
            var line = DayNumber.string(day)
            for habit in habits {
                line += "," + cell(habit, day: day)
            }
            lines.append(line)
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    static func cell(_ habit: Habit, day: Int) -> String {
        if day < habit.firstDay { return "-1" }
        switch habit.marks[day] {
        case .done?: return habit.kind.isNumeric ? "" : "2"
        case .skipped?: return "3"
        case .no?: return "0"
        case let .value(value)?: return value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : String(value)
        case nil: return habit.kind.isNumeric ? "" : "0"
        }
    }

    /// RFC 4180 quoting when a name holds a comma, quote or line break.
    static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

extension HabitsFeature {
    /// Writes every habit's history (archived too) to `url` in Loop's layout, atomically, 0600.
    public func exportCSV(to url: URL) async throws -> Int {
        try await load()
        let habits = self.habits, today = self.today
        // Built and written off the main actor: a large history or a slow disk never holds up the prompt.
        try await Task.detached(priority: .userInitiated) {
            let text = HabitsCSVExport.csv(habits: habits, today: today)
            try Data(text.utf8).write(to: url, options: [.atomic])
            chmod(url.path, 0o600)
        }.value
        return habits.count
    }
}
