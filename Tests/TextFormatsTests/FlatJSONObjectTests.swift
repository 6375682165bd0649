import Foundation
import Testing
@testable import TextFormats
import Vocabulary

/// `FlatJSON.object` reads one flat object as `FlatJSON.objects` reads it when
/// it gives exactly one (what a sync change line was read with before), and
/// refuses what `objects` would not give as one object.
@Suite struct FlatJSONObjectTests {
    func members(_ text: some Collection<UInt8>) -> [String: FlatJSON.Value]? {
        var found: [String: FlatJSON.Value] = [:]
        let read = Array(text).withUnsafeBytes { FlatJSON.object($0) { key, value in found[key] = value; return key != "refused" } }
        return read ? found : nil
    }

    func viaObjects(_ text: some Collection<UInt8>) -> [String: FlatJSON.Value]? {
        let objects = Array(text).withUnsafeBytes { bytes in
            FlatJSON.objects(bytes, make: { [String: FlatJSON.Value]() }) { object, key, value in object[key] = value; return key != "refused" }
        }
        guard let objects, objects.count == 1 else { return nil }
        return objects[0]
    }

    @Test func oneObjectReadsAsObjectsReadsIt() {
        let lines: [[UInt8]] = [
            Array(#"{"t":"weight_entries","k0":"a","ms":1796255838528,"n":0,"c.note":null,"c.kilograms":80.4,"b":true}"#.utf8),
            Array(#"  [ {"a":"naïve ✓ 🏃","b":"say \"hi\"\n","c":-1.5e3} ]  "#.utf8),
            Array("{}".utf8),
            Array(#"{"a":1},{"b":2}"#.utf8),
            Array(#"[{"a":1},{"b":2}]"#.utf8),
            Array(#"{"a":1} x"#.utf8),
            Array(#"{"a":{"nested":1}}"#.utf8),
            Array(#"{"refused":1}"#.utf8),
            Array(#"[{"a":1}"#.utf8),
            Array(#"{"a":01}"#.utf8),
            Array("[]".utf8),
            Array(#"{"a":""#.utf8) + [0xFF, 0x22, 0x7D],  // Not UTF-8.
            Array(#"{"a":""#.utf8) + Array("é".utf8) + [0x22, 0x7D],
        ]
        for line in lines {
            #expect(members(line) == viaObjects(line), "\(String(decoding: line, as: UTF8.self))")
        }
        #expect(members(lines[0])?["c.kilograms"] == .number(80.4) && members(lines[1])?["a"] == .string("naïve ✓ 🏃"))
        #expect(members(lines[3]) == nil && members(lines[11]) == nil && members(lines[12])?["a"] == .string("é"))
    }

    /// A number of fifteen digits or fewer without an exponent is read without `strtod`: each such text
    /// reads to exactly the Double `Double(text)` gives, bit for bit (seeded texts, and the edges).
    @Test func shortNumbersReadBitForBitAsDoubleReadsThem() {
        var random = SplitMix64(seed: 29)
        var texts = ["0", "-0", "0.0", "-0.0", "1", "-1", "79.1", "0.1", "0.3", "999999999999999", "99999999999999.9",
                     "0.000000000000001", "1796255838528", "123456789012345", "9007199254740993", "1234567890123456",
                     "0.1234567890123456", "1e3", "2.5E-3", "1.7976931348623157e308"]
        for _ in 0..<20_000 {
            let digits = 1 + Int(random.next() % 17)
            let point = Int(random.next() % UInt64(digits + 1))
            var text = random.next() % 4 == 0 ? "-" : ""
            for place in 0..<digits {
                if place == point, place > 0 { text += "." }
                let digit = random.next() % 10
                text += String(place == 0 && digit == 0 && point != 1 ? 1 : digit)
            }
            texts.append(text)
        }
        for text in texts {
            guard let expected = Double(text) else { continue }
            let line = Array(#"{"x":\#(text)}"#.utf8)
            #expect(members(line).flatMap { members -> UInt64? in
                if case let .number(read)? = members["x"] { return read.bitPattern } else { return nil }
            } == expected.bitPattern, "\(text)")
        }
    }
}
