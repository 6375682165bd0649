import Foundation
import Storage
import TextFormats
import Vocabulary

/// The CSV export of Loop Habit Tracker (the unzipped "Loop Habits CSV
/// YYYY-MM-DD.zip"): `Habits.csv` for the habits and the combined
/// `Checkmarks.csv` for their days (iSoron/uhabits, `core/io/HabitsCSVExporter.kt`
/// and `HabitList.writeCSV`). Both layouts Loop has written are read:
///
/// - `Habits.csv` with `FrequencyNumerator,FrequencyDenominator,Type,…`
///   (Loop 2) or the older `NumRepetitions,Interval` columns;
/// - cells as integers (v2.2: `2` yes, `0` no, `3` skip, `1` covered,
///   `-1` unknown) or as labels (`YES_MANUAL`, `NO`, `SKIP`, `YES_AUTO`,
///   `UNKNOWN`: `Entry.formattedValue`). In both, a numeric amount is the
///   integer Loop keeps, × 1000 (`60000` for 60 push-ups: `formattedValue`
///   is `value.toString()` for anything but a mark); an amount written with
///   a decimal point (`8.5`, by hand or by another app) is taken as written.
///
/// Covered and unknown days are Loop's computation, not marks, so they are
/// not imported: the days a person recorded are, and Trend computes the rest
/// as Loop does.
public enum LoopCSV {
    /// Files larger than this are refused before they are read.
    public static let maximumBytes = 64 << 20

    /// Whether `url` is such an export: a folder holding `Habits.csv` and
    /// `Checkmarks.csv`, or one of those two files.
    public static func folder(for url: URL) -> URL? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { return nil }
        let folder = isDirectory.boolValue ? url : url.deletingLastPathComponent()
        if !isDirectory.boolValue, !["habits.csv", "checkmarks.csv"].contains(url.lastPathComponent.lowercased()) { return nil }
        let files = ["Habits.csv", "Checkmarks.csv"].map { folder.appendingPathComponent($0).path }
        return files.allSatisfy { FileManager.default.fileExists(atPath: $0) } ? folder : nil
    }

    public static func read(folder: URL, today: Int) throws -> LoopBackup {
        let habitsTable = CSVTable.records(in: try contents(of: folder.appendingPathComponent("Habits.csv")))
        guard let header = habitsTable.first?.fields.map({ $0.lowercased() }), let nameColumn = header.firstIndex(of: "name") else {
            throw HabitsError.notALoopExport(folder.path)
        }
        func column(_ names: String...) -> Int? { names.lazy.compactMap { header.firstIndex(of: $0) }.first }
        let numeratorColumn = column("frequencynumerator", "numrepetitions"), denominatorColumn = column("frequencydenominator", "interval")
        let typeColumn = column("type"), targetTypeColumn = column("target type"), targetColumn = column("target value")
        let unitColumn = column("unit"), archivedColumn = column("archived?", "archived")
        var result = LoopBackup(habits: [], problems: [])
        var names = Set<String>()
        for record in habitsTable.dropFirst() where record.fields.count > nameColumn {
            let field = { (index: Int?) -> String in index.flatMap { $0 < record.fields.count ? record.fields[$0] : nil } ?? "" }
            let label = "Habits.csv line \(record.line)"
            guard let validName = try? HabitName.validated(field(nameColumn)) else {  // The reason is given in words.
                result.problems.append("\(label): the name is empty, too long or holds control characters")
                continue
            }
            let name = HabitName.distinct(validName, taken: &names)
            if name != validName { result.assumptions.append("\(label): a second habit named '\(validName)' comes in as '\(name)'") }
            let numerator = Int(field(numeratorColumn)) ?? 1, denominator = Int(field(denominatorColumn)) ?? 1
            guard let schedule = LoopBackup.schedule(numerator: numerator, denominator: denominator) else {
                result.problems.append("\(label): frequency \(numerator)/\(denominator) is not a schedule")
                continue
            }
            let numeric = ["NUMERICAL", "1"].contains(field(typeColumn).uppercased())
            let target = Double(field(targetColumn)) ?? 0
            let kind: HabitKind = !numeric ? .yesNo
                : (["AT_MOST", "1"].contains(field(targetTypeColumn).uppercased()) ? .atMost(target) : .atLeast(target))
            guard target.isFinite, target >= 0 else {
                result.problems.append("\(label): target '\(field(targetColumn).prefix(20))' is not a number")
                continue
            }
            let unit = numeric ? ((try? HabitUnit.validated(field(unitColumn))) ?? "") : ""  // An unusable unit is left off.
            result.habits.append(Habit(name: name, schedule: schedule, kind: kind, createdDay: today,
                                       archived: field(archivedColumn).lowercased() == "true", unit: unit))
        }
        try readCheckmarks(folder.appendingPathComponent("Checkmarks.csv"), into: &result)
        return result
    }

    // MARK: A combined Checkmarks.csv on its own

    /// Whether `url` is a combined `Checkmarks.csv` on its own: Loop's
    /// (`Date,Habit A,Habit B,` then a row a day, newest first), or the one
    /// `habit export FILE.csv` writes, under any name. Its header starts with
    /// `Date`, names no weight, and the first rows' cells are all marks Loop
    /// writes (integers or labels): a weight file never looks so.
    public static func isCheckmarks(_ url: URL) -> Bool {
        guard let handle = try? UntrustedFile.open(url.path) else { return false }  // Unreadable is "not one": the weight import says why.
        defer { try? handle.close() }  // Read-only: closing cannot lose anything.
        guard let head = try? handle.read(upToCount: 16 << 10), !head.isEmpty else { return false }  // Unreadable or empty: not one.
        let records = CSVTable.records(in: head).prefix(20)
        guard let header = records.first?.fields.map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }),
              header.first == "date", header.dropFirst().contains(where: { !$0.isEmpty }),
              !header.contains(where: namesAWeight) else { return false }
        // The last record of a cut head may be cut too.
        let rows = records.dropFirst().dropLast(head.count == 16 << 10 ? 1 : 0)
        return !rows.isEmpty && rows.allSatisfy { row in
            DayNumber.parse(row.fields.first ?? "") != nil
                && row.fields.dropFirst().allSatisfy { $0.isEmpty || Int($0) != nil || labels.contains($0) }
        }
    }

    /// Whether a column title names a weight (`Weight (kg)`, `lbs`, `BMI`), not a habit such as "Climb" or "Breakfast".
    static func namesAWeight(_ title: String) -> Bool {
        let words = title.lowercased().split { !$0.isLetter }.map(String.init)
        return title.lowercased().contains("weight") || words.contains(where: weightWords.contains)
    }

    private static let weightWords: Set = ["kg", "kgs", "lb", "lbs", "kilogram", "kilograms", "pound", "pounds", "mass", "bmi", "fat"]

    /// A combined `Checkmarks.csv` read without its `Habits.csv`: one habit a
    /// column. The file holds no schedule, kind or target, so a habit already
    /// here (`known`, by lower-cased name) keeps its own, and a new one is
    /// taken as every day: yes/no when every cell is a mark Loop writes for
    /// yes/no days, else a number a day with the usual amount as its target.
    /// Each such guess is said in `assumptions`.
    public static func read(checkmarks url: URL, today: Int, known: [String: HabitKind]) throws -> LoopBackup {
        let table = CSVTable.records(in: try contents(of: url))
        guard let header = table.first?.fields, header.first?.lowercased() == "date" else { throw HabitsError.notALoopExport(url.path) }
        let labelLayout = table.dropFirst().contains { $0.fields.dropFirst().contains(where: labels.contains) }
        var result = LoopBackup(habits: [], problems: [])
        var names = Set<String>()
        for (offset, title) in header.enumerated().dropFirst() {
            let title = title.trimmingCharacters(in: .whitespaces)
            guard !title.isEmpty else { continue }  // Loop ends each line with a comma.
            guard let validName = try? HabitName.validated(title) else {  // The reason is given in words.
                result.problems.append("Checkmarks.csv column \(offset + 1): the name is empty, too long or holds control characters")
                continue
            }
            let name = HabitName.distinct(validName, taken: &names)
            if name != validName {
                result.assumptions.append("Checkmarks.csv column \(offset + 1): a second habit named '\(validName)' comes in as '\(name)'")
            }
            let cells = table.dropFirst().compactMap { offset < $0.fields.count ? $0.fields[offset] : nil }
            let kind = known[name.lowercased()] ?? guessedKind(cells, labelLayout: labelLayout)
            if known[name.lowercased()] == nil {
                let target = kind.target.map { " with a target of at least \(LoopCSV.amount($0))" } ?? ""
                result.assumptions.append("'\(name)' is new: taken as every day\(kind.isNumeric ? ", a number a day" + target : ", yes or no")"
                                          + " (a Checkmarks.csv holds no schedule or target; 'habit edit \(name) …' changes them)")
            }
            result.habits.append(Habit(name: name, schedule: .daily, kind: kind, createdDay: today, unit: ""))
        }
        try readCheckmarks(table: table, name: url.lastPathComponent, into: &result)
        return result
    }

    /// A column's kind from its cells: numeric when any cell is an amount rather than a yes/no mark.
    static func guessedKind(_ cells: [String], labelLayout: Bool) -> HabitKind {
        let yesNoMarks: Set<Int> = [LoopModel.unknown, LoopModel.no, LoopModel.yesAuto, LoopModel.yesManual, LoopModel.skip]
        let amounts = cells.compactMap { cell -> Double? in
            guard !labels.contains(cell), let number = Double(cell), number.isFinite, number > 0 else { return nil }
            if cell.contains(".") { return number }
            return !labelLayout && Int(cell).map { yesNoMarks.contains($0) } == true ? nil : number / 1000
        }
        guard !amounts.isEmpty else { return .yesNo }
        let sorted = amounts.sorted()
        return .atLeast(sorted[sorted.count / 2])
    }

    /// An amount as a person would write it: `8`, `2.5`.
    static func amount(_ value: Double) -> String {
        PlainDecimal.text(value)
    }

    private static let labels = ["YES_MANUAL", "YES_AUTO", "NO", "SKIP", "UNKNOWN"]

    private static func readCheckmarks(_ url: URL, into result: inout LoopBackup) throws {
        let table = CSVTable.records(in: try contents(of: url))
        guard table.first?.fields.first?.lowercased() == "date" else { throw HabitsError.notALoopExport(url.path) }
        try readCheckmarks(table: table, name: "Checkmarks.csv", into: &result)
    }

    /// The days of `table` (a combined Checkmarks.csv) onto the habits of `result`, matched by column name.
    /// A second column of one name is the second habit of that name, as Habits.csv lists them in order.
    private static func readCheckmarks(table: [CSVTable.Record], name file: String, into result: inout LoopBackup) throws {
        guard let header = table.first?.fields else { return }
        let index = Dictionary(result.habits.enumerated().map { ($1.name.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
        var taken = Set<String>()
        let columns = header.dropFirst().map { title in
            let name = title.trimmingCharacters(in: .whitespaces)
            return (try? HabitName.validated(name)).flatMap { index[HabitName.distinct($0, taken: &taken).lowercased()] }
        }
        var refused: [String] = []
        for record in table.dropFirst() {
            guard let first = record.fields.first, !first.isEmpty else { continue }
            guard let day = DayNumber.parse(first), PlausibleTime.days.contains(day) else {
                refused.append("\(file) line \(record.line): '\(first.prefix(20))' is not a date (yyyy-MM-dd, from 1900)")
                continue
            }
            for (offset, cell) in record.fields.dropFirst().enumerated() where offset < columns.count && !cell.isEmpty {
                guard let habitIndex = columns[offset] else { continue }
                let numeric = result.habits[habitIndex].kind.isNumeric
                switch mark(cell, numeric: numeric) {
                case .some(.some(let mark)): result.habits[habitIndex].marks[day] = mark
                case .some(.none): break
                case .none: refused.append("\(file) line \(record.line): '\(cell.prefix(20))' is not a value Loop writes")
                }
            }
        }
        result.problems += refused.prefix(50)
        if refused.count > 50 { result.problems.append("… and \(refused.count - 50) more cells left out") }
    }

    /// A cell as a mark: `.some(nil)` for a day Loop computed or does not know, nil for a cell Loop never writes.
    static func mark(_ cell: String, numeric: Bool) -> HabitMark?? {
        switch cell {
        case "YES_MANUAL": return .some(.done)
        case "NO": return .some(.no)
        case "SKIP": return .some(.skipped)
        case "YES_AUTO", "UNKNOWN": return .some(nil)
        default: break
        }
        if numeric {
            guard let number = Double(cell), number.isFinite else { return nil }
            if number < 0 { return .some(nil) }
            // Loop keeps amounts × 1000 and writes them so in either layout (`Entry.formattedValue`).
            let amount = cell.contains(".") ? number : number / 1000
            return HabitMark.acceptedValues.contains(amount) ? .some(.value(amount)) : nil
        }
        switch Int(cell) {
        case LoopModel.yesManual?: return .some(.done)
        case LoopModel.no?: return .some(.no)
        case LoopModel.skip?: return .some(.skipped)
        case LoopModel.yesAuto?, LoopModel.unknown?: return .some(nil)
        default: return nil
        }
    }

    static func contents(of url: URL) throws -> Data {
        let handle: FileHandle
        do {
            handle = try UntrustedFile.open(url.path)
        } catch {
            throw HabitsError.unreadableFile(url.path, reason: error.description)
        }
        defer { try? handle.close() }  // Read-only: closing cannot lose anything.
        let size = Int(handle.seekToEndOfFile())
        handle.seek(toFileOffset: 0)
        guard size <= maximumBytes else { throw HabitsError.loopBackupTooLarge(url.path) }
        return try UntrustedFile.contents(of: handle)
    }
}
