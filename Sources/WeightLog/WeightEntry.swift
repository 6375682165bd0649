/// WeightLog owns weigh-ins: the entry type and its rules, the
/// `weight_entries` table (`WeightTable`), the log with undo, the daily
/// values and trend they imply, the daily verdict and the weigh-in streak,
/// imports and exports, and the WeightEntryFeature that records them. It
/// imports Storage and Settings; never Progress or another feature target.
import Foundation
import Vocabulary

/// One weigh-in.
public struct WeightEntry: Sendable, Identifiable, Equatable, Hashable, Codable {
    /// A UUID string; the REPL accepts any unique prefix of it.
    public package(set) var id: String
    /// When the weight was taken.
    public var date: Date
    public var kilograms: Double
    public var note: String?
    /// Body fat in percent of the weight, where the scale or app that wrote the weigh-in measured it (`BodyFat`).
    public var bodyFatPercent: Double?
    /// The unit the weight was typed in (`weigh 202.8 lb`), so an export says it as it was typed; nil when
    /// it came from a file or an older Trend.
    public var typedUnit: WeightUnit?

    public init(id: String = UUID().uuidString.lowercased(), date: Date, kilograms: Double, note: String? = nil,
                bodyFatPercent: Double? = nil, typedUnit: WeightUnit? = nil) {
        self.id = id
        self.date = date
        self.kilograms = kilograms
        self.note = note
        self.bodyFatPercent = bodyFatPercent
        self.typedUnit = typedUnit
    }

    /// The id as shown to people: its first eight characters.
    public var shortID: String { String(id.prefix(8)) }

    /// The shortest prefixes, 8 characters at least, that tell `ids` apart:
    /// what a person types to pick one. Imported ids are time-first (version 7),
    /// so two weigh-ins a minute apart share their first 8 characters.
    public static func distinguishingPrefixes(of ids: [String]) -> [String] {
        let longest = ids.map(\.count).max() ?? 0
        var length = 8
        while length < longest, Set(ids.map { $0.prefix(length) }).count < Set(ids).count { length += 1 }
        return ids.map { String($0.prefix(length)) }
    }

    /// What makes two records one weigh-in when neither id matches: the same
    /// second and the same weight to 4 decimals. Imports and snapshot merges
    /// both skip a record whose moment is already stored.
    public struct Moment: Hashable, Sendable {
        package let second: Int64
        package let tenThousandths: Int64
        /// The body fat measured with it, in hundredths of a percent (-1 for none): Garmin's scale writes two
        /// readings in one minute that differ only in it, and they are two readings (issue 48).
        package let bodyFatHundredths: Int64

        public init(date: Date, kilograms: Double, bodyFatPercent: Double? = nil) {
            second = date.wholeSecondsSince1970
            tenThousandths = Int64((kilograms * 10_000).rounded())
            bodyFatHundredths = bodyFatPercent.flatMap { $0.isFinite ? Int64(($0 * 100).rounded()) : nil } ?? -1
        }
    }

    /// The same weigh-in, wherever it comes from: the same second, the same weight to 4 decimals, and the same
    /// body composition (the same body fat, or none on both).
    public var moment: Moment { Moment(date: date, kilograms: kilograms, bodyFatPercent: bodyFatPercent) }

    /// The rules every stored weigh-in keeps, wherever it comes from (a typed
    /// command, a file, a snapshot): a weight of 20–500 kg, a moment between
    /// 1900 and 2200, a note of at most 500 characters.
    public func validate() throws(WeightEntryError) {
        try Self.validate(date: date, kilograms: kilograms, note: note)
        try Self.validate(bodyFatPercent: bodyFatPercent)
    }

    static func validate(bodyFatPercent: Double?) throws(WeightEntryError) {
        if let bodyFatPercent, !BodyFat.acceptedPercent.contains(bodyFatPercent) { throw .bodyFatOutOfRange(percent: bodyFatPercent) }
    }

    /// What `isAcceptedID` and `validate()` say of a stored row's parts, its texts known only by their
    /// UTF-8 length (a snapshot checks a million rows without making them entries): true when they surely
    /// pass; false when the entry must be made and checked, to pass or to say why (a text over its limit in
    /// bytes may be within it in characters).
    static func surelyValid(idBytes: Int, date: Date, kilograms: Double, noteBytes: Int, bodyFatPercent: Double?) -> Bool {
        guard (1...maximumIDLength).contains(idBytes), noteBytes <= WeightNote.maximumLength else { return false }
        do {
            try validate(date: date, kilograms: kilograms, note: nil)
            try validate(bodyFatPercent: bodyFatPercent)
            return true
        } catch {
            return false
        }
    }

    /// The same rules for the parts of a weigh-in not made yet (a row being read).
    public static func validate(date: Date, kilograms: Double, note: String?) throws(WeightEntryError) {
        guard kilograms.isFinite, WeightUnit.acceptedKilograms.contains(kilograms) else {
            throw .weightOutOfRange(kilograms: kilograms)
        }
        guard acceptedSeconds.contains(date.timeIntervalSince1970) else { throw .dateOutOfRange }
        // Characters are counted only when the bytes could be too many (a character is at least one byte).
        if let note, note.utf8.count > WeightNote.maximumLength, note.count > WeightNote.maximumLength {
            throw .noteTooLong(length: note.count)
        }
    }

    /// An id a stored weigh-in may have: not empty, at most 64 characters.
    public static func isAcceptedID(_ id: String) -> Bool {
        !id.isEmpty && (id.utf8.count <= maximumIDLength || id.count <= maximumIDLength)
    }

    /// The most characters an id may have.
    public static let maximumIDLength = 64

    /// 1900-01-01 to 2200-01-01, in seconds since 1970 (`PlausibleTime`).
    public static let acceptedSeconds = PlausibleTime.seconds
}

/// The rule for a weigh-in's note, in one place.
public enum WeightNote {
    public static let maximumLength = 500

    /// A note as a person typed it: trimmed, nil when empty; refused when too
    /// long or when it holds a control character (an escape sequence typed
    /// into a note would reach every later screen that shows it).
    public static func typed(_ text: String?) throws(WeightEntryError) -> String? {
        guard let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
        guard trimmed.count <= maximumLength else { throw .noteTooLong(length: trimmed.count) }
        guard !trimmed.unicodeScalars.contains(where: ControlCharacters.contains) else { throw .noteHasControlCharacters }
        return trimmed
    }

    /// A note read from another app's file: trimmed and cut to the limit, so
    /// one long row does not lose a weigh-in. Screens escape what it holds.
    public static func fromFile(_ text: String?) -> String? {
        // Most rows of a file have no note: nothing to trim (an import asks a million times).
        guard let text, !text.isEmpty else { return nil }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : String(trimmed.prefix(maximumLength))
    }
}

/// Why a weigh-in breaks a rule of `WeightEntry.validate()` or `WeightNote`.
/// Described as the predicate of a sentence whose subject names the weigh-in.
public enum WeightEntryError: Error, Equatable, Sendable, CustomStringConvertible {
    case weightOutOfRange(kilograms: Double)
    case dateOutOfRange
    case noteTooLong(length: Int)
    case noteHasControlCharacters
    case bodyFatOutOfRange(percent: Double)

    public var description: String {
        switch self {
        case let .weightOutOfRange(kilograms): "is \(kilograms) kg, outside \(WeightUnit.acceptedKilogramsText)"
        case .dateOutOfRange: "has a date outside 1900–2200"
        case let .noteTooLong(length): "has a note of \(length) characters; at most \(WeightNote.maximumLength) fit"
        case .noteHasControlCharacters: "has a note with a control character (a tab, line break or escape)"
        case let .bodyFatOutOfRange(percent): "has a body fat of \(percent) %, outside \(Int(BodyFat.acceptedPercent.lowerBound))–\(Int(BodyFat.acceptedPercent.upperBound)) %"
        }
    }
}

/// The rule for body fat, in one place: a share of the weight in percent,
/// as scales and trackers measure it.
public enum BodyFat {
    /// A body-fat trend change within this many percentage points is steady, not a move (a scale's
    /// impedance reading wanders about so much from day to day).
    public static let steadyPercentPoints = 0.3

    /// What a person's body fat can be; the schema's CHECK says the same.
    public static let acceptedPercent: ClosedRange<Double> = 1...75

    /// A file's body fat cell (`20.2`, `20.2 %`, `20,2%`): the percent when it
    /// is one a body can have, else nil (the weigh-in is kept without it).
    public static func fromFile(_ text: String) -> Double? {
        let trimmed = text.replacingOccurrences(of: "%", with: "").trimmingCharacters(in: .whitespaces)
        guard let value = PlainDecimal.parse(trimmed) ?? Double(trimmed.replacingOccurrences(of: ",", with: ".")) else { return nil }
        return checked(value)
    }

    /// Body fat as a person types it after `fat`: `23.5%`, `23.5 %` or `23.5`.
    /// Returns the percent (unchecked: `validate()` refuses one out of range with
    /// its reason) and how many words it took; nil when the words hold no number.
    public static func typed(_ words: ArraySlice<String>) -> (percent: Double, consumed: Int)? {
        guard let first = words.first else { return nil }
        let number = first.hasSuffix("%") ? String(first.dropLast()) : first
        guard let percent = PlainDecimal.parse(number), percent.isFinite else { return nil }
        let next = words.dropFirst().first
        return (percent, !first.hasSuffix("%") && next == "%" ? 2 : 1)
    }

    /// `23.5 %`, as screens and the history say it.
    public static func text(_ percent: Double) -> String { String(format: "%.1f %%", percent) }

    /// A percent when it is one a body can have, else nil.
    public static func checked(_ percent: Double?) -> Double? {
        guard let percent, percent.isFinite, acceptedPercent.contains(percent) else { return nil }
        return percent
    }
}
