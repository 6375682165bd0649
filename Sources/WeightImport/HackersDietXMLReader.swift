import Foundation
import Vocabulary

/// Hacker's Diet Online's XML backup (`hackdiet_db.xml`): a `<hackersdiet>`
/// root, the account's `<preferences>` with its `<log-unit>`, then a
/// `<monthlog>` per month with its `<year>`, `<month>` and `<weight-unit>`
/// and a `<day>` per day (`<date>` the day of the month, `<weight>`,
/// `<rung>`, `<flag>`, `<comment>`). Layout as an open tracker's import tests
/// reproduce real exports (Kilo Tracker, AGPL); HDO's own `xml.pm` quotes
/// characters above U+007F as `&#x…;`.
///
/// The file goes through libxml2's reader (`XMLStream`): the DOCTYPE names
/// an external DTD, which is never fetched, and no entity is expanded but
/// XML's own and character references. A backup cut short or damaged is
/// refused at its line. Each day becomes a weigh-in at noon of that day, in
/// the month's own unit (a stone log holds pounds).
struct HackersDietXMLReader {
    let rows: WeightFileReader

    /// Whether the head of a file is this format's.
    static func recognises(_ head: String) -> Bool {
        head.contains("<hackersdiet")
    }

    func read(_ data: Data, path: String) throws -> ReadOutcome {
        var outcome = ReadOutcome(format: .hackersDietXML, unit: rows.displayUnit, unitAssumed: true)
        var offset = 0
        let stream: XMLStream
        do {
            stream = try XMLStream {
                defer { offset = min(data.count, offset + 1 << 16) }
                return data.subdata(in: offset..<min(data.count, offset + 1 << 16))
            }
        } catch {
            throw ImportError.unreadable(path, reason: "reading a Hacker's Diet backup needs libxml2 (Debian's libxml2)")
        }
        // The names of the elements the reader is inside, by depth, and the text of the ones that matter.
        var stack: [String] = []
        var text: [String: String] = [:]
        var month: (year: Int?, month: Int?, unit: WeightUnit?) = (nil, nil, nil)
        /// A month's `<weight-unit>` that names no unit Trend knows: its days are refused, naming it, never read in another unit.
        var unknownUnit: String?
        var day: (line: Int, depth: Int)?
        var index = 0
        func number(_ name: String) -> Int? { text[name].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } }
        func finishDay() {
            index += 1
            defer { day = nil }
            guard let line = day?.line else { return }
            let weight = text["weight"].map(Self.trimmed) ?? "", comment = text["comment"].map(Self.trimmed)
            if let unknownUnit {
                outcome.invalid.append(ImportProblem(line: line, reason: "its month's weight unit '\(unknownUnit.prefix(20))' is not kg, lb or st"))
                return
            }
            guard let year = month.year, let monthNumber = month.month, let dayNumber = number("date") else {
                outcome.invalid.append(ImportProblem(line: line, reason: "day \(index) names no year, month and day"))
                return
            }
            let date = String(format: "%04d-%02d-%02d", year, monthNumber, dayNumber)
            rows.add(line, dateText: date, weightText: weight, unit: month.unit ?? outcome.unit, note: comment, id: nil, to: &outcome)
        }
        do {
            try stream.forEachNode { node in
                switch node {
                case let .element(element):
                    if element.depth == 0, stream.rootName != "hackersdiet" { return false }
                    stack.removeSubrange(min(stack.count, element.depth)...)
                    stack.append(element.name)
                    text[element.name] = nil
                    switch stack.last {
                    case "monthlog":
                        month = (nil, nil, nil)
                        unknownUnit = nil
                    case "day":
                        day = (element.line, element.depth)
                        for name in ["date", "weight", "comment"] { text[name] = nil }
                        if element.isEmpty { finishDay() }
                    default: break
                    }
                case let .text(value, depth):
                    guard depth >= 1, depth - 1 < stack.count else { return true }
                    text[stack[depth - 1], default: ""] += value
                case let .end(depth):
                    guard depth < stack.count else { return true }
                    let name = stack[depth]
                    stack.removeSubrange(depth...)
                    switch name {
                    case "log-unit" where stack.contains("preferences"):
                        if let unit = text[name].flatMap({ WeightFileReader.hackersDietUnit(named: Self.trimmed($0)) }) {
                            (outcome.unit, outcome.unitAssumed) = (unit, false)
                        }
                    case "year" where stack.contains("monthlog") && day == nil: month.year = number("year")
                    case "month" where stack.contains("monthlog") && day == nil: month.month = number("month")
                    case "weight-unit" where stack.contains("monthlog") && day == nil:
                        let word = text[name].map(Self.trimmed) ?? ""
                        month.unit = WeightFileReader.hackersDietUnit(named: word)
                        if month.unit == nil, !word.isEmpty { unknownUnit = word }
                        if let unit = month.unit, outcome.unitAssumed { (outcome.unit, outcome.unitAssumed) = (unit, false) }
                    case "day" where day?.depth == depth: finishDay()
                    default: break
                    }
                }
                return true
            }
        } catch let failure as XMLStream.Failure {
            switch failure {
            case let .cutShort(line):
                throw ImportError.unreadable(path, reason: "it ends at line \(line) before <hackersdiet> closes: the backup was cut short, so nothing was imported")
            case let .malformed(reason, line):
                throw ImportError.unreadable(path, reason: "the XML parser stopped at line \(line): \(reason); the backup is damaged, so nothing was imported")
            case .noLibrary:
                throw ImportError.unreadable(path, reason: "reading a Hacker's Diet backup needs libxml2 (Debian's libxml2)")
            }
        }
        guard stream.rootName == "hackersdiet" else { throw ImportError.unknownFormat(path) }
        return outcome
    }

    /// Element text without the spaces and line breaks around it.
    static func trimmed(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
