import Foundation
import Testing
@testable import WeightImport
@testable import WeightLog
import Vocabulary

/// The weight store's entries, read by `FlatJSON`, must read every batch exactly as
/// `JSONDecoder` does, or give nil and leave it to `JSONDecoder`: never a
/// different entry. Seeded: a failure reproduces.
@Suite struct StoreEntryTests {
    static func parse(_ text: String) -> [StoreEntry]? {
        Array(text.utf8).withUnsafeBytes { StoreEntry.entries($0) }
    }

    static func decode(_ text: String) -> [StoreEntry]? {
        try? JSONDecoder().decode([StoreEntry].self, from: Data(("[" + text + "]").utf8))  // Nil: the decoder refuses it.
    }

    /// A string written the ways JSON allows: plain, escaped, `\u` escapes, surrogate pairs.
    static func jsonString(_ text: String, _ rng: inout SplitMix64) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            let style = rng.next() % 3
            if scalar.value == 0x22 {
                out += "\\\""
            } else if scalar.value == 0x5C {
                out += "\\\\"
            } else if style != 0, let short = [0x08: "\\b", 0x09: "\\t", 0x0A: "\\n", 0x0C: "\\f", 0x0D: "\\r"][scalar.value] {
                out += short
            } else if scalar.value < 0x20 || (style == 0 && scalar.value < 0x10000) {
                out += String(format: rng.next() % 2 == 0 ? "\\u%04x" : "\\u%04X", scalar.value)
            } else if scalar.value >= 0x10000, style == 0 {
                let value = scalar.value - 0x10000
                out += String(format: "\\u%04x\\u%04X", 0xD800 + (value >> 10), 0xDC00 + (value & 0x3FF))
            } else if scalar.value == 0x2F, style == 1 {
                out += "\\/"
            } else {
                out += String(scalar)
            }
        }
        return out + "\""
    }

    @Test func everyEntryReadsAsJSONDecoderReadsIt() {
        var rng = SplitMix64(seed: 18)
        let pieces = ["a", "é", "☃", "🏋️", "\"", "\\", "/", "\n", "\t", "\r", "\u{8}", "\u{C}", "\u{1}", " ", "after the run", ",", "]", "}"]
        let numbers = ["80", "80.5", "-3", "0", "0.25", "1e2", "1.5E-3", "7.25e+1", "120.123456789012"]
        for _ in 0..<300 {
            var entries: [String] = []
            for _ in 0..<Int(rng.next() % 5) {
                var members: [String] = []
                for key in ["date", "id", "trendID", "kilograms", "note", "bodyFatPercent", "extra", "flag"].shuffled(using: &rng)
                where rng.next() % 3 != 0 {
                    let value: String
                    switch key {
                    case "kilograms", "bodyFatPercent": value = rng.next() % 6 == 0 ? "null" : numbers[Int(rng.next() % UInt64(numbers.count))]
                    case "flag": value = rng.next() % 2 == 0 ? "true" : "false"
                    case "extra": value = rng.next() % 2 == 0 ? "12" : "null"
                    default:
                        let text = (0..<Int(rng.next() % 6)).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined()
                        value = rng.next() % 8 == 0 ? "null" : Self.jsonString(text, &rng)
                    }
                    let space = rng.next() % 4 == 0 ? " \n " : ""
                    members.append("\"\(key)\"\(space):\(space)\(value)")
                }
                entries.append("{" + members.joined(separator: rng.next() % 2 == 0 ? "," : " ,\n ") + "}")
            }
            let text = entries.joined(separator: rng.next() % 2 == 0 ? "," : ",\n  ")
            let parsed = Self.parse(text)
            #expect(parsed != nil, "every entry here has the usual shape: \(text)")
            #expect(parsed == Self.decode(text), "\(text)")
        }
    }

    @Test func anythingElseIsLeftToTheDecoder() {
        let cases = [
            #"{"note":"a\qb"}"#, #"{"note":"a"#, #"{"kilograms":"80"}"#, #"{"kilograms":080}"#, #"{"kilograms":1.}"#,
            #"{"kilograms":-}"#, #"{"note":"\ud800"}"#, "{\"note\":\"tab\u{9}inside\"}", #"{"date":12}"#, #"{"id":true}"#,
            #"{"a":1}{"a":2}"#, #"{"a":1},"#, #"{"a":1,}"#, #"{"extra":{"nested":[1,2]}}"#, #"{"extra":[1]}"#, #"[1]"#, #"{"a" 1}"#,
        ]
        for text in cases {
            let parsed = Self.parse(text)
            #expect(parsed == nil, "\(text)")
            if let parsed { #expect(parsed == Self.decode(text)) }
        }
        // Nested members the entry does not have are the decoder's to read; it reads them as it always did.
        #expect(Self.decode(#"{"extra":{"nested":[1,2]},"kilograms":80}"#) == [StoreEntry(kilograms: 80)])
        #expect(Self.parse("") == [])
        // Bracketed, as a snapshot's batches are: the same objects; an array that does not close is not one.
        #expect(Self.parse(#"[ {"kilograms":80} , {"note":"a"} ]"#) == [StoreEntry(kilograms: 80), StoreEntry(note: "a")])
        #expect(Self.parse("[]") == [])
        #expect(Self.parse(#"[{"kilograms":80}"#) == nil)
        #expect(Self.parse(#"[{"kilograms":80}] 1"#) == nil)
    }
}
