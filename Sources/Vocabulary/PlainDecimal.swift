import Foundation

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

    /// A number as a person writes it: whole numbers without a decimal point (`8`), others as Swift's shortest
    /// round-trip form (`2.5`); past 10^15, where a double holds no fraction, as Swift writes it. The one rule
    /// for a number as text, used by every screen and message.
    public static func text(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
