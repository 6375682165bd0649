import Foundation
import Storage
import Vocabulary

/// Habits and their days travel to the person's other devices, each checked
/// as a restore checks it. A day's amount adds up when two devices each add
/// to it (`habit done Water +1`); the same habit (one name, schedule, kind,
/// target and unit) added on two devices becomes one, with the days of both,
/// and two different habits of one name keep both, the later one renamed.
extension HabitsTable {
    public var syncedTables: [SyncedTable] {
        let tables = journaledTables
        return [
            SyncedTable(table: tables[0], renamed: Self.renamed, describe: { image, _, _ in
                guard case let .text(name)? = image["name"] else { return nil }
                return "the habit '\(name)'"
            }, same: { one, other in
                guard let one = Self.row(one), let other = Self.row(other) else { return false }
                return one.name.lowercased() == other.name.lowercased() && one.schedule == other.schedule && one.kind == other.kind
                    && one.target == other.target && one.unit == other.unit
            }) { image in
                guard let row = Self.row(image) else { return "a habit with a value of the wrong kind" }
                guard image["name_key"] == .text(row.name.lowercased()) else { return "a habit whose name and name key disagree" }
                return Self.problem(row, name: row.name.trimmingCharacters(in: .whitespaces), ids: [], names: [])
            },
            SyncedTable(table: tables[1], additive: "value", acceptedAddition: HabitMark.acceptedValues, describe: { image, _, connection in
                guard case let .int(day)? = image["day"], let name = Self.name(of: image["habit_id"], in: connection) else { return nil }
                return "\(name), \(DayNumber.spoken(day))"
            }) { image in
                guard let record = Self.record(image) else { return "a habit day with a value of the wrong kind" }
                return Self.problem(record, habits: [record.habitID])
            },
            // A habit's reminder times travel as `habit remind` set them; a reminder sent on one device is sent on none other.
            SyncedTable(table: tables[2], describe: { image, _, connection in
                Self.name(of: image["habit_id"], in: connection).map { "the reminder times of \($0)" }
            }) { image in
                guard case .text? = image["habit_id"], case let .text(times)? = image["times"] else {
                    return "a habit's reminder times of the wrong kind"
                }
                return HabitReminderTimes.read(times) == nil ? "a habit's reminder times '\(times.prefix(40))' that are not times of day" : nil
            },
            SyncedTable(table: tables[3]) { image in
                guard case .text? = image["habit_id"], case let .int(moment)? = image["moment"] else { return "a reminder sent of the wrong kind" }
                return PlausibleTime.days.contains(moment / TimeOfDay.minutesInDay) ? nil : "a reminder sent before 1900 or after 2199"
            },
        ]
    }

    /// The name of the habit with the id `id`, when it is here (a note about one of its days names it so).
    static func name(of id: SQLValue?, in connection: SQLiteConnection) -> String? {
        guard case let .text(id)? = id else { return nil }
        // A name for a note: a habit not here (or not readable) leaves the note naming the row by its key.
        return (try? connection.query("SELECT name FROM habits WHERE id = ?", [.text(id)]) { $0.text(0) })?.first
    }

    /// The habit under the name `Name (n)`.
    @Sendable static func renamed(_ image: RowImage, _ n: Int) -> RowImage {
        guard case let .text(name)? = image["name"] else { return image }
        var base = name
        if let open = name.range(of: " (", options: .backwards), name.hasSuffix(")"), Int(name[open.upperBound...].dropLast()) != nil {
            base = String(name[..<open.lowerBound])
        }
        var renamed = image
        let new = "\(base.prefix(HabitName.maximumLength - 5)) (\(n))"
        renamed["name"] = .text(new)
        renamed["name_key"] = .text(new.lowercased())
        return renamed
    }

    static func row(_ image: RowImage) -> Row? {
        guard case let .text(id)? = image["id"], case let .text(name)? = image["name"], case let .text(schedule)? = image["schedule"],
              case let .text(kind)? = image["kind"], case let .int(created)? = image["created_day"] else { return nil }
        guard let target = number(image["target"]) else { return nil }
        guard case let .int(archived) = image["archived"] ?? .int(0), case let .int(position) = image["position"] ?? .int(0) else { return nil }
        var unit: String?
        switch image["unit"] ?? .null {
        case .null: unit = nil
        case let .text(text): unit = text.isEmpty ? nil : text
        default: return nil
        }
        return Row(id: id, name: name, schedule: schedule, kind: kind, target: target, createdDay: created, archived: archived != 0,
                   position: position, unit: unit)
    }

    /// A number column's value: `.some(nil)` for NULL, nil for a value of another kind.
    private static func number(_ value: SQLValue?) -> Double?? {
        switch value ?? .null {
        case .null: .some(nil)
        case let .int(number): Double(number)
        case let .double(number): number
        default: nil
        }
    }

    static func record(_ image: RowImage) -> RecordRow? {
        guard case let .text(habit)? = image["habit_id"], case let .int(day)? = image["day"], case let .text(status)? = image["status"]
        else { return nil }
        guard let value = number(image["value"]) else { return nil }
        var note: String?
        switch image["note"] ?? .null {
        case .null: note = nil
        case let .text(text): note = text
        default: return nil
        }
        return RecordRow(habitID: habit, day: day, status: status, value: value, note: note)
    }
}
