import Foundation

/// What particular apps' files do that a plain CSV does not: Hacker's Diet
/// Online's Perl escapes, openScale 2.0's day-first dates, and the row start
/// that tells an unclosed quote (Libra's midnight placeholders are beside its reader).
extension WeightFileReader {
    /// Hacker's Diet Online writes characters above U+00FF as Perl escapes, `\x{20ac}`: decoded back
    /// (an escape that is not a character stays as written).
    static func perlEscapes(_ text: String) -> String {
        guard text.contains("\\x{") else { return text }
        var out = ""
        var rest = Substring(text)
        while let start = rest.range(of: "\\x{") {
            out += rest[..<start.lowerBound]
            guard let close = rest[start.upperBound...].firstIndex(of: "}"),
                  rest.distance(from: start.upperBound, to: close) <= 6,
                  let value = UInt32(rest[start.upperBound..<close], radix: 16), let scalar = Unicode.Scalar(value) else {
                out += "\\x{"
                rest = rest[start.upperBound...]
                continue
            }
            out.unicodeScalars.append(scalar)
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }

    /// openScale 2.0–2.1.1 wrote `18.04.2019 11:51` (day first, dots): as `2019-04-18 11:51`; nil for other text.
    static func dayFirst(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 10, bytes[2] == UInt8(ascii: "."), bytes[5] == UInt8(ascii: "."),
              [0, 1, 3, 4, 6, 7, 8, 9].allSatisfy({ (0x30...0x39).contains(bytes[$0]) }) else { return nil }
        let day = String(decoding: bytes[0..<2], as: UTF8.self), month = String(decoding: bytes[3..<5], as: UTF8.self)
        let year = String(decoding: bytes[6..<10], as: UTF8.self)
        return "\(year)-\(month)-\(day)" + String(decoding: bytes[10...], as: UTF8.self)
    }

    /// Whether a line starts with a date (`2026-01-03`, `03.01.2026`, `1/3/2026`): a weight
    /// file's next row, so a quoted field that runs into it was left open.
    static func startsWithDate(_ bytes: ArraySlice<UInt8>) -> Bool {
        var digits = 0
        for byte in bytes {
            if (0x30...0x39).contains(byte) { digits += 1; continue }
            return (1...4).contains(digits) && (byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "/"))
        }
        return false
    }
}
