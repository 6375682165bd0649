import Foundation
import Vocabulary

/// Reads heights as people type them: `180 cm`, `180cm`, `1.80 m`, `5ft 11in`,
/// `5'11"`, `71 in`; a bare number is centimetres above 3, metres below.
public enum HeightInput {
    public static let acceptedMetres: ClosedRange<Double> = 0.5...2.8

    public static func parse(_ text: String) throws(SettingsError) -> Double {
        let compact = text.lowercased().replacingOccurrences(of: " ", with: "")
        var metres: Double?
        if let feet = compact.range(of: #"^(\d+)(ft|')(\d+(\.\d+)?)?(in|"|'')?$"#, options: .regularExpression) {
            let match = String(compact[feet])
            let numbers = match.split(whereSeparator: { !$0.isNumber && $0 != "." }).compactMap { Double($0) }
            if let whole = numbers.first {
                metres = (whole * 12 + (numbers.count > 1 ? numbers[1] : 0)) * 0.0254
            }
        } else if let value = number(compact, suffixes: ["cm"]) {
            metres = value / 100
        } else if let value = number(compact, suffixes: ["m"]) {
            metres = value
        } else if let value = number(compact, suffixes: ["in", "\""]) {
            metres = value * 0.0254
        } else if let value = PlainDecimal.parse(compact, maximumLength: 8) {
            metres = value > 3 ? value / 100 : value
        }
        guard let metres else { throw .notAHeight(text) }
        guard acceptedMetres.contains(metres) else { throw .heightOutOfRange(text) }
        return metres
    }

    private static func number(_ text: String, suffixes: [String]) -> Double? {
        for suffix in suffixes where text.hasSuffix(suffix) {
            return PlainDecimal.parse(String(text.dropLast(suffix.count)), maximumLength: 8)
        }
        return nil
    }
}

/// The body-mass index of a weight at a height, and its WHO class.
public struct BodyMassIndex: Sendable, Equatable {
    public let value: Double

    public init(kilograms: Double, metres: Double) {
        value = kilograms / (metres * metres)
    }

    /// The WHO class of adults.
    public enum Class: String, Sendable {
        case underweight, normal, overweight, obeseClassI = "obese class I", obeseClassII = "obese class II",
             obeseClassIII = "obese class III"
    }

    public var whoClass: Class {
        switch value {
        case ..<18.5: .underweight
        case ..<25: .normal
        case ..<30: .overweight
        case ..<35: .obeseClassI
        case ..<40: .obeseClassII
        default: .obeseClassIII
        }
    }
}
