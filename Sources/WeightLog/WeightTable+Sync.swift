import Foundation
import Storage
import Vocabulary

/// Weigh-ins travel to the person's other devices, each checked as a restore checks it.
extension WeightTable {
    public var syncedTables: [SyncedTable] {
        [SyncedTable(table: journaledTables[0], describe: Self.described, arrived: Self.likelyDouble) { Self.syncProblem($0) }]
    }

    /// How near in time and weight a weigh-in from another device is to one here to be named a likely double.
    public static let doubleWindowSeconds = 15.0 * 60, doubleKilograms = 0.1

    /// `is likely a double of this device's 82.4 kg at 07:05; 'delete 1a2b3c4d' removes one`: a weigh-in typed on two
    /// devices within 15 minutes and 0.1 kg is kept twice, and said so once.
    /// A weigh-in that came from the same device (`origin`) is no double typed on two: a device weighing twice in
    /// a quarter of an hour keeps both, as it did there.
    @Sendable static func likelyDouble(_ image: RowImage, _ origin: String, _ timeZone: TimeZone, _ connection: SQLiteConnection) -> String? {
        guard case let .text(id)? = image["id"], let seconds = real(image["instant"]), let kilograms = real(image["kilograms"]) else { return nil }
        // A note only: a double that cannot be looked for is not said.
        let near = try? connection.query("""
            SELECT e.id, e.instant FROM weight_entries e
            WHERE e.id <> ?1 AND e.instant BETWEEN ?2 AND ?3 AND abs(e.kilograms - ?4) <= ?5
            AND NOT EXISTS (SELECT 1 FROM sync_rows s WHERE s.table_code = ?6 AND s.k0 = e.id AND s.k1 = '' AND s.origin = ?7) LIMIT 1
            """, [.text(id), .double(seconds - doubleWindowSeconds), .double(seconds + doubleWindowSeconds), .double(kilograms),
                  .double(doubleKilograms + 1e-9), .int(Self.code), .text(origin)]) { ($0.text(0), $0.double(1)) }.first
        guard let (other, at) = near else { return nil }
        let time = String(LocalDays.shared(for: timeZone).spokenMinute(Date(timeIntervalSince1970: at)).suffix(5))
        let (one, two) = IDPrefix.telling(id, from: other)
        return "is likely a double of the weigh-in of \(time) here (within 15 minutes and 0.1 kg); both are kept, "
            + "'delete \(one)' or 'delete \(two)' removes one"
    }

    /// `the weigh-in of Tue 5 Jan 07:12`, in the person's time zone.
    @Sendable static func described(_ image: RowImage, _ timeZone: TimeZone, _ connection: SQLiteConnection) -> String? {
        guard let seconds = Self.real(image["instant"]) else { return nil }
        return "the weigh-in of " + LocalDays.shared(for: timeZone).spokenMinute(Date(timeIntervalSince1970: seconds))
    }

    /// A real column (an instant's seconds, a weight), stored as a real or an integer.
    static func real(_ value: SQLValue?) -> Double? {
        switch value {
        case let .double(seconds)?: seconds
        case let .int(seconds)?: Double(seconds)
        default: nil
        }
    }

    /// Why a weigh-in from another device cannot be kept: a value of the wrong kind, or a rule of `WeightEntry`.
    static func syncProblem(_ image: RowImage) -> String? {
        var entry = WeightField.blank
        for field in WeightField.all {
            let value: WeightField.Value
            switch (field.kind, image[field.column] ?? .null) {
            case (.id, .text(let text)), (.text, .text(let text)), (.unit, .text(let text)): value = .text(text)
            case (.instant, .double(let number)), (.kilograms, .double(let number)), (.number, .double(let number)): value = .number(number)
            case (.instant, .int(let number)), (.kilograms, .int(let number)), (.number, .int(let number)): value = .number(Double(number))
            case (.text, .null), (.unit, .null), (.number, .null): value = .absent
            default: return "a weigh-in whose \(field.column) is missing or of the wrong kind"
            }
            if field.kind == .unit, case let .text(text) = value, WeightUnit(rawValue: text) == nil { return "a weigh-in typed in an unknown unit" }
            field.set(&entry, value)
        }
        guard WeightEntry.isAcceptedID(entry.id) else { return "a weigh-in with an empty or overlong id" }
        do {
            try entry.validate()
            return nil
        } catch {
            return "a weigh-in that \(error)"
        }
    }
}
