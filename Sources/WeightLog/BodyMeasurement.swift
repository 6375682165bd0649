import Foundation
import Vocabulary

/// What a tape measure goes round (openScale's and most trackers' set).
public enum BodyMeasure: String, Sendable, CaseIterable, Codable, Comparable {
    case waist, hips, chest, neck, thigh
    case upperArm = "upper_arm"

    /// How a person says it: `waist`, `hips`, `upper arm`.
    public var name: String { self == .upperArm ? "upper arm" : rawValue }

    /// The word typed for it, as `measure` and `progress` take it: `upper-arm`.
    public var word: String { self == .upperArm ? "upper-arm" : rawValue }

    /// A word a person types for it: `waist`, `hip`, `hips`, `chest`, `bust`, `neck`, `thigh`,
    /// `thighs`, `arm`, `upper-arm`, `biceps`.
    public init?(word: String) {
        switch word.lowercased() {
        case "waist", "belly", "abdomen": self = .waist
        case "hip", "hips": self = .hips
        case "chest", "bust": self = .chest
        case "neck": self = .neck
        case "thigh", "thighs", "leg": self = .thigh
        case "arm", "arms", "upper-arm", "upperarm", "upper_arm", "biceps", "bicep": self = .upperArm
        default: return nil
        }
    }

    /// Whether a fall is progress: a smaller waist or hips is; an arm, a thigh, a chest or a neck only changes.
    public var lowerIsBetter: Bool { self == .waist || self == .hips }

    /// A girth's trend change within this many centimetres is steady, not a move: a tape read twice differs by about so much.
    public static let steadyCentimetres = 0.5

    /// The girths a body can have, in centimetres (an adult's, with room at both ends); the table's CHECK
    /// holds the widest, 10–300 cm.
    public var acceptedCentimetres: ClosedRange<Double> {
        switch self {
        case .waist: 40...250
        case .hips: 50...250
        case .chest: 50...250
        case .neck: 20...80
        case .thigh: 20...130
        case .upperArm: 12...80
        }
    }

    /// Its column in Trend's CSV export, in centimetres whatever the unit shown: `waist_cm`, `upper_arm_cm`.
    public var csvColumn: String { rawValue + "_cm" }

    public static func < (lhs: BodyMeasure, rhs: BodyMeasure) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }
}

/// One tape measurement: a girth at a moment, kept in centimetres.
public struct BodyMeasurement: Sendable, Identifiable, Equatable, Hashable {
    /// A UUID string; the REPL accepts any unique prefix of it, as for weigh-ins.
    public package(set) var id: String
    public var date: Date
    public var kind: BodyMeasure
    public var centimetres: Double
    /// The unit it was typed in, so a screen and an export say it as it was typed; nil from a file.
    public var typedUnit: LengthUnit?
    public var note: String?

    public init(id: String = UUID().uuidString.lowercased(), date: Date, kind: BodyMeasure, centimetres: Double,
                typedUnit: LengthUnit? = nil, note: String? = nil) {
        self.id = id
        self.date = date
        self.kind = kind
        self.centimetres = centimetres
        self.typedUnit = typedUnit
        self.note = note
    }

    /// The id as shown to people: its first eight characters.
    public var shortID: String { String(id.prefix(8)) }

    /// The rules every stored measurement keeps, wherever it comes from: a girth its kind can have,
    /// a moment between 1900 and 2200, a note a weigh-in could have.
    public func validate() throws(MeasurementError) {
        guard centimetres.isFinite, kind.acceptedCentimetres.contains(centimetres) else {
            throw .outOfRange(kind, centimetres: centimetres)
        }
        guard WeightEntry.acceptedSeconds.contains(date.timeIntervalSince1970) else { throw .dateOutOfRange }
        if let note, note.utf8.count > WeightNote.maximumLength, note.count > WeightNote.maximumLength { throw .noteTooLong(length: note.count) }
        guard WeightEntry.isAcceptedID(id) else { throw .badID }
    }
}

/// Why a measurement breaks a rule of `BodyMeasurement.validate()`, or cannot be read as typed.
public enum MeasurementError: Error, Equatable, Sendable, CustomStringConvertible {
    case outOfRange(BodyMeasure, centimetres: Double)
    case dateOutOfRange
    case noteTooLong(length: Int)
    case badID
    case notAMeasure(String)
    case notALength(BodyMeasure, String)
    case noValue(BodyMeasure)
    case repeated(BodyMeasure)
    case noSuchMeasurement(String)
    case ambiguous(String, matches: [String])
    case noMeasurements

    public var description: String {
        switch self {
        case let .outOfRange(kind, centimetres):
            let range = kind.acceptedCentimetres
            return "a \(kind.name) of \(WeightUnit.fixed(centimetres, decimals: 1)) cm is outside the \(Int(range.lowerBound))–\(Int(range.upperBound)) cm a \(kind.name) can measure"
        case .dateOutOfRange: return "the measurement has a date outside 1900–2200"
        case let .noteTooLong(length): return "the note has \(length) characters; at most \(WeightNote.maximumLength) fit"
        case .badID: return "the measurement has an empty or overlong id"
        case let .notAMeasure(word):
            return "'\(word)' is not a measure; use \(BodyMeasure.allCases.map(\.word).joined(separator: ", "))"
        case let .notALength(kind, word): return "'\(word)' is not a length for the \(kind.name); write it like 84 or 84 cm or 33 in"
        case let .noValue(kind): return "the \(kind.name) needs a length, e.g. '\(kind.word) 84 cm'"
        case let .repeated(kind): return "the \(kind.name) is given twice"
        case let .noSuchMeasurement(id): return "no measurement has an id starting with '\(id)'"
        case let .ambiguous(id, matches): return "'\(id)' matches \(matches.count) measurements (\(matches.prefix(5).joined(separator: ", "))); type more of the id"
        case .noMeasurements: return "there are no measurements yet"
        }
    }
}

/// The measures as typed after `measure`: one or more `KIND VALUE [UNIT]`
/// (`waist 84 cm`, `waist 33in`, `neck 38 chest 101`), a bare value in the
/// unit in force. Values are read here and checked by `BodyMeasurement.validate()`.
public struct MeasureInput: Sendable, Equatable {
    /// One measure as typed: what it goes round, its girth in centimetres and the unit it was typed in.
    public struct Value: Sendable, Equatable {
        public let kind: BodyMeasure
        public let centimetres: Double
        /// The unit written after the number, or the one in force when none was.
        public let unit: LengthUnit
    }

    public let values: [Value]

    /// Takes the measures from the front of `words`, leaving what follows (a WHEN, a note).
    public static func take(from words: inout ArraySlice<String>, defaultUnit: LengthUnit) throws(MeasurementError) -> MeasureInput {
        var values: [Value] = []
        while let first = words.first {
            let kindWord = first.lowercased()
            // `upper arm` as two words.
            var kind = BodyMeasure(word: kindWord)
            var taken = 1
            if kindWord == "upper", words.dropFirst().first?.lowercased() == "arm" {
                kind = .upperArm
                taken = 2
            }
            guard let kind else {
                if values.isEmpty { throw .notAMeasure(first) }
                break
            }
            words = words.dropFirst(taken)
            let value = try takeLength(of: kind, from: &words, defaultUnit: defaultUnit)
            guard !values.contains(where: { $0.kind == kind }) else { throw .repeated(kind) }
            values.append(value)
        }
        return MeasureInput(values: values)
    }

    /// A length at the front of `words` (`84`, `84 cm`, `33in`), taken off them; `edit` reads one alone.
    public static func takeLength(of kind: BodyMeasure, from words: inout ArraySlice<String>,
                                  defaultUnit: LengthUnit) throws(MeasurementError) -> Value {
        guard let typed = words.first else { throw .noValue(kind) }
        let (number, attached) = split(typed)
        guard let value = PlainDecimal.parse(number), value.isFinite else { throw .notALength(kind, typed) }
        words = words.dropFirst()
        var unit = defaultUnit
        if let attached {
            guard let named = LengthUnit(word: attached) else { throw .notALength(kind, typed) }
            unit = named
        } else if let next = words.first, let named = LengthUnit(word: next) {
            unit = named
            words = words.dropFirst()
        }
        return Value(kind: kind, centimetres: unit.centimetres(from: value), unit: unit)
    }

    /// `84cm` → (`84`, `cm`), `33"` → (`33`, `"`), `84` → (`84`, nil).
    private static func split(_ word: String) -> (number: String, unit: String?) {
        guard let index = word.firstIndex(where: { !($0.isNumber || $0 == "." || $0 == ",") }), index != word.startIndex else { return (word, nil) }
        return (String(word[..<index]), String(word[index...]))
    }
}
