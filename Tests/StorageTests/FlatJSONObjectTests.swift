import Foundation
import Testing
@testable import Storage

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
}
