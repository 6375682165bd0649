import Foundation
import Settings
import Storage

/// Writes the log as files other programs (and Trend) read back, a row at a
/// time as the rows are read: memory stays flat however long the log.
enum WeightExport {
    /// `id,date,weight,unit,note` with CRLF line ends, weights in `unit`.
    final class CSVWriter: @unchecked Sendable {
        // @unchecked: used from the store's thread only, one row after another.
        private let file: AtomicFile
        private let unit: WeightUnit
        private let instants: InstantText

        init(url: URL, unit: WeightUnit, timeZone: TimeZone) throws {
            file = try AtomicFile(url: url)
            self.unit = unit
            instants = InstantText(localDays: LocalDays.shared(for: timeZone))
            try file.append("id,date,weight,unit,note\r\n")
        }

        func write(_ entry: WeightEntry) throws {
            try file.append(entry.id + "," + instants.string(entry.date) + "," + "\(unit.value(fromKilograms: entry.kilograms))"
                + "," + unit.rawValue + "," + CSVTable.field(entry.note ?? "") + "\r\n")
        }

        func commit() throws { try file.commit() }
    }

    /// Trend's JSON export (`format` `trend-weights`, `formatVersion` 1), keys sorted, two-space indents.
    final class JSONWriter: @unchecked Sendable {
        // @unchecked: used from the store's thread only, one row after another.
        private let file: AtomicFile
        private let instants: InstantText
        private var first = true

        init(url: URL, timeZone: TimeZone) throws {
            file = try AtomicFile(url: url)
            instants = InstantText(localDays: LocalDays.shared(for: timeZone))
            try file.append("{\n  \"entries\" : [")
        }

        func write(_ entry: WeightEntry) throws {
            var text = CanonicalJSON()
            text.raw(first ? "\n    {\n      \"date\" : " : ",\n    {\n      \"date\" : ")
            first = false
            text.string(instants.string(entry.date))
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
            text.string(instants.string(exportedAt))
            text.raw(",\n  \"format\" : \"trend-weights\",\n  \"formatVersion\" : 1\n}\n")
            try file.append(text.bytes)
            try file.commit()
        }
    }

    /// The instant as `2026-01-04T07:30:00Z` or `…T08:30:00+01:00` in the
    /// zone of `localDays` (what ISO8601DateFormatter writes with
    /// `.withInternetDateTime`), without a formatter per row.
    struct InstantText: Sendable {
        let localDays: LocalDays

        func string(_ date: Date) -> String {
            let seconds = date.timeIntervalSince1970.rounded(.down)
            let offset = Int(localDays.offset(at: seconds))
            let local = Int(seconds) + offset
            let day = Int((Double(local) / 86_400).rounded(.down))
            let secondOfDay = local - day * 86_400
            var text = DayNumber.string(day) + "T" + Self.two(secondOfDay / 3_600) + ":" + Self.two(secondOfDay / 60 % 60)
                + ":" + Self.two(secondOfDay % 60)
            if offset == 0 { return text + "Z" }
            let minutes = abs(offset) / 60
            text += (offset < 0 ? "-" : "+") + Self.two(minutes / 60) + ":" + Self.two(minutes % 60)
            // Local mean time before 1900-ish zones had round offsets: seconds too, as Foundation writes them.
            if abs(offset) % 60 != 0 { text += ":" + Self.two(abs(offset) % 60) }
            return text
        }

        private static func two(_ value: Int) -> String { value < 10 ? "0" + String(value) : String(value) }
    }
}
