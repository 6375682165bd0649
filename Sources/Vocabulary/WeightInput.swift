import Foundation

/// Why a typed weight was refused.
public enum WeightInputError: Error, Equatable, CustomStringConvertible, Sendable {
    case notAWeight(String)
    case outOfRange(String, kilograms: Double)

    public var description: String {
        switch self {
        case let .notAWeight(text): "'\(text)' is not a weight; write it like 82.4, 82.4 kg, 181.6 lb, 12st 6lb or 12.5st"
        case let .outOfRange(text, kilograms):
            String(format: "%@ is %.1f kg, outside the accepted %@; check the number and the unit", text, kilograms, WeightUnit.acceptedKilogramsText)
        }
    }
}

/// Reads weights as people type them: `82.4`, `82.4kg`, `181.6 lb`,
/// `12st 6lb`, `12st6`, `12 st 6 lb`, `12.5st`. Only plain decimal digits are
/// numbers here, so `nan`, `inf`, `1e309` and hex never become weights.
public enum WeightInput {
    /// A weight as it was read: in kilograms, the unit it was typed in, and how many words it took.
    public struct Reading: Sendable, Equatable {
        public let kilograms: Double
        /// The unit typed (`lb` in `181.6 lb`, stones in `12st 6lb`), or the default for a bare number.
        public let unit: WeightUnit
        /// The number typed, before its unit (`181.6`; `12` for `12st 6lb`).
        public let number: Double
        /// How many words of the input it took.
        public let consumed: Int
        /// Whether its first word is the number alone (`82.4 lb`, not `82.4lb` or `12st6`).
        public let startsWithBareNumber: Bool
    }

    /// Parses the weight at the start of `tokens`. A bare number is in `defaultUnit`.
    public static func read(_ tokens: ArraySlice<String>, defaultUnit: WeightUnit) throws(WeightInputError) -> Reading {
        guard let first = tokens.first else { throw .notAWeight("") }
        var text = first
        var consumed = 1
        // Unit words and the pound part of "12 st 6 lb" may follow as their own tokens.
        var index = tokens.index(after: tokens.startIndex)
        while index < tokens.endIndex {
            let token = tokens[index]
            let continuesStone = text.lowercased().hasSuffix("st") && (token.first?.isNumber ?? false)
            guard WeightUnit(word: token) != nil || continuesStone else { break }
            text += token
            consumed += 1
            index = tokens.index(after: index)
        }
        let (kilograms, unit, number) = try reading(text, defaultUnit: defaultUnit)
        let shown = tokens.prefix(consumed).joined(separator: " ")
        guard WeightUnit.acceptedKilograms.contains(kilograms) else { throw .outOfRange(shown, kilograms: kilograms) }
        return Reading(kilograms: kilograms, unit: unit, number: number, consumed: consumed,
                       startsWithBareNumber: !first.contains(where: \.isLetter))
    }

    /// Kilograms at the start of `tokens`, and how many tokens they took.
    public static func parse(_ tokens: ArraySlice<String>, defaultUnit: WeightUnit) throws(WeightInputError) -> (kilograms: Double, consumed: Int) {
        let reading = try read(tokens, defaultUnit: defaultUnit)
        return (reading.kilograms, reading.consumed)
    }

    /// Parses a whole string such as `12st 6lb` into kilograms, range-checked.
    public static func parse(_ text: String, defaultUnit: WeightUnit) throws(WeightInputError) -> Double {
        let tokens = text.split(whereSeparator: \.isWhitespace).map(String.init)
        let (kilograms, consumed) = try parse(tokens[...], defaultUnit: defaultUnit)
        guard consumed == tokens.count else { throw .notAWeight(text) }
        return kilograms
    }

    private static func reading(_ compact: String, defaultUnit: WeightUnit) throws(WeightInputError) -> (Double, WeightUnit, Double) {
        let lower = compact.lowercased()
        var scanner = Substring(lower)
        guard let number = scanNumber(&scanner) else { throw .notAWeight(compact) }
        let unitWord = scanLetters(&scanner)
        if unitWord.isEmpty {
            guard scanner.isEmpty else { throw .notAWeight(compact) }
            return (defaultUnit.kilograms(from: number), defaultUnit, number)
        }
        guard let unit = WeightUnit(word: unitWord) else { throw .notAWeight(compact) }
        if scanner.isEmpty { return (unit.kilograms(from: number), unit, number) }
        // Only stones may carry a pound part: 12st6, 12st6lb, 12st 6.5 lb.
        guard unit == .stones, number == number.rounded(), let pounds = scanNumber(&scanner), pounds < 14 else {
            throw .notAWeight(compact)
        }
        let poundWord = scanLetters(&scanner)
        guard scanner.isEmpty, poundWord.isEmpty || WeightUnit(word: poundWord) == .pounds else {
            throw .notAWeight(compact)
        }
        return ((number * WeightUnit.poundsPerStone + pounds) * WeightUnit.kilogramsPerPound, .stones, number)
    }

    /// Digits with at most one decimal point (`.` or `,`), nothing else.
    private static func scanNumber(_ scanner: inout Substring) -> Double? {
        var digits = ""
        var sawPoint = false
        while let character = scanner.first {
            if character.isASCII, character.isNumber {
                digits.append(character)
            } else if (character == "." || character == ","), !sawPoint {
                sawPoint = true
                digits.append(".")
            } else {
                break
            }
            scanner.removeFirst()
        }
        guard digits.contains(where: \.isNumber), digits.count <= 12 else { return nil }
        return Double(digits.hasPrefix(".") ? "0" + digits : digits)
    }

    private static func scanLetters(_ scanner: inout Substring) -> String {
        var letters = ""
        while let character = scanner.first, character.isASCII, character.isLetter {
            letters.append(character)
            scanner.removeFirst()
        }
        return letters
    }
}
