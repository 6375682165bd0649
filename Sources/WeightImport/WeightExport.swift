import Foundation
import Settings
import Storage
import Vocabulary
import WeightLog

/// Writes the log as files other programs (and Trend) read back, a row at a
/// time as the rows are read: memory stays flat however long the log.
enum WeightExport {
    /// A column per `WeightField` (`id,date,weight,unit,note,body_fat,typed_unit`), the unit after the weight, with CRLF
    /// line ends: weights in `unit`, dates with their offset, an unknown value empty.
    final class CSVWriter: @unchecked Sendable {
        // @unchecked: used from the store's thread only, one row after another.
        private let file: AtomicFile
        private let unit: WeightUnit
        /// Whether a weigh-in typed in a unit is written in it (`202.8,lb`), not in `unit`.
        private let keepsTypedUnits: Bool
        private let days: LocalDays

        /// The header: each field's column, and `unit` after the weight.
        static var header: String {
            WeightField.all.flatMap { $0.kind == .kilograms ? [$0.csvColumn, "unit"] : [$0.csvColumn] }.joined(separator: ",")
        }

        init(url: URL, unit: WeightUnit, timeZone: TimeZone, keepsTypedUnits: Bool = true) throws {
            file = try AtomicFile(url: url)
            self.unit = unit
            self.keepsTypedUnits = keepsTypedUnits
            days = LocalDays.shared(for: timeZone)
            try file.append(Self.header + "\r\n")
        }

        func write(_ entry: WeightEntry) throws {
            var line = ""
            for field in WeightField.all {
                if !line.isEmpty { line += "," }
                line += cell(field, entry)
            }
            try file.append(line + "\r\n")
        }

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
            let value = rowUnit.value(fromKilograms: entry.kilograms)
            let shown = typed == rowUnit && rowUnit != .kilograms ? (value * 10_000).rounded() / 10_000 : value
            return "\(shown)," + rowUnit.rawValue
        }

        func commit() throws { try file.commit() }
    }

    /// Trend's JSON export, keys sorted, two-space indents, in the shape the
    /// original Trend app reads (its `WeightStore`: `entries` of `{id: UUID,
    /// date: ISO 8601, kilograms, note: String}` and `goalKilograms`, decoded
    /// by `JSONDecoder` with `.iso8601` dates). Trend's own members ride
    /// along where that schema ignores them: `bodyFatPercent`, `trendID` (an
    /// id that is not a UUID, such as an imported `fitbit-…`), `exportedAt`
    /// and `format`. No `formatVersion`: the original app takes a file with one
    /// for a recovery backup of its own.
    final class JSONWriter: @unchecked Sendable {
        // @unchecked: used from the store's thread only, one row after another.
        private let file: AtomicFile
        private let days: LocalDays
        private let goalKilograms: Double?
        private var first = true

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
            let isUUID = WeightExport.isUUID(entry.id)
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

    /// Whether `id` is written as a UUID (`8-4-4-4-12` hex digits), which is
    /// what `UUID(uuidString:)` accepts, without building one per entry.
    static func isUUID(_ id: String) -> Bool {
        var count = 0
        for byte in id.utf8 {
            let isHyphen = count == 8 || count == 13 || count == 18 || count == 23
            let isHex = (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte) || (0x41...0x46).contains(byte)
            guard isHyphen ? byte == UInt8(ascii: "-") : isHex else { return false }
            count += 1
        }
        return count == 36
    }

    /// The id itself when it is a UUID, else a UUID made from it (the same
    /// every time): the original app's entries must have one.
    static func uuid(for id: String) -> String {
        if isUUID(id) { return id }
        // Two 64-bit FNV-1a passes over the id, different seeds: an identifier, not a secret.
        var high: UInt64 = 0xcbf2_9ce4_8422_2325, low: UInt64 = 0x8422_2325_cbf2_9ce4
        for byte in id.utf8 {
            high = (high ^ UInt64(byte)) &* 0x100_0000_01b3
            low = (low ^ UInt64(byte ^ 0x5c)) &* 0x100_0000_01b3
        }
        high = (high & ~0xf000) | 0x8000  // Version 8: custom.
        low = (low & ~(0xc << 60)) | (0x8 << 60)  // The RFC 9562 variant.
        let hex = String(format: "%016llx%016llx", high, low)
        let characters = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-")
    }
}
