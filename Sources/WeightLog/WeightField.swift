import Foundation
import Storage
import TextFormats
import Vocabulary

/// One stored property of a weigh-in, described once: its SQL column, its
/// key in a snapshot, in Trend's JSON export and in `--json`, its CSV export
/// column, and how its value is read from and written to a `WeightEntry`.
/// Every stored form of a weigh-in is driven by `WeightField.all`: the
/// table's statements, binding and reading (`WeightTable`), the canonical
/// snapshot (keys sorted by construction) and both snapshot decoders, the
/// CSV and JSON exports and the import of Trend's own files, the journal's
/// columns, and the entry scripts read. A new optional field is a migration
/// in `WeightTable+Schema`, one more element here, a snapshot format version
/// with its fixture, and the screens that show it.
public final class WeightField: Sendable {
    // A class: a row's loop over the fields copies a reference, not nine strings and closures.
    /// What a field holds; it decides how each form writes the value.
    public enum Kind: Sendable, Equatable {
        /// The weigh-in's id: text, required.
        case id
        /// When it was taken: seconds since 1970 in the database and a
        /// snapshot, a dated text with its offset in an export and `--json`.
        case instant
        /// The weight in kilograms, required; an export writes it in the person's unit, with a unit column after it.
        case kilograms
        /// Optional text (a note): `""` in Trend's JSON export, whose original app needs a string.
        case text
        /// An optional number (a percent): left out of a snapshot and an export when unknown.
        case number
        /// An optional unit (`kg`, `lb`, `st`): text, left out of a snapshot and an export when unknown.
        case unit
    }

    /// One field's value in any stored form: text, a number, or nothing.
    public enum Value: Sendable, Equatable {
        case text(String), number(Double), absent
    }

    /// The `WeightEntry` property's name (the test holds it against the type's own).
    public let property: String
    public let column: String
    /// The member's name in a recovery snapshot.
    public let snapshotKey: String
    /// The member's name in Trend's JSON export and in `--json`.
    public let exportKey: String
    /// The CSV export's column.
    public let csvColumn: String
    public let kind: Kind
    public let get: @Sendable (WeightEntry) -> Value
    public let set: @Sendable (inout WeightEntry, Value) -> Void
    /// An optional value as another app's file gives it, made one a weigh-in keeps (a note trimmed
    /// and cut to its limit, a body fat a body can have), or no value.
    package let fromFile: @Sendable (Value) -> Value

    init(property: String, column: String, snapshotKey: String, exportKey: String, csvColumn: String, kind: Kind,
         get: @escaping @Sendable (WeightEntry) -> Value, set: @escaping @Sendable (inout WeightEntry, Value) -> Void,
         fromFile: @escaping @Sendable (Value) -> Value = { $0 }) {
        self.property = property
        self.column = column
        self.snapshotKey = snapshotKey
        self.exportKey = exportKey
        self.csvColumn = csvColumn
        self.kind = kind
        self.get = get
        self.set = set
        self.fromFile = fromFile
        firstInSnapshot = Array("{\"\(snapshotKey)\":".utf8)
        nextInSnapshot = Array(",\"\(snapshotKey)\":".utf8)
    }

    /// `{"key":` and `,"key":`, made once: a snapshot writes one of them per field of a million rows.
    let firstInSnapshot: [UInt8], nextInSnapshot: [UInt8]

    /// Whether its stored value is text (an id, a note, a unit) rather than a number.
    var isText: Bool { kind == .id || kind == .text || kind == .unit }

    /// Whether every weigh-in has it (a file's row without it is refused).
    public var isRequired: Bool { kind == .id || kind == .instant || kind == .kilograms }

    /// Every stored property of a weigh-in, in the table's column order.
    public static let all: [WeightField] = [
        WeightField(property: "id", column: "id", snapshotKey: "id", exportKey: "id", csvColumn: "id", kind: .id,
                    get: { .text($0.id) }, set: { entry, value in if case let .text(text) = value { entry.id = text } }),
        WeightField(property: "date", column: "instant", snapshotKey: "instant", exportKey: "date", csvColumn: "date", kind: .instant,
                    get: { .number($0.date.timeIntervalSince1970) },
                    set: { entry, value in if case let .number(seconds) = value { entry.date = Date(timeIntervalSince1970: seconds) } }),
        WeightField(property: "kilograms", column: "kilograms", snapshotKey: "kilograms", exportKey: "kilograms", csvColumn: "weight",
                    kind: .kilograms, get: { .number($0.kilograms) },
                    set: { entry, value in if case let .number(kilograms) = value { entry.kilograms = kilograms } }),
        WeightField(property: "note", column: "note", snapshotKey: "note", exportKey: "note", csvColumn: "note", kind: .text,
                    get: { $0.note.map(Value.text) ?? .absent },
                    set: { entry, value in if case let .text(text) = value { entry.note = text } else { entry.note = nil } },
                    fromFile: { value in if case let .text(text) = value { WeightNote.fromFile(text).map(Value.text) ?? .absent } else { .absent } }),
        WeightField(property: "bodyFatPercent", column: "body_fat", snapshotKey: "bodyFatPercent", exportKey: "bodyFatPercent",
                    csvColumn: "body_fat", kind: .number, get: { $0.bodyFatPercent.map(Value.number) ?? .absent },
                    set: { entry, value in if case let .number(percent) = value { entry.bodyFatPercent = percent } else { entry.bodyFatPercent = nil } },
                    fromFile: { value in if case let .number(percent) = value { BodyFat.checked(percent).map(Value.number) ?? .absent } else { .absent } }),
        WeightField(property: "typedUnit", column: "typed_unit", snapshotKey: "typedUnit", exportKey: "typedUnit", csvColumn: "typed_unit",
                    kind: .unit, get: { $0.typedUnit.map { Value.text($0.rawValue) } ?? .absent },
                    set: { entry, value in if case let .text(text) = value { entry.typedUnit = WeightUnit(rawValue: text) } else { entry.typedUnit = nil } },
                    fromFile: { value in if case let .text(text) = value, let unit = WeightUnit(rawValue: text.lowercased()) { .text(unit.rawValue) } else { .absent } }),
    ]

    /// The fields in the order of their snapshot keys: a canonical snapshot's keys are sorted by construction.
    static let bySnapshotKey = all.sorted { $0.snapshotKey < $1.snapshotKey }
    /// How each column of a row is read (`all`'s order), for copying rows to read elsewhere.
    static let cells: [CopiedRows.Cell] = all.map { $0.isText ? .text : .number }
    /// `bySnapshotKey` with each field's column in `all`'s order (a row's), for writing a snapshot from rows.
    static let snapshotColumns = bySnapshotKey.map { field in (field, Int32(all.firstIndex { $0 === field }!)) }
    /// The fields' places in `all` by their snapshot key, for the decoders.
    package static let named: [String: Int] = Dictionary(uniqueKeysWithValues: all.indices.map { (all[$0].snapshotKey, $0) })
    /// The fields' places in `all` by their export key, for reading Trend's JSON export back.
    package static let exportNamed: [String: Int] = Dictionary(uniqueKeysWithValues: all.indices.map { (all[$0].exportKey, $0) })
    /// One bit per required field, by its place in `all`.
    static let requiredBits = all.indices.reduce(UInt64(0)) { all[$1].isRequired ? $0 | 1 << UInt64($1) : $0 }

    /// The fields a weigh-in may lack, which a file's row may carry.
    package static let optional = all.filter { !$0.isRequired }

    /// The SQL column list, in order.
    static let columnList = all.map(\.column).joined(separator: ", ")

    /// An entry with nothing set yet, for a reader to fill field by field.
    package static var blank: WeightEntry { WeightEntry(id: "", date: Date(timeIntervalSince1970: 0), kilograms: 0) }

    // MARK: The database

    /// The value bound for the field's column.
    func sqlValue(_ entry: WeightEntry) -> SQLValue {
        switch get(entry) {
        case let .text(text): .text(text)
        case let .number(number): .double(number)
        case .absent: .null
        }
    }

    /// The field's value in column `index` of a row.
    func read(_ row: some SQLRow, _ index: Int32) -> Value {
        if row.isNull(index) { return .absent }
        return isText ? .text(row.text(index)) : .number(row.double(index))
    }

    // MARK: JSON

    /// Whether a JSON value is one the field can hold (`null` only for an optional one).
    package func accepts(_ value: FlatJSON.Value) -> Value? {
        switch (kind, value) {
        case (.text, .null), (.number, .null), (.unit, .null): .absent
        case (.id, .string(let text)), (.text, .string(let text)), (.unit, .string(let text)): .text(text)
        case (.instant, .number(let number)), (.kilograms, .number(let number)), (.number, .number(let number)): .number(number)
        default: nil
        }
    }

    /// The member `key` of a decoded object as the field holds it, nil when it is missing or `null`;
    /// a value of another type throws, as `JSONDecoder` does.
    package func decodeIfPresent(from container: KeyedDecodingContainer<SnapshotKey>, key: String) throws -> Value? {
        switch kind {
        case .id, .text, .unit: try container.decodeIfPresent(String.self, forKey: SnapshotKey(key)).map(Value.text)
        case .instant, .kilograms, .number: try container.decodeIfPresent(Double.self, forKey: SnapshotKey(key)).map(Value.number)
        }
    }

    /// A member of a file's JSON object (`JSONSerialization`'s values) as the field holds it: a value of
    /// another type is no value, as an import reads a cell it cannot use.
    package func imported(_ value: Any?) -> Value {
        switch kind {
        case .id, .text, .unit: (value as? String).map(Value.text) ?? .absent
        case .instant, .kilograms, .number: (value as? NSNumber).map { .number($0.doubleValue) } ?? .absent
        }
    }
}

extension WeightField.Value {
    /// The value as JSON: a string, a number, or `null`.
    package func write(into out: inout CanonicalJSON) {
        switch self {
        case let .text(text): out.string(text)
        case let .number(number): out.number(number)
        case .absent: out.raw("null")
        }
    }
}

extension WeightEntry {
    /// The entry's canonical snapshot object: keys sorted, an unknown optional left out (so a snapshot
    /// without body fat hashes as older Trends hashed it).
    static func writeCanonical(_ out: inout CanonicalJSON, _ entry: WeightEntry) {
        var first = true
        for field in WeightField.bySnapshotKey {
            let value = field.get(entry)
            if value == .absent { continue }
            out.raw(bytes: first ? field.firstInSnapshot : field.nextInSnapshot)
            first = false
            value.write(into: &out)
        }
        out.raw("}")
    }

    /// What `writeCanonical(&out, read(row))` writes, straight from the columns of a row whose columns are
    /// `WeightField.all`'s: no entry, no `String` for an ASCII id or note, no closure per field. A snapshot
    /// writes a million of them. A NULL where a value is required and a typed unit take the entry's way
    /// (rare, and the entry decides what they become); an instant goes through `Date`, as the entry holds it.
    static func writeCanonical(_ out: inout CanonicalJSON, row: some SQLRow) {
        var first = true
        for (field, column) in WeightField.snapshotColumns {
            func key() {
                out.raw(bytes: first ? field.firstInSnapshot : field.nextInSnapshot)
                first = false
            }
            let isNull = row.isNull(column)
            if isNull, !field.isRequired { continue }  // An unknown optional is left out, as the entry leaves it.
            guard !isNull, field.kind != .unit else {
                var entry = WeightField.blank
                field.set(&entry, field.read(row, column))
                let value = field.get(entry)
                if value != .absent {
                    key()
                    value.write(into: &out)
                }
                continue
            }
            key()
            switch field.kind {
            case .id, .text, .unit: row.withText(column) { out.string(utf8: $0) }
            case .instant: out.number(Date(timeIntervalSince1970: row.double(column)).timeIntervalSince1970)
            case .kilograms, .number: out.number(row.double(column))
            }
        }
        out.raw(byte: 0x7D)
    }

    /// A weigh-in from a row whose columns are `WeightField.all`'s, in order.
    static func read(_ row: some SQLRow) -> WeightEntry {
        var entry = WeightField.blank
        for (index, field) in WeightField.all.enumerated() {
            field.set(&entry, field.read(row, Int32(index)))
        }
        return entry
    }

    /// The values bound for `WeightField.all`'s columns, in order.
    var sqlValues: [SQLValue] { WeightField.all.map { $0.sqlValue(self) } }
}

/// A weigh-in as JSON gives it field by field (`FlatJSON`'s objects): an
/// entry once every required field is there.
struct WeightDraft {
    var entry = WeightField.blank
    private var missing = WeightField.requiredBits

    /// Sets the field named `key` (its place in `WeightField.all` found in `places`); false when the value is
    /// of the wrong type (a member the entry does not have is passed over).
    mutating func set(_ key: String, _ value: FlatJSON.Value, places: [String: Int]) -> Bool {
        guard let place = places[key] else { return true }
        let field = WeightField.all[place]
        guard let accepted = field.accepts(value) else { return false }
        field.set(&entry, accepted)
        missing &= ~(1 << UInt64(place))
        return true
    }

    /// The entry, when no required field is missing.
    var complete: WeightEntry? { missing == 0 ? entry : nil }
}

/// A weigh-in decoded from a snapshot by `JSONDecoder` (the slow path, which says what is wrong).
struct WeightSnapshotRow: Decodable {
    let entry: WeightEntry

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: SnapshotKey.self)
        var entry = WeightField.blank
        for field in WeightField.all {
            let key = SnapshotKey(field.snapshotKey)
            switch field.kind {
            case .id:
                field.set(&entry, .text(try container.decode(String.self, forKey: key)))
            case .instant, .kilograms:
                field.set(&entry, .number(try container.decode(Double.self, forKey: key)))
            case .text, .number, .unit:
                field.set(&entry, try field.decodeIfPresent(from: container, key: field.snapshotKey) ?? .absent)
            }
        }
        self.entry = entry
    }
}
