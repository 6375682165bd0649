import Foundation
import Storage
import TextFormats
import Vocabulary

/// HabitBull's CSV export, as Loop Habit Tracker imports it (iSoron/uhabits,
/// `uhabits-core/.../io/HabitBullCSVImporter.kt`, and its test files
/// `uhabits-core/assets/test/habitbull*.csv`): a header
/// `HabitName,HabitDescription,HabitCategory,CalendarDate,Value,CommentText`,
/// then a row per habit and day. A habit comes in at its first row, every
/// day (HabitBull's file holds no schedule); a value of 1 is done and 0 not
/// done, and a habit with a value above 1 counts a number a day. Dates are
/// `yyyy-MM-dd` or the US `M/d/yyyy`. Descriptions and categories have no
/// place in Trend and are passed over.
public enum HabitBullCSV {
    static let header = ["habitname", "habitdescription", "habitcategory"]

    /// Whether `url` starts as HabitBull's export does.
    public static func isOne(_ url: URL) -> Bool {
        guard let handle = try? UntrustedFile.open(url.path) else { return false }  // Unreadable is "not one".
        defer { try? handle.close() }  // Read-only: closing cannot lose anything.
        guard let head = try? handle.read(upToCount: 4 << 10), let first = CSVTable.records(in: head).first else { return false }
        let names = first.fields.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        return Array(names.prefix(3)) == header
    }

    /// Reads the export at `url`; `today` becomes the creation day of a habit without days.
    public static func read(_ url: URL, today: Int) throws -> LoopBackup {
        let table = CSVTable.records(in: try LoopCSV.contents(of: url))
        guard let first = table.first, Array(first.fields.prefix(3).map { $0.trimmingCharacters(in: .whitespaces).lowercased() }) == header
        else { throw HabitsError.notALoopExport(url.path) }
        var result = LoopBackup(habits: [], problems: [])
        var byName: [String: Int] = [:]
        var refused: [String] = []
        for record in table.dropFirst() where !(record.fields.count == 1 && record.fields[0].isEmpty) {
            let field = { (index: Int) -> String in index < record.fields.count ? record.fields[index] : "" }
            let label = "line \(record.line)"
            guard let name = try? HabitName.validated(field(0)) else {  // The reason is given in words.
                refused.append("\(label): the name is empty, too long or holds control characters")
                continue
            }
            let index: Int
            if let known = byName[name.lowercased()] {
                index = known
            } else {
                // As Loop: the habit comes in at its first row, whatever that row holds.
                index = result.habits.count
                byName[name.lowercased()] = index
                result.habits.append(Habit(name: name, schedule: .daily, kind: .yesNo, createdDay: today))
            }
            guard let day = day(field(3)), PlausibleTime.days.contains(day) else {
                refused.append("\(label): '\(field(3).prefix(20))' is not a date (yyyy-MM-dd or M/d/yyyy, from 1900)")
                continue
            }
            guard let value = Double(field(4).trimmingCharacters(in: .whitespaces)), value.isFinite, HabitMark.acceptedValues.contains(value) else {
                refused.append("\(label): '\(field(4).prefix(20))' is not a count")
                continue
            }
            result.habits[index].marks[day] = .value(value)
            if let note = HabitNote.imported(field(5)) { result.habits[index].notes[day] = note }
        }
        // A habit counts a number a day when any of its days holds more than 1; its target is the usual amount.
        for index in result.habits.indices {
            let amounts = result.habits[index].marks.values.compactMap { mark -> Double? in
                if case let .value(amount) = mark { amount } else { nil }
            }
            if let largest = amounts.max(), largest > 1 {
                let counted = amounts.filter { $0 > 0 }.sorted()
                let target = counted[counted.count / 2]
                result.habits[index].kind = .atLeast(target)
                result.assumptions.append("'\(result.habits[index].name)': a number a day with a target of at least \(LoopCSV.amount(target))"
                                          + " (HabitBull's file holds no target; 'habit edit \(result.habits[index].name) …' changes it)")
            } else {
                result.habits[index].marks = result.habits[index].marks.mapValues { $0 == .value(1) ? .done : .no }
            }
        }
        result.problems = Array(refused.prefix(50))
        if refused.count > 50 { result.problems.append("… and \(refused.count - 50) more rows left out") }
        return result
    }

    /// `yyyy-MM-dd`, or `M/d/yyyy` as HabitBull writes it in the US.
    static func day(_ text: String) -> Int? {
        let text = text.trimmingCharacters(in: .whitespaces)
        if let day = DayNumber.parse(text) { return day }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[2].count == 4, let month = Int(parts[0]), let dayOfMonth = Int(parts[1]), let year = Int(parts[2]),
              (1...12).contains(month), dayOfMonth >= 1, dayOfMonth <= LoopModel.monthLength(year: year, month: month) else { return nil }
        return DayNumber.from(year: year, month: month, day: dayOfMonth)
    }
}
