import Foundation

/// The unit tape measures are typed and shown in. Storage is always centimetres.
public enum LengthUnit: String, Sendable, CaseIterable, Codable {
    case centimetres = "cm"
    case inches = "in"

    public static let centimetresPerInch = 2.54

    /// Reads a unit word: `cm`, `cms`, `centimetres`, `in`, `inch`, `inches`, `"`.
    public init?(word: String) {
        switch word.lowercased() {
        case "cm", "cms", "centimetre", "centimetres", "centimeter", "centimeters": self = .centimetres
        case "in", "ins", "inch", "inches", "\"", "″": self = .inches
        default: return nil
        }
    }

    /// The unit a person who weighs in `unit` most likely measures in: inches with pounds or stones.
    public static func usual(with unit: WeightUnit) -> LengthUnit {
        unit == .kilograms ? .centimetres : .inches
    }

    /// The unit's name in a sentence: "in inches".
    public var name: String { self == .centimetres ? "centimetres" : "inches" }

    /// A height for a person to read in this unit: `1.65 m`, or `5 ft 5 in (1.65 m)`.
    public func height(_ metres: Double) -> String {
        let inMetres = WeightUnit.fixed(metres, decimals: 2) + " m"
        guard self == .inches else { return inMetres }
        let inches = Int((metres * 100 / Self.centimetresPerInch).rounded())
        return "\(inches / 12) ft \(inches % 12) in (\(inMetres))"
    }

    public var centimetresPerUnit: Double { self == .centimetres ? 1 : Self.centimetresPerInch }
    public func centimetres(from value: Double) -> Double { value * centimetresPerUnit }
    public func value(fromCentimetres centimetres: Double) -> Double { centimetres / centimetresPerUnit }

    /// A length for a person to read, to one decimal: `84.0 cm`, `33.1 in`.
    public func format(_ centimetres: Double) -> String {
        WeightUnit.fixed(value(fromCentimetres: centimetres), decimals: 1) + " " + rawValue
    }

    /// A signed change, e.g. `−1.2 cm`.
    public func formatChange(_ centimetres: Double, decimals: Int = 1) -> String {
        WeightUnit.signed(value(fromCentimetres: centimetres), decimals: decimals) + " " + rawValue
    }
}
