import Foundation

/// The unit weights are typed and shown in. Storage is always kilograms.
public enum WeightUnit: String, Sendable, CaseIterable, Codable {
    case kilograms = "kg"
    case pounds = "lb"
    case stones = "st"

    public static let kilogramsPerPound = 0.45359237
    public static let poundsPerStone = 14.0

    /// The weights Trend accepts, in kilograms.
    public static let acceptedKilograms: ClosedRange<Double> = 20...500
    /// The accepted range as messages write it: "20–500 kg" (the table's CHECK says the same; `SchemaTests` holds them together).
    public static var acceptedKilogramsText: String {
        "\(Int(acceptedKilograms.lowerBound))–\(Int(acceptedKilograms.upperBound)) kg"
    }

    /// A weight as a message says it, in this unit: `9.0 lb`.
    public func said(_ kilograms: Double) -> String {
        String(format: "%.1f %@", kilograms / kilogramsPerUnit, rawValue)
    }

    /// The accepted range in this unit: `45–1102 lb`.
    public var acceptedText: String {
        guard self != .kilograms else { return Self.acceptedKilogramsText }
        let low = Int((Self.acceptedKilograms.lowerBound / kilogramsPerUnit).rounded(.up))
        let high = Int((Self.acceptedKilograms.upperBound / kilogramsPerUnit).rounded(.down))
        return "\(low)–\(high) \(rawValue)"
    }

    /// Why a weight is refused, said in this unit, with kilograms in brackets when this is another:
    /// `9.0 lb (4.1 kg) is outside 45–1102 lb (20–500 kg)`.
    public func outsideAccepted(_ kilograms: Double) -> String {
        guard self != .kilograms else { return "\(said(kilograms)) is outside \(Self.acceptedKilogramsText)" }
        return "\(said(kilograms)) (\(Self.kilograms.said(kilograms))) is outside \(acceptedText) (\(Self.acceptedKilogramsText))"
    }

    /// Reads a unit word: `kg`, `kgs`, `kilograms`, `lb`, `lbs`, `pounds`, `st`, `stone`.
    public init?(word: String) {
        switch word.lowercased() {
        case "kg", "kgs", "kilo", "kilos", "kilogram", "kilograms": self = .kilograms
        case "lb", "lbs", "pound", "pounds": self = .pounds
        case "st", "stone", "stones": self = .stones
        default: return nil
        }
    }

    /// Kilograms in one of this unit.
    public var kilogramsPerUnit: Double {
        switch self {
        case .kilograms: return 1
        case .pounds: return Self.kilogramsPerPound
        case .stones: return Self.kilogramsPerPound * Self.poundsPerStone
        }
    }

    /// The unit a file is written in for a person who reads this one: stones
    /// become pounds, which every reader of a weight column takes (the
    /// original Trend app refuses `st`).
    public var fileUnit: WeightUnit { self == .stones ? .pounds : self }

    public func kilograms(from value: Double) -> Double { value * kilogramsPerUnit }
    public func value(fromKilograms kilograms: Double) -> Double { kilograms / kilogramsPerUnit }

    /// A weight for a person to read, to one decimal (stones as `12 st 6.5 lb`).
    public func format(_ kilograms: Double) -> String {
        switch self {
        case .kilograms:
            return Self.fixed(kilograms, decimals: 1) + " kg"
        case .pounds:
            return Self.fixed(kilograms / Self.kilogramsPerPound, decimals: 1) + " lb"
        case .stones:
            let tenthsOfPounds = (kilograms / Self.kilogramsPerPound * 10).rounded()
            let stones = Int(tenthsOfPounds / (Self.poundsPerStone * 10))
            let pounds = (tenthsOfPounds - Double(stones) * Self.poundsPerStone * 10) / 10
            return "\(stones) st " + Self.fixed(pounds, decimals: 1) + " lb"
        }
    }

    /// A weigh-in as it was typed: one decimal, or two when the weight has
    /// them in this unit (81.45 stays 81.45; a weight converted from another
    /// unit keeps one). Stones show as `format` does.
    public func formatWeighIn(_ kilograms: Double) -> String {
        guard self != .stones else { return format(kilograms) }
        let hundredths = value(fromKilograms: kilograms) * 100
        let whole = hundredths.rounded()
        guard abs(hundredths - whole) < 1e-6, Int(whole) % 10 != 0 else { return format(kilograms) }
        return Self.fixed(whole / 100, decimals: 2) + " " + rawValue
    }

    /// A signed change, e.g. `−0.4 kg`; stones show changes in pounds.
    public func formatChange(_ kilograms: Double, decimals: Int = 1) -> String {
        let unit: WeightUnit = self == .stones ? .pounds : self
        return Self.signed(unit.value(fromKilograms: kilograms), decimals: decimals) + " " + unit.rawValue
    }

    /// A change with its sign, rounded to `decimals` places: `+0.4`, `−1.2`, and `±0.0` for what rounds to nothing.
    public static func signed(_ value: Double, decimals: Int) -> String {
        let shown = abs(value) < 0.5 * pow(10, -Double(decimals)) ? 0 : value
        let sign = shown > 0 ? "+" : (shown < 0 ? "−" : "±")
        return sign + fixed(abs(shown), decimals: decimals)
    }

    /// `value` rounded to `decimals` places, like `%.1f`, without the cost of
    /// String(format:) (it showed in the progress benchmark's fixed cost).
    public static func fixed(_ value: Double, decimals: Int) -> String {
        guard value.isFinite, abs(value) < 1e12 else { return "\(value)" }
        let scale = [1.0, 10, 100, 1_000, 10_000][min(max(decimals, 0), 4)]
        let scaled = Int64((abs(value) * scale).rounded())
        let whole = scaled / Int64(scale)
        let sign = value < 0 && scaled != 0 ? "-" : ""
        guard decimals > 0 else { return sign + String(whole) }
        let fraction = String(scaled % Int64(scale))
        return sign + String(whole) + "." + String(repeating: "0", count: min(max(decimals, 0), 4) - fraction.count) + fraction
    }

    /// A plain number in this unit for chart axes (stones as decimal stones).
    public func axisValue(_ kilograms: Double) -> Double { value(fromKilograms: kilograms) }
}
