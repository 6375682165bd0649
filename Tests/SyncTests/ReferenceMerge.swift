import Foundation
import Settings

/// The merge rule of DESIGN §8, written again from its words and nothing of
/// Sync's code, per column as cr-sqlite keeps versions: each column of a row
/// takes the value with the highest clock (ms, counter, installation) among
/// every line that carries it (a line's columns at its clock, or at the clock
/// its `v` member gives them); a row shows while a column is newer than its
/// newest tombstone (a delete's clock, or one a line names under `-`); a `+N`
/// newer than the column's set value and the tombstone adds to it, and the
/// set value counts only while newer than the tombstone; a habit day shows
/// only while its habit does. It reads the segment files as JSON
/// (Foundation's parser, not the one Sync uses) and gives the rows every device must show.
enum ReferenceMerge {
    typealias Clock = (Int, Int, String)

    struct Line {
        let clock: Clock
        let op: String
        let image: [String: Any]
        let older: [String: Clock]
        let amount: Double
    }

    static func clock(_ text: Substring) -> Clock? {
        let parts = text.split(separator: ".", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, let ms = Int(parts[0]), let n = Int(parts[1]) else { return nil }
        return (ms, n, String(parts[2]))
    }

    static func rows(from files: [String: Data]) throws -> [String] {
        var lines: [String: [String: [Line]]] = [:]   // table → key → lines
        for (path, data) in files where path.hasSuffix(".jsonl") {
            for line in data.split(separator: 0x0A).dropFirst() {
                guard let object = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
                      let table = object["t"] as? String, let ms = object["ms"] as? NSNumber, let n = object["n"] as? NSNumber,
                      let origin = object["o"] as? String, let op = object["op"] as? String else { continue }
                var image: [String: Any] = [:]
                for (name, value) in object where name.hasPrefix("c.") { image[String(name.dropFirst(2))] = value }
                var older: [String: Clock] = [:]
                for entry in ((object["v"] as? String) ?? "").split(separator: ";") {
                    guard let equals = entry.firstIndex(of: "="), let clock = clock(entry[entry.index(after: equals)...]) else { continue }
                    older[String(entry[..<equals])] = clock
                }
                let key = [object["k0"] as Any, object["k1"] as Any].filter { !($0 is NSNull) && "\($0)" != "nil" }
                let keyText = key.map { "\($0)" }.joined(separator: "|")
                lines[table, default: [:]][keyText, default: []].append(
                    Line(clock: (ms.intValue, n.intValue, origin), op: op, image: image, older: older,
                         amount: (object["amount"] as? NSNumber)?.doubleValue ?? 0))
            }
        }
        /// A row's columns (each its newest value and clock), its newest tombstone, and its additions.
        struct Row {
            var columns: [String: (clock: Clock, value: Any)] = [:]
            var tombstone: Clock?
            var adds: [String: (clock: Clock, amount: Double)] = [:]

            var newest: Clock? { columns.values.map(\.clock).max(by: <) }
        }
        func row(_ all: [Line], additive: String? = nil) -> Row {
            var row = Row()
            for line in all {
                for (column, value) in line.image where !(line.op == "add" && column == additive) {
                    let clock = line.older[column] ?? line.clock
                    if let held = row.columns[column], !(held.clock < clock) { continue }
                    row.columns[column] = (clock, value)
                }
                let dead = line.op == "del" ? line.clock : line.older["-"]
                if let dead, row.tombstone.map({ $0 < dead }) ?? true { row.tombstone = dead }
                if line.op == "add" { row.adds["\(line.clock)"] = (line.clock, line.amount) }
            }
            return row
        }
        func shows(_ row: Row) -> Bool {
            guard let newest = row.newest else { return false }
            return row.tombstone.map { $0 < newest } ?? true
        }
        func number(_ value: Any?) -> Double { (value as? NSNumber)?.doubleValue ?? 0 }
        func text(_ value: Any?) -> String { value.flatMap { $0 is NSNull ? nil : "\($0)" } ?? "-" }
        func value(_ row: Row, _ column: String) -> Any? { row.columns[column]?.value }

        var rows: [String] = []
        for (_, all) in lines["weight_entries"] ?? [:] {
            let row = row(all)
            guard shows(row) else { continue }
            rows.append("w \(text(value(row, "id"))) \(number(value(row, "instant"))) \(number(value(row, "kilograms"))) \(text(value(row, "note")))")
        }
        var habits: Set<String> = []
        for (_, all) in lines["habits"] ?? [:] {
            let row = row(all)
            guard shows(row) else { continue }
            habits.insert(text(value(row, "id")))
            rows.append("h \(text(value(row, "id"))) \(text(value(row, "name")))")
        }
        for (_, all) in lines["habit_records"] ?? [:] {
            let row = row(all, additive: "value")
            let base = row.columns["value"]
            let baseCounts = base.map { base in row.tombstone.map { $0 < base.clock } ?? true } ?? false
            let floor = [base?.clock, row.tombstone].compactMap { $0 }.max(by: <)
            let counted = row.adds.values.filter { add in floor.map { $0 < add.clock } ?? true }
            guard shows(row) || !counted.isEmpty else { continue }
            guard habits.contains(text(value(row, "habit_id"))) else { continue }
            let added = counted.reduce(0) { $0 + $1.amount }
            let shown: Double
            if baseCounts, base?.value is NSNull, counted.isEmpty { shown = -1 } else { shown = (baseCounts ? number(base?.value) : 0) + added }
            rows.append("r \(text(value(row, "habit_id"))) \(Int(number(value(row, "day")))) \(text(value(row, "status"))) \(shown)")
        }
        for (_, all) in lines["settings"] ?? [:] {
            let row = row(all)
            guard shows(row), SettingsTable.portableKeys.contains(text(value(row, "key"))) else { continue }
            rows.append("s \(text(value(row, "key"))) \(text(value(row, "value")))")
        }
        return rows.sorted()
    }
}
