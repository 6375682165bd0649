import Foundation
import Settings
import Storage

/// Writes the log as files other programs (and Trend) read back.
enum WeightExport {
    static func csv(_ entries: [WeightEntry], unit: WeightUnit, timeZone: TimeZone) -> Data {
        let formatter = instantFormatter(timeZone)
        var text = "id,date,weight,unit,note\r\n"
        text.reserveCapacity(entries.count * 64)
        for entry in entries {
            text += entry.id + "," + formatter.string(from: entry.date) + "," + "\(unit.value(fromKilograms: entry.kilograms))"
            text += "," + unit.rawValue + "," + field(entry.note ?? "") + "\r\n"
        }
        return Data(text.utf8)
    }

    static func json(_ entries: [WeightEntry], timeZone: TimeZone, exportedAt: Date) throws -> Data {
        let formatter = instantFormatter(timeZone)
        let document: [String: Any] = [
            "format": "trend-weights",
            "formatVersion": 1,
            "exportedAt": formatter.string(from: exportedAt),
            "entries": entries.map { entry -> [String: Any] in
                ["id": entry.id, "date": formatter.string(from: entry.date), "kilograms": entry.kilograms,
                 "note": entry.note ?? NSNull()]
            },
        ]
        do {
            return try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys])
        } catch {
            throw ImportError.exportFailed("the JSON export", reason: (error as NSError).localizedDescription)
        }
    }

    /// Atomically, readable by the owner only.
    static func write(_ data: Data, to url: URL) throws {
        do {
            try data.write(to: url, options: [.atomic])
            chmod(url.path, 0o600)
        } catch {
            throw ImportError.exportFailed(url.path, reason: (error as NSError).localizedDescription)
        }
    }

    static func instantFormatter(_ zone: TimeZone) -> ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = zone
        formatter.formatOptions = [.withInternetDateTime]
        return formatter
    }

    static func field(_ text: String) -> String { CSVTable.field(text) }
}
