/// A small, fast, seeded generator (SplitMix64): the same seed gives the
/// same numbers everywhere. For shuffling tips, fresh entry ids and test
/// data — not for secrets.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Plain decimal numbers as files and people write them: digits with at most
/// one `.` or `,`. No signs, exponents, hex, `nan` or `inf`, so nothing odd
/// can become a weight or a habit value.
public enum PlainDecimal {
    public static func parse(_ text: String, maximumLength: Int = 32) -> Double? {
        // Read as bytes: an import calls this a million times. Digits and one `.` or `,` (read as `.`), nothing else.
        var sawPoint = false, sawDigit = false, comma = false, count = 0
        for byte in text.utf8 {
            count += 1
            switch byte {
            case 0x30...0x39: sawDigit = true
            case 0x2E, 0x2C:
                guard !sawPoint else { return nil }
                sawPoint = true
                comma = byte == 0x2C
            default: return nil
            }
        }
        guard sawDigit, count <= maximumLength else { return nil }
        guard comma || text.utf8.first == 0x2E else { return Double(text) }
        let plain = text.replacingOccurrences(of: ",", with: ".")
        return Double(plain.hasPrefix(".") ? "0" + plain : plain)
    }
}
