import Foundation
import Testing
@testable import TextFormats

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

    /// Numbers are written digit by digit when they are short decimals; the
    /// text must be `description`'s, whatever the number: whole seconds,
    /// weights of one or two places, their negatives, values just below and
    /// above where the short path ends, and doubles of random bits.
    @Test func numbersAreWrittenAsDescriptionWritesThem() {
        var values: [Double] = [0, -0.0, 0.01, 0.05, 0.1, 0.3, 0.1 + 0.2, 1, 80.3, 80.25, 80.05, 99.99, 1e-4, 1e-5,
                                1_500_000_000, -2_208_988_800, 7_258_118_400, 1e13, 1e13 - 1, 1e13 - 0.01, 9_999_999_999_999.5,
                                1e15, 1e16, .leastNonzeroMagnitude, .greatestFiniteMagnitude, .infinity, -.infinity, .nan]
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state
        }
        for _ in 0..<20_000 {
            let whole = Double(next() % 10_000_000_000) - 3_000_000_000
            values.append(whole)
            values.append(whole / 10)
            values.append(whole / 100)
            values.append(whole / 1_000)
            values.append(Double(next() % 50_000) / 100 + 20)
            values.append(Double(bitPattern: next()))
        }
        for value in values {
            var out = CanonicalJSON()
            out.number(value)
            #expect(String(decoding: out.bytes, as: UTF8.self) == value.description, "\(value.bitPattern)")
        }
    }

    @Test func escapesAreTheShortOnes() {
        var out = CanonicalJSON()
        out.string("\"q\"\\\n\r\t\u{1}x")
        #expect(String(decoding: out.bytes, as: UTF8.self) == #""\"q\"\\\n\r\t\u0001x""#)
    }
}
