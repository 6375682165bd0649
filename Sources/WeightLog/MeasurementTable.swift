import Foundation
import Storage
import TextFormats
import Vocabulary

/// The `measurements` table, in one place: its columns, every statement that
/// touches it, the mapping of a row to a `BodyMeasurement`, its form in a
/// recovery snapshot (the `measurements` member) and the check a row from
/// another device or a file passes.
public struct MeasurementTable: SnapshotSection {
    public init() {}

    static let columns = "id, instant, kind, centimetres, typed_unit, note"
    static let selectAll = "SELECT \(columns) FROM measurements ORDER BY instant, id"

    /// A row as read; nil for one that breaks the table's rules (a damaged file's), which screens read past.
    static func measurement(_ row: SQLiteStatement) -> BodyMeasurement? {
        guard let kind = BodyMeasure(rawValue: row.text(2)) else { return nil }
        return BodyMeasurement(id: row.text(0), date: Date(timeIntervalSince1970: row.double(1)), kind: kind, centimetres: row.double(3),
                           typedUnit: row.optionalText(4).flatMap(LengthUnit.init(rawValue:)), note: row.optionalText(5))
    }

    static func values(_ measurement: BodyMeasurement) -> [SQLValue] {
        [.text(measurement.id), .double(measurement.date.timeIntervalSince1970), .text(measurement.kind.rawValue),
         .double(measurement.centimetres), SQLValue.optional(measurement.typedUnit?.rawValue),
         SQLValue.optional(measurement.note)]
    }

    // MARK: Statements, inside a transaction the caller holds

    /// Every measurement, oldest first (by instant, then id).
    public static func all(in connection: SQLiteConnection) throws -> [BodyMeasurement] {
        try connection.query(selectAll, row: measurement).compactMap { $0 }
    }

    /// The measurements from `start` up to `end` (seconds since 1970), oldest first.
    public static func all(from start: Double, before end: Double, in connection: SQLiteConnection) throws -> [BodyMeasurement] {
        try connection.query("SELECT \(columns) FROM measurements WHERE instant >= ? AND instant < ? ORDER BY instant, id",
                             [.double(start), .double(end)], row: measurement).compactMap { $0 }
    }

    public static func insert(_ measurement: BodyMeasurement, in connection: SQLiteConnection) throws {
        try connection.run("INSERT INTO measurements(\(columns)) VALUES(?, ?, ?, ?, ?, ?)", values(measurement))
    }

    /// Replaces the stored measurement with the same id; false when there is none.
    public static func update(_ measurement: BodyMeasurement, in connection: SQLiteConnection) throws -> Bool {
        let values = values(measurement)
        return try connection.run("UPDATE measurements SET instant = ?, kind = ?, centimetres = ?, typed_unit = ?, note = ? WHERE id = ?",
                                  Array(values.dropFirst()) + [values[0]]) > 0
    }

    public static func delete(id: String, in connection: SQLiteConnection) throws -> Bool {
        try connection.run("DELETE FROM measurements WHERE id = ?", [.text(id)]) > 0
    }

    /// What makes two measurements one when neither id matches: the same kind, second and girth to 0.01 cm.
    struct Moment: Hashable {
        let kind: BodyMeasure
        let second: Int64
        let hundredths: Int64

        init(_ measurement: BodyMeasurement) {
            kind = measurement.kind
            second = measurement.date.wholeSecondsSince1970
            hundredths = Int64((measurement.centimetres * 100).rounded())
        }
    }

    /// Adds the measurements the table lacks: one whose id or moment is stored, or came earlier in the batch, is a duplicate.
    public static func merge(_ measurements: [BodyMeasurement], in connection: SQLiteConnection) throws -> SnapshotMergeCount {
        let stored = try all(in: connection)
        var ids = Set(stored.map(\.id)), moments = Set(stored.map(Moment.init))
        var count = SnapshotMergeCount()
        for measurement in measurements {
            guard ids.insert(measurement.id).inserted, moments.insert(Moment(measurement)).inserted else {
                count.duplicates += 1
                continue
            }
            try insert(measurement, in: connection)
            count.added += 1
        }
        return count
    }

    // MARK: The snapshot form

    public var name: String { "measurements" }

    /// One measurement as a snapshot holds it: its columns, the instant in seconds since 1970.
    public struct Row: Codable, Sendable, Equatable {
        public var id: String
        public var instant: Double
        public var kind: String
        public var centimetres: Double
        public var typedUnit: String?
        public var note: String?

        public init(_ measurement: BodyMeasurement) {
            id = measurement.id
            instant = measurement.date.timeIntervalSince1970
            kind = measurement.kind.rawValue
            centimetres = measurement.centimetres
            typedUnit = measurement.typedUnit?.rawValue
            note = measurement.note
        }

        /// The measurement it holds, or why it cannot be kept.
        func measurement() -> Result<BodyMeasurement, SnapshotValueError> {
            guard let kind = BodyMeasure(rawValue: kind) else { return .failure(SnapshotValueError("has an unknown kind '\(kind.prefix(20))'")) }
            let unit = typedUnit.flatMap(LengthUnit.init(rawValue:))
            guard typedUnit == nil || unit != nil else { return .failure(SnapshotValueError("was typed in an unknown unit")) }
            let measurement = BodyMeasurement(id: id, date: Date(timeIntervalSince1970: instant), kind: kind, centimetres: centimetres,
                                          typedUnit: unit, note: note)
            do {
                try measurement.validate()
                return .success(measurement)
            } catch {
                return .failure(SnapshotValueError(error.description))
            }
        }
    }

    /// The measurements as a snapshot holds them, oldest first.
    public struct Part: SnapshotPart, Equatable {
        public var rows: [Row]

        public init(rows: [Row] = []) {
            self.rows = rows
        }

        public var rowCount: Int { rows.count }

        public var dateSpan: ClosedRange<Date>? {
            guard let low = rows.map(\.instant).min(), let high = rows.map(\.instant).max() else { return nil }
            return Date(timeIntervalSince1970: low)...Date(timeIntervalSince1970: high)
        }

        public func canonicalMembers() -> [(key: String, value: CanonicalJSON)] {
            // Older snapshots have no member: one with no rows writes none, so their bytes stay as they were.
            guard !rows.isEmpty else { return [] }
            var out = CanonicalJSON()
            out.array(rows) { out, row in
                out.object(["centimetres": .number(row.centimetres), "id": .string(row.id), "instant": .number(row.instant),
                            "kind": .string(row.kind), "note": .optional(row.note), "typedUnit": .optional(row.typedUnit)])
            }
            return [("measurements", out)]
        }
    }

    public func read(in connection: SQLiteConnection) throws -> Part {
        Part(rows: try Self.all(in: connection).map(Row.init))
    }

    /// A snapshot older than format 5 has no measurements: none.
    public func decode(from content: KeyedDecodingContainer<SnapshotKey>) throws -> Part {
        Part(rows: try content.decodeIfPresent([Row].self, forKey: SnapshotKey(name)) ?? [])
    }

    public func keepingValid(_ part: Part) -> (valid: Part, dropped: [String]) {
        var ids = Set<String>()
        var valid = Part()
        var dropped: [String] = []
        for (index, row) in part.rows.enumerated() {
            switch row.measurement() {
            case let .failure(error): dropped.append("measurement \(index + 1) \(error.detail)")
            case .success where !ids.insert(row.id).inserted: dropped.append("measurement \(index + 1) repeats the id of another")
            case .success: valid.rows.append(row)
            }
        }
        return (valid, dropped)
    }

    public func replace(with part: Part, in connection: SQLiteConnection) throws {
        try connection.execute("DELETE FROM measurements")
        for row in part.rows {
            if case let .success(measurement) = row.measurement() { try Self.insert(measurement, in: connection) }
        }
    }

    public func merge(_ part: Part, in connection: SQLiteConnection) throws -> SnapshotMergeCount {
        try Self.merge(part.rows.compactMap { try? $0.measurement().get() }, in: connection)
    }

    public func rowCount(in connection: SQLiteConnection) throws -> Int {
        try connection.scalarInt("SELECT count(*) FROM measurements") ?? 0
    }

    public func dateSpan(in connection: SQLiteConnection) throws -> ClosedRange<Date>? {
        let statement = try connection.prepare("SELECT min(instant), max(instant) FROM measurements")
        guard try statement.step(), let low = statement.value(0)?.number, let high = statement.value(1)?.number else { return nil }
        return Date(timeIntervalSince1970: low)...Date(timeIntervalSince1970: high)
    }
}

/// Measurements travel to the person's other devices, each checked as a restore checks it.
extension MeasurementTable {
    public var syncedTables: [SyncedTable] {
        [SyncedTable(table: journaledTables[0], describe: { image, timeZone, _ in
            guard case let .text(kind)? = image["kind"], let seconds = WeightTable.real(image["instant"]) else { return nil }
            return "the \(BodyMeasure(rawValue: kind)?.name ?? "tape") measurement of "
                + LocalDays.shared(for: timeZone).spokenMinute(Date(timeIntervalSince1970: seconds))
        }) { Self.syncProblem($0) }]
    }

    /// Why a measurement from another device cannot be kept: a value of the wrong kind, or a rule of `BodyMeasurement`.
    static func syncProblem(_ image: RowImage) -> String? {
        guard case let .text(id)? = image["id"], let instant = image["instant"]?.number, case let .text(kind)? = image["kind"],
              let centimetres = image["centimetres"]?.number else { return "a measurement whose columns are missing or of the wrong kind" }
        func optionalText(_ column: String) -> String?? {
            switch image[column] ?? .null {
            case .null: return .some(nil)
            case let .text(text): return .some(text)
            default: return nil
            }
        }
        guard let unit = optionalText("typed_unit"), let note = optionalText("note") else { return "a measurement whose unit or note is not text" }
        var row = Row(BodyMeasurement(id: id, date: Date(timeIntervalSince1970: instant), kind: .waist, centimetres: centimetres))
        row.kind = kind
        row.typedUnit = unit
        row.note = note
        if case let .failure(error) = row.measurement() { return "a measurement that \(error.detail)" }
        return nil
    }
}
