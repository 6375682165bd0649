import Foundation
import Storage
import Vocabulary

/// Weigh-ins travel to the person's other devices, each checked as a restore checks it.
extension WeightTable {
    public var syncedTables: [SyncedTable] {
        [SyncedTable(table: journaledTables[0]) { Self.syncProblem($0) }]
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
