import Foundation
import Settings
import WeightLog

/// Hacker's Diet Online's XML backup (`hackdiet_db.xml`): a `<hackersdiet>`
/// root, the account's `<preferences>` with its `<log-unit>`, then a
/// `<monthlog>` per month with its `<year>`, `<month>` and `<weight-unit>`
/// and a `<day>` per day (`<date>` the day of the month, `<weight>`,
/// `<rung>`, `<flag>`, `<comment>`). Layout as an open tracker's import tests
/// reproduce real exports (Kilo Tracker, AGPL); HDO's own `xml.pm` quotes
/// characters above U+007F as `&#x…;`.
///
/// The file is read as text and its elements found by name: no parser is
/// given the DOCTYPE, so nothing is fetched and no entity is expanded but
/// the five XML ones and character references. Each day becomes a weigh-in
/// at noon of that day, in the month's own unit (a stone log holds pounds).
struct HackersDietXMLReader {
    let rows: WeightFileReader

    /// Whether the head of a file is this format's.
    static func recognises(_ head: String) -> Bool {
        head.contains("<hackersdiet")
    }

    func read(_ data: Data) -> ReadOutcome {
        let text = String(decoding: data, as: UTF8.self)
        var outcome = ReadOutcome(format: .hackersDietXML, unit: rows.displayUnit, unitAssumed: true)
        if let preferences = Self.element("preferences", in: Substring(text)),
           let unit = Self.element("log-unit", in: preferences).flatMap({ WeightFileReader.hackersDietUnit(named: String($0)) }) {
            (outcome.unit, outcome.unitAssumed) = (unit, false)
        }
        var rest = Substring(text)
        var index = 0
        // Problems name the line a day is on, counted as the walk moves down the file.
        var counted = text.startIndex, lineNumber = 1
        func line(of position: String.Index) -> Int {
            lineNumber += text.utf8[counted..<position].reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            counted = position
            return lineNumber
        }
        while let month = Self.element("monthlog", in: rest, remainder: &rest) {
            let properties = Self.element("properties", in: month) ?? month
            let unit = Self.element("weight-unit", in: properties).flatMap { WeightFileReader.hackersDietUnit(named: String($0)) }
            if let unit, outcome.unitAssumed { (outcome.unit, outcome.unitAssumed) = (unit, false) }
            let year = Self.element("year", in: properties).flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            let monthNumber = Self.element("month", in: properties).flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            var days = Self.element("days", in: month) ?? month
            while let day = Self.element("day", in: days, remainder: &days) {
                index += 1
                let dayLine = line(of: day.startIndex)
                let weight = Self.element("weight", in: day).map { Self.text($0) } ?? ""
                let comment = Self.element("comment", in: day).map { Self.text($0) }
                guard let year, let monthNumber, let dayNumber = Self.element("date", in: day).flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) else {
                    outcome.invalid.append(ImportProblem(line: dayLine, reason: "day \(index) names no year, month and day"))
                    continue
                }
                let date = String(format: "%04d-%02d-%02d", year, monthNumber, dayNumber)
                rows.add(dayLine, dateText: date, weightText: weight, unit: unit ?? outcome.unit, note: comment, id: nil, to: &outcome)
            }
        }
        return outcome
    }

    /// The content of the first `<name>…</name>` (or nothing for `<name/>`) in `text`.
    static func element(_ name: String, in text: Substring) -> Substring? {
        var ignored = text
        return element(name, in: text, remainder: &ignored)
    }

    /// The same, and what follows the element in `remainder`.
    static func element(_ name: String, in text: Substring, remainder: inout Substring) -> Substring? {
        var search = text
        while let open = find("<" + name, in: search) {
            let after = search[open.upperBound...]
            // `<day>` must not match `<days>`: the name ends at `>`, `/` or a space.
            guard let next = after.first, next == ">" || next == "/" || next == " " else {
                search = after
                continue
            }
            guard let close = after.firstIndex(of: ">") else { return nil }
            if close > after.startIndex, after[after.index(before: close)] == "/" {
                remainder = after[after.index(after: close)...]
                return after[close..<close]
            }
            let body = after[after.index(after: close)...]
            guard let end = find("</" + name + ">", in: body) else { return nil }
            remainder = body[end.upperBound...]
            return body[..<end.lowerBound]
        }
        return nil
    }

    /// Where `needle` first stands in `text`, found over the UTF-8 bytes (Foundation's
    /// `range(of:)` would bridge the rest of the file at every call).
    static func find(_ needle: String, in text: Substring) -> Range<Substring.Index>? {
        let pattern = Array(needle.utf8)
        guard let first = pattern.first else { return nil }
        let bytes = text.utf8
        var index = bytes.startIndex
        while let start = bytes[index...].firstIndex(of: first) {
            var cursor = start, matched = 0
            while matched < pattern.count, cursor < bytes.endIndex, bytes[cursor] == pattern[matched] {
                cursor = bytes.index(after: cursor)
                matched += 1
            }
            if matched == pattern.count { return start..<cursor }
            index = bytes.index(after: start)
        }
        return nil
    }

    /// Element text with its entities and character references decoded, trimmed.
    static func text(_ raw: Substring) -> String {
        TagScanner.decodeEntities(String(raw)).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
