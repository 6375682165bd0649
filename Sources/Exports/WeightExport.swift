import Foundation
import Storage
import TextFormats
import Vocabulary
import WeightLog

/// Writes the log as files other programs (and Trend) read back, a row at a
/// time as the rows are read: memory stays flat however long the log.
enum WeightExport {
    /// A column per `WeightField` (`id,date,weight,unit,note,body_fat,typed_unit`), the unit after the weight,
    /// then a column per tape measure the rows hold (`waist_cm`, in centimetres), with CRLF line ends:
    /// weights in `unit`, dates with their offset, an unknown value empty. A measurement taken at a
    /// weigh-in's second with its note shares its row; another has a row of its own with no weight.
    final class CSVWriter: @unchecked Sendable {
        // @unchecked: used from the store's thread only, one row after another.
        private let file: AtomicFile
        private let unit: WeightUnit
        /// Whether a weigh-in typed in a unit is written in it (`202.8,lb`), not in `unit`.
        private let keepsTypedUnits: Bool
        private let days: LocalDays
        /// The tape measures with a column, and those not yet written, oldest first.
        private var kinds: [BodyMeasure] = []
        private var pending: ArraySlice<BodyMeasurement> = []
        private(set) var measurementsWritten = 0
        /// The weigh-ins written in a unit other than `unit` (typed in it), and the measures with a column.
        private(set) var rowsInOtherUnits = 0
        var measuresWritten: [BodyMeasure] { kinds }

        /// The header: each field's column, `unit` after the weight, and a column per measure in `kinds`.
        static func header(measuring kinds: [BodyMeasure] = []) -> String {
            (WeightField.all.flatMap { $0.kind == .kilograms ? [$0.csvColumn, "unit"] : [$0.csvColumn] } + kinds.map(\.csvColumn))
                .joined(separator: ",")
        }

        init(url: URL, unit: WeightUnit, timeZone: TimeZone, keepsTypedUnits: Bool = true) throws {
            file = try AtomicFile(url: url)
            self.unit = unit
            self.keepsTypedUnits = keepsTypedUnits
            days = LocalDays.shared(for: timeZone)
        }

        /// Writes the header, with a column for each measure `measurements` (oldest first) hold; before the first row.
        func begin(measurements: [BodyMeasurement]) throws {
            kinds = Set(measurements.map(\.kind)).sorted()
            pending = measurements[...]
            try file.append(Self.header(measuring: kinds) + "\r\n")
        }

        func write(_ entry: WeightEntry) throws {
            let second = Self.second(entry.date)
            try writeMeasurementRows(before: second)
            // The measurements of this second with the weigh-in's note ride on its row.
            let shared = takeMeasurements(atSecond: second, note: entry.note)
            var line = ""
            for field in WeightField.all {
                if !line.isEmpty { line += "," }
                line += cell(field, entry)
            }
            try file.append(line + measureCells(shared) + "\r\n")
        }

        /// Rows of their own for the measurements before `second`: one a second and note, a measure once in each.
        private func writeMeasurementRows(before second: Int64) throws {
            while let first = pending.first, Self.second(first.date) < second {
                let row = takeMeasurements(atSecond: Self.second(first.date), note: first.note)
                var line = ""
                for (index, field) in WeightField.all.enumerated() {
                    if index > 0 { line += "," }
                    switch field.kind {
                    case .instant: line += days.internetDateTime(first.date)
                    case .kilograms: line += ","
                    case .text: line += first.note.map(CSVTable.field) ?? ""
                    default: break
                    }
                }
                try file.append(line + measureCells(row) + "\r\n")
            }
        }

        /// Takes from the pending measurements those of `second` with `note`, one of each kind (the first).
        private func takeMeasurements(atSecond second: Int64, note: String?) -> [BodyMeasure: Double] {
            var row: [BodyMeasure: Double] = [:]
            var index = pending.startIndex
            while index < pending.endIndex, Self.second(pending[index].date) == second {
                let measurement = pending[index]
                if measurement.note == note, row[measurement.kind] == nil {
                    row[measurement.kind] = measurement.centimetres
                    pending.remove(at: index)
                } else {
                    index += 1
                }
            }
            return row
        }

        /// `,84.5,,101` for the columns of `kinds`.
        private func measureCells(_ row: [BodyMeasure: Double]) -> String {
            measurementsWritten += row.count
            return kinds.map { kind in "," + (row[kind].map { "\($0)" } ?? "") }.joined()
        }

        private static func second(_ date: Date) -> Int64 { date.wholeSecondsSince1970 }

        private func cell(_ field: WeightField, _ entry: WeightEntry) -> String {
            switch (field.kind, field.get(entry)) {
            case (.id, _): entry.id  // As Trend writes ids and reads them back: never quoted.
            case (.instant, _): days.internetDateTime(entry.date)
            case (.kilograms, _): weightCells(entry)
            case let (_, .text(text)): CSVTable.field(text)
            case let (_, .number(number)): "\(number)"
            case (_, .absent): ""
            }
        }

        /// The weight and its unit: the unit it was typed in, with the digits typed (`202.8,lb`, not
        /// `202.79999999999998`), or `unit` for one from a file.
        private func weightCells(_ entry: WeightEntry) -> String {
            let typed = entry.typedUnit?.fileUnit
            let rowUnit = keepsTypedUnits ? (typed ?? unit) : unit
            if rowUnit != unit { rowsInOtherUnits += 1 }
            let value = rowUnit.value(fromKilograms: entry.kilograms)
            let shown = typed == rowUnit && rowUnit != .kilograms ? (value * 10_000).rounded() / 10_000 : value
            return "\(shown)," + rowUnit.rawValue
        }

        /// Writes the measurements after the last weigh-in, then the file, whole.
        func commit() throws {
            try writeMeasurementRows(before: .max)
            try file.commit()
        }
    }

    /// Trend's JSON export, keys sorted, two-space indents, in the shape the
    /// original Trend app reads (its `WeightStore`: `entries` of `{id: UUID,
    /// date: ISO 8601, kilograms, note: String}` and `goalKilograms`, decoded
    /// by `JSONDecoder` with `.iso8601` dates). Trend's own members ride
    /// along where that schema ignores them: `bodyFatPercent`, `trendID` (an
    /// id that is not a UUID, such as an imported `fitbit-…`), `exportedAt`
    /// and `format`, and the tape measures as `measurements` (`{centimetres, date,
    /// id, kind, note, typedUnit}`, left out when there are none). No
    /// `formatVersion`: the original app takes a file with one for a recovery
    /// backup of its own.
    final class JSONWriter: @unchecked Sendable {
        // @unchecked: used from the store's thread only, one row after another.
        private let file: AtomicFile
        private let days: LocalDays
        private let goalKilograms: Double?
        private var first = true
        /// The tape measures written after the entries, oldest first.
        private(set) var measurements: [BodyMeasurement] = []

        /// Gives the tape measures written after the entries, oldest first.
        func begin(measurements: [BodyMeasurement]) { self.measurements = measurements }

        init(url: URL, timeZone: TimeZone, goalKilograms: Double?) throws {
            file = try AtomicFile(url: url)
            days = LocalDays.shared(for: timeZone)
            self.goalKilograms = goalKilograms
            try file.append("{\n  \"entries\" : [")
        }

        func write(_ entry: WeightEntry) throws {
            var text = CanonicalJSON()
            text.raw(first ? "\n    {\n" : ",\n    {\n")
            first = false
            // Keys sorted; an unknown number left out, so a file without body fat reads as the original app
            // writes it, whose note is always a string. A million rows: no array per row.
            var first = true
            let isUUID = UUIDText.isUUID(entry.id)
            for member in Self.members {
                let value: WeightField.Value
                switch member {
                case .trendID:
                    guard !isUUID else { continue }
                    value = .text(entry.id)
                case let .field(field):
                    switch (field.kind, field.get(entry)) {
                    case (.id, _): value = .text(isUUID ? entry.id : WeightExport.uuid(for: entry.id))
                    case (.instant, _): value = .text(WeightExport.portableInstant(entry.date, days: days))
                    case (.text, .absent): value = .text("")
                    case (.number, .absent), (.unit, .absent): continue
                    case let (_, other): value = other
                    }
                }
                text.raw(first ? "      \"" : ",\n      \"")
                first = false
                text.raw(member.key)
                text.raw("\" : ")
                value.write(into: &text)
            }
            text.raw("\n    }")
            try file.append(text.bytes)
        }

        /// A member of an exported entry: a field under its export key, or `trendID`, the id that is not a UUID.
        enum Member {
            case field(WeightField), trendID

            var key: String {
                switch self {
                case let .field(field): field.exportKey
                case .trendID: "trendID"
                }
            }
        }

        /// The members in the order of their keys.
        static let members = (WeightField.all.map(Member.field) + [.trendID]).sorted { $0.key < $1.key }

        func commit(exportedAt: Date) throws {
            var text = CanonicalJSON()
            text.raw(first ? "\n  ],\n  \"exportedAt\" : " : "\n  ],\n  \"exportedAt\" : ")
            text.string(WeightExport.portableInstant(exportedAt, days: days))
            text.raw(",\n  \"format\" : \"trend-weights\"")
            if let goalKilograms {
                text.raw(",\n  \"goalKilograms\" : ")
                text.number(goalKilograms)
            }
            if !measurements.isEmpty {
                text.raw(",\n  \"measurements\" : [")
                for (index, measurement) in measurements.enumerated() {
                    text.raw(index == 0 ? "\n    " : ",\n    ")
                    text.object(["centimetres": .number(measurement.centimetres),
                                 "date": .string(WeightExport.portableInstant(measurement.date, days: days)),
                                 "id": .string(measurement.id), "kind": .string(measurement.kind.rawValue),
                                 "note": .optional(measurement.note), "typedUnit": .optional(measurement.typedUnit?.rawValue)])
                }
                text.raw("\n  ]")
            }
            text.raw("\n}\n")
            try file.append(text.bytes)
            try file.commit()
        }
    }

    /// An instant with its local offset, or in UTC when the offset has seconds
    /// (local mean time before a zone's first standard time), which ISO 8601
    /// readers such as Foundation's refuse.
    static func portableInstant(_ date: Date, days: LocalDays) -> String {
        let text = days.internetDateTime(date)
        guard text.count > 25 else { return text }
        return LocalDays.shared(for: TimeZone(identifier: "UTC") ?? .current).internetDateTime(date)
    }

    /// The id itself when it is a UUID, else a UUID made from it (the same
    /// every time): the original app's entries must have one.
    static func uuid(for id: String) -> String {
        if UUIDText.isUUID(id) { return id }
        // Two 64-bit FNV-1a passes over the id, different seeds: an identifier, not a secret.
        var high: UInt64 = 0xcbf2_9ce4_8422_2325, low: UInt64 = 0x8422_2325_cbf2_9ce4
        for byte in id.utf8 {
            high = (high ^ UInt64(byte)) &* 0x100_0000_01b3
            low = (low ^ UInt64(byte ^ 0x5c)) &* 0x100_0000_01b3
        }
        high = (high & ~0xf000) | 0x8000  // Version 8: custom.
        low = (low & ~(0xc << 60)) | (0x8 << 60)  // The RFC 9562 variant.
        return UUIDText.text(high: high, low: low)
    }
}
