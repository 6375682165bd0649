import Foundation
import Testing
@testable import Storage

/// `CanonicalJSON.string` copies unescaped runs whole: every string, with
/// quotes, backslashes and control characters anywhere in it (first, last,
/// repeated), must come back from `JSONDecoder` as it went in, and its
/// escapes are the short ones where JSON has them.
@Suite struct CanonicalJSONTests {
    @Test func stringsComeBackAsTheyWentIn() throws {
        let pieces = ["a", "é", "€", "𝄞", "\"", "\\", "\n", "\r", "\t", "\u{0}", "\u{1f}", " ", "/", "\u{7f}", "plain text"]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<2_000 {
            var text = ""
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            for step in 0..<Int(state >> 60) {
                text += pieces[Int((state >> UInt64(4 * (step % 14))) % UInt64(pieces.count))]
            }
            var out = CanonicalJSON()
            out.string(text)
            let decoded = try JSONDecoder().decode(String.self, from: Data(out.bytes))
            #expect(decoded == text, "\(Array(text.utf8))")
        }
    }

    @Test func escapesAreTheShortOnes() {
        var out = CanonicalJSON()
        out.string("\"q\"\\\n\r\t\u{1}x")
        #expect(String(decoding: out.bytes, as: UTF8.self) == #""\"q\"\\\n\r\t\u0001x""#)
    }
}
