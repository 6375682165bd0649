import Foundation
import Testing
@testable import TextFormats

/// Issue 32, item 8: memory follows what is kept, not the longest line. A field is read up to
/// `CSVTable.maximumFieldBytes` and the rest skipped; the record says so, the cut never splits a
/// character, and the records after it read as before.
@Suite struct CSVFieldLimitTests {
    @Test func aFieldLongerThanTheLimitIsCutAtACharacterAndFlagged() {
        let limit = CSVTable.maximumFieldBytes
        // One ASCII byte, then two-byte characters: the limit falls in the middle of one.
        let long = "x" + String(repeating: "é", count: limit)
        let text = "date,weight,note\n2026-01-02,80.2,\(long)\n2026-01-03,80.3,\"quoted \(long)\"\n2026-01-04,80.4,ok\n"
        let records = CSVTable.records(in: Data(text.utf8))
        #expect(records.map(\.line) == [1, 2, 3, 4])
        #expect(records.map(\.hasCutField) == [false, true, true, false])
        let plain = records[1].fields[2], quoted = records[2].fields[2]
        #expect(plain.utf8.count <= limit && plain.utf8.count >= limit - 3)
        #expect(plain.hasPrefix("xéé") && plain.allSatisfy { $0 == "x" || $0 == "é" }, "cut mid-character: \(plain.suffix(3).unicodeScalars.map(\.value))")
        #expect(quoted.hasPrefix("quoted xé") && quoted.utf8.count <= limit && !quoted.contains("\u{FFFD}") && !quoted.contains("Ã"))
        #expect(records[3].fields == ["2026-01-04", "80.4", "ok"])
    }

    @Test func aFieldAtTheLimitIsKeptWhole() {
        let exact = String(repeating: "a", count: CSVTable.maximumFieldBytes)
        let records = CSVTable.records(in: Data("a,\(exact)\nb,c\n".utf8))
        #expect(records[0].fields[1] == exact && !records[0].hasCutField)
        #expect(records[1].fields == ["b", "c"])
    }
}
