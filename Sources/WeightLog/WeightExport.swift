import Foundation
import Settings
import Storage

/// Writes the log as files other programs (and Trend) read back, a row at a
/// time as the rows are read: memory stays flat however long the log.
enum WeightExport {
    /// `id,date,weight,unit,note,body_fat` with CRLF line ends, weights in `unit`, body fat in percent (empty when unknown).
    final class CSVWriter: @unchecked Sendable {
        // @unchecked: used from the store's thread only, one row after another.
        private let file: AtomicFile
        private let unit: WeightUnit
        private let days: LocalDays

        init(url: URL, unit: WeightUnit, timeZone: TimeZone) throws {
            file = try AtomicFile(url: url)
            self.unit = unit
            days = LocalDays.shared(for: timeZone)
            try file.append("id,date,weight,unit,note,body_fat\r\n")
        }

        func write(_ entry: WeightEntry) throws {
            try file.append(entry.id + "," + days.internetDateTime(entry.date) + "," + "\(unit.value(fromKilograms: entry.kilograms))"
                + "," + unit.rawValue + "," + CSVTable.field(entry.note ?? "") + "," + (entry.bodyFatPercent.map { "\($0)" } ?? "") + "\r\n")
        }

        func commit() throws { try file.commit() }
    }

    /// Trend's JSON export (`format` `trend-weights`, `formatVersion` 1), keys sorted, two-space indents.
    final class JSONWriter: @unchecked Sendable {
        // @unchecked: used from the store's thread only, one row after another.
        private let file: AtomicFile
        private let days: LocalDays
        private var first = true

        init(url: URL, timeZone: TimeZone) throws {
            file = try AtomicFile(url: url)
            days = LocalDays.shared(for: timeZone)
            try file.append("{\n  \"entries\" : [")
        }

        func write(_ entry: WeightEntry) throws {
            var text = CanonicalJSON()
            text.raw(first ? "\n    {\n" : ",\n    {\n")
            first = false
            // Keys sorted; body fat only where known, so a file without it reads as the original app writes it.
            if let bodyFat = entry.bodyFatPercent {
                text.raw("      \"bodyFatPercent\" : ")
                text.number(bodyFat)
                text.raw(",\n")
            }
            text.raw("      \"date\" : ")
            text.string(days.internetDateTime(entry.date))
            text.raw(",\n      \"id\" : ")
            text.string(entry.id)
            text.raw(",\n      \"kilograms\" : ")
            text.number(entry.kilograms)
            text.raw(",\n      \"note\" : ")
            if let note = entry.note { text.string(note) } else { text.raw("null") }
            text.raw("\n    }")
            try file.append(text.bytes)
        }

        func commit(exportedAt: Date) throws {
            var text = CanonicalJSON()
            text.raw(first ? "\n  ],\n  \"exportedAt\" : " : "\n  ],\n  \"exportedAt\" : ")
            text.string(days.internetDateTime(exportedAt))
            text.raw(",\n  \"format\" : \"trend-weights\",\n  \"formatVersion\" : 1\n}\n")
            try file.append(text.bytes)
            try file.commit()
        }
    }
}
