import Foundation
import Testing
@testable import WeightLog

/// The JSON export's entries are decoded a batch at a time; the batches are
/// found by `JSONArrayElements` without decoding, so its borders must fall
/// only between elements, whatever the strings hold.
@Suite struct JSONArrayElementsTests {
    @Test func batchesSplitOnlyBetweenElements() throws {
        let text = #"{"entries" : [ {"note":"a, b ] c","n":[1,2]} , {"note":"quote \" , ]"}, 3, "x,y" ,{"a":{"b":[{}]}} ], "format":"f"}"#
        let bytes = Array(text.utf8)
        let open = try #require(bytes.firstIndex(of: UInt8(ascii: "[")))
        for size in 1...6 {
            let pieces: [String] = bytes.withUnsafeBytes { raw in
                var elements = JSONArrayElements(raw, from: open)
                var found: [String] = []
                while let range = elements.next(size) { found.append(String(decoding: raw[range], as: UTF8.self)) }
                #expect(elements.end.map { raw[$0] } == UInt8(ascii: "]"))
                return found
            }
            // Each batch, bracketed, is an array of its elements: together they are the five.
            let decoded = try pieces.flatMap { try #require(JSONSerialization.jsonObject(with: Data(("[" + $0 + "]").utf8)) as? [Any]) }
            #expect(decoded.count == 5, "batches of \(size)")
            #expect(pieces.count == (5 + size - 1) / size)
        }
        let empty = Array(#"{"entries":[ ]}"#.utf8)
        empty.withUnsafeBytes { raw in
            var elements = JSONArrayElements(raw, from: 11)
            #expect(elements.next(3) == nil && elements.end == 13)
        }
        let cut = Array(#"{"entries":[{"a":1},{"b":"#.utf8)
        cut.withUnsafeBytes { raw in
            var elements = JSONArrayElements(raw, from: 11)
            #expect(elements.next(1) != nil)
            #expect(elements.next(1) == nil && elements.end == nil, "a text that ends inside the array has no end")
        }
    }
}
