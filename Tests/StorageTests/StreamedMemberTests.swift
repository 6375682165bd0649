import Foundation
import Testing
@testable import Storage

/// A long array member read a batch at a time from its file's bytes: every
/// element once, in order, whatever the batch size and however the strings
/// try to look like borders; a fingerprint that changes with any byte.
@Suite struct StreamedMemberTests {
    static let text = #"  [ {"note":"a, b ] c","n":[1,2]} , {"note":"quote \" , ]"}, 3, "x,y" ,{"a":{"b":[{}]}} ]  "#

    func batches(_ text: String, size: Int) throws -> (batches: [[Any]], fingerprint: Int) {
        let member = StreamedMember(source: InMemoryBytes(Data(text.utf8)), range: 0..<text.utf8.count)
        var batches: [[Any]] = []
        let fingerprint = try member.forEachBatch(size) { batches.append(try #require(JSONSerialization.jsonObject(with: $0) as? [Any])) }.fingerprint
        return (batches, fingerprint)
    }

    @Test func everyElementOnceInOrderWhateverTheBatchSize() throws {
        let whole = try #require(JSONSerialization.jsonObject(with: Data(Self.text.utf8)) as? [Any])
        for size in 1...6 {
            let (found, _) = try batches(Self.text, size: size)
            #expect(found.map(\.count).allSatisfy { $0 <= size })
            #expect(found.count == (5 + size - 1) / size, "batches of \(size)")
            let elements = found.flatMap { $0 }
            // Sorted keys: a dictionary's order differs from one process to the next.
            #expect(try JSONSerialization.data(withJSONObject: elements, options: .sortedKeys)
                    == (try JSONSerialization.data(withJSONObject: whole, options: .sortedKeys)))
        }
        #expect(try batches("[]", size: 3).batches.isEmpty)
        #expect(try batches("[1]", size: 3).batches.count == 1)
    }

    @Test func theFingerprintFollowsTheBytesAndBrokenArraysThrow() throws {
        let original = try batches(Self.text, size: 2).fingerprint
        #expect(try batches(Self.text, size: 5).fingerprint == original, "the same bytes, whatever the batches")
        #expect(try batches(Self.text.replacingOccurrences(of: "x,y", with: "x,z"), size: 2).fingerprint != original)
        for broken in [#"[{"a":1},{"b":"#, #"{"a":1}"#, "[1,2"] {
            #expect(throws: SnapshotValueError.self, "\(broken)") { try batches(broken, size: 1) }
        }
        // What follows the array is not its business: where it ends is said, and the rest left unread.
        let followed = #"{"entries":[1,[2,"]"]],"format":"f"}"#
        let member = StreamedMember(source: InMemoryBytes(Data(followed.utf8)), range: 11..<followed.utf8.count)
        var elements = 0
        let end = try member.forEachBatch(1) { _ in elements += 1 }.end
        #expect(elements == 2 && Array(followed.utf8)[end] == UInt8(ascii: "]") && end == 21)
        #expect(throws: SnapshotValueError.self, "a range past the end") {
            try StreamedMember(source: InMemoryBytes(Data("[1]".utf8)), range: 0..<9).forEachBatch(1) { _ in }
        }
    }
}
