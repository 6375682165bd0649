import Foundation

/// Reads delimited text per RFC 4180: quoted fields may hold separators,
/// doubled quotes and line breaks; CRLF and LF both end a record; a UTF-8
/// byte-order mark is ignored. Works on bytes, so large files stay quick.
public struct CSVTable {
    /// One record and where it starts.
    public struct Record: Sendable {
        /// The 1-based line the record starts on.
        public let line: Int
        public let fields: [String]
        /// A quote opened on `line` is never closed: the record holds that line's
        /// fields only, and reading went on with the next line rather than
        /// swallowing the rest of the file.
        public var unterminatedQuote = false
        /// A field ran past `maximumFieldBytes`: it holds its first bytes only (the rest was skipped unread into memory).
        public var hasCutField = false
    }

    /// Every record, collected (for the short head of a file).
    public static func records(in data: Data, separator: UInt8 = UInt8(ascii: ",")) -> [Record] {
        var records: [Record] = []
        forEachRecord(in: data, separator: separator) { records.append($0) }
        return records
    }

    /// A field as RFC 4180 writes it: quoted, with doubled quotes, only when it
    /// holds a comma, a quote or a line break. A cell a spreadsheet would run as a formula (it begins with `=`, `+`,
    /// `-`, `@`, a tab or a carriage return, and is not a number) gets a leading `'`, as OWASP's CSV-injection advice
    /// says; Trend's own reading (`forEachRecord`) takes it off again.
    public static func field(_ text: String) -> String {
        let text = isFormula(text) ? "'" + text : text
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Whether a spreadsheet would take a cell for a formula: it begins with `=`, `+`, `-`, `@`, a tab or a carriage
    /// return, and is not a number (`-5.2` and `+3` stay as they are).
    public static func isFormula(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, formulaLeads.contains(first) else { return false }
        return Double(text) == nil
    }

    private static let formulaLeads: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]

    /// A cell as it was before `field` guarded it: the `'` before a formula's first character goes.
    static func unguarded(_ text: String) -> String {
        guard text.hasPrefix("'") else { return text }
        let rest = String(text.dropFirst())
        return isFormula(rest) ? rest : text
    }

    /// The most lines one quoted field may span.
    public static let maximumLinesInAField = 64

    /// The most bytes of one field kept: far more than anything Trend keeps from a field (a note's
    /// 500 characters), so memory follows this and not the longest line of a file.
    public static let maximumFieldBytes = 65_536

    /// Calls `body` with each record in turn, so a large file is never held as rows.
    /// `looksLikeRecordStart`, given the first bytes of the line after a line
    /// break inside a quoted field, says whether that line is a new record
    /// (it starts with a date, say): then the quote was left open by mistake.
    public static func forEachRecord(in data: Data, separator: UInt8 = UInt8(ascii: ","),
                                     looksLikeRecordStart: ((ArraySlice<UInt8>) -> Bool)? = nil, _ body: (Record) -> Void) {
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            let bytes = raw.bindMemory(to: UInt8.self)
            var index = 0
            if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
            var line = 1
            var fields: [String] = []
            var field: [UInt8] = []
            var recordLine = 1
            var inQuotes = false
            var wasQuoted = false
            var quoteOpened = (index: 0, line: 1)
            var cut = false
            let quote = UInt8(ascii: "\""), cr = UInt8(ascii: "\r"), lf = UInt8(ascii: "\n")
            let limit = Self.maximumFieldBytes
            func keep(_ byte: UInt8) {
                if field.count < limit { field.append(byte) } else { cut = true }
            }
            func finishField() {
                // A field cut at the limit ends before a character its last bytes only began.
                if field.count >= limit { field.removeLast(Self.partialCharacterBytes(at: field.endIndex, in: field)) }
                // Surrounding spaces of an unquoted field are not part of it.
                var start = 0, end = field.count
                if !wasQuoted {
                    while start < end, field[start] == 0x20 || field[start] == 0x09 { start += 1 }
                    while end > start, field[end - 1] == 0x20 || field[end - 1] == 0x09 { end -= 1 }
                }
                let text = CSVTable.text(field[start..<end])
                // A cell `field` guarded against a spreadsheet's formulas reads back as it was (one byte looked at).
                fields.append(end > start && field[start] == 0x27 ? CSVTable.unguarded(text) : text)
                field.removeAll(keepingCapacity: true)
                wasQuoted = false
            }
            func finishRecord() {
                finishField()
                if !(fields.count == 1 && fields[0].isEmpty) {
                    body(Record(line: recordLine, fields: fields, hasCutField: cut))
                }
                fields.removeAll(keepingCapacity: true)
                cut = false
            }
            scanning: while true {
            while index < bytes.count {
                let byte = bytes[index]
                if inQuotes {
                    if byte == quote {
                        if index + 1 < bytes.count, bytes[index + 1] == quote {
                            keep(quote)
                            index += 1
                        } else {
                            inQuotes = false
                        }
                    } else {
                        if byte == lf {
                            line += 1
                            // A quoted field longer than this is a quote left open, not a note:
                            // stop here, so a file of stray quotes is still read in linear time.
                            if line - quoteOpened.line > Self.maximumLinesInAField { break }
                            if let looksLikeRecordStart, looksLikeRecordStart(Array(bytes[(index + 1)..<min(bytes.count, index + 33)])[...]) { break }
                        }
                        keep(byte)
                    }
                } else if byte == quote, field.isEmpty, !wasQuoted {
                    inQuotes = true
                    wasQuoted = true
                    quoteOpened = (index, line)
                } else if byte == separator {
                    finishField()
                } else if byte == lf || byte == cr {
                    finishRecord()
                    if byte == cr, index + 1 < bytes.count, bytes[index + 1] == lf { index += 1 }
                    line += 1
                    recordLine = line
                } else {
                    // This byte and the plain ones after it, copied at once.
                    var end = index + 1
                    while end < bytes.count, bytes[end] != separator, bytes[end] != lf, bytes[end] != cr, bytes[end] != quote { end += 1 }
                    let room = max(0, limit - field.count)
                    if end - index > room { cut = true }
                    field.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<min(end, index + room)]))
                    index = end
                    continue
                }
                index += 1
            }
            if inQuotes {
                // The quote never closed: keep the opening line's fields, flag the record, and read on from the next line.
                var end = quoteOpened.index + 1
                while end < bytes.count, bytes[end] != lf, bytes[end] != cr { end += 1 }
                field = Array(bytes[(quoteOpened.index + 1)..<min(end, quoteOpened.index + 1 + limit)])
                finishField()
                body(Record(line: quoteOpened.line, fields: fields, unterminatedQuote: true, hasCutField: cut || end - quoteOpened.index - 1 > limit))
                fields.removeAll(keepingCapacity: true)
                cut = false
                inQuotes = false
                if end < bytes.count, bytes[end] == cr, end + 1 < bytes.count, bytes[end + 1] == lf { end += 1 }
                index = end + 1
                line = quoteOpened.line + 1
                recordLine = line
                continue scanning
            }
            if !field.isEmpty || !fields.isEmpty { finishRecord() }
            break
            }
        }
    }

    /// How many bytes at the end of `bytes` (before `end`) begin a UTF-8 character they do not finish: 0 to 3.
    static func partialCharacterBytes(at end: Int, in bytes: [UInt8]) -> Int {
        var back = 0
        while back < 3, end - back - 1 >= 0, bytes[end - back - 1] & 0xC0 == 0x80 { back += 1 }
        guard end - back - 1 >= 0 else { return 0 }
        let lead = bytes[end - back - 1]
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
        return length > back + 1 ? back + 1 : 0
    }

    /// A field's text: UTF-8 when the bytes are UTF-8, else Windows-1252, as
    /// older exporters write (Hacker's Diet Online, Excel): `se\u{F1}or`
    /// stays `señor` instead of becoming `se\u{FFFD}or`.
    static func text(_ bytes: ArraySlice<UInt8>) -> String {
        // The usual field is ASCII: made without the validating decoder (a million rows, several fields each).
        if !bytes.contains(where: { $0 >= 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        var scalars = String.UnicodeScalarView()
        for byte in bytes {
            let special = (0x80...0x9F).contains(byte) ? windows1252[Int(byte) - 0x80] : 0
            scalars.append(Unicode.Scalar(special != 0 ? special : UInt32(byte)).map { $0 } ?? "?")
        }
        return String(scalars)
    }

    /// Windows-1252's characters for the bytes 0x80–0x9F (0: as Latin-1).
    private static let windows1252: [UInt32] = [
        0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
        0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
    ]
}
