import Settings
import Foundation
import WeightLog

/// Dates for people and for scripts, in the Features' time zone.
struct DateText {
    let timeZone: TimeZone

    /// ISO 8601 with the local offset, e.g. `2026-06-01T07:30:00-04:00`.
    func instant(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = timeZone
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    /// `2026-06-01 07:30`.
    func local(_ date: Date) -> String {
        format(date, "yyyy-MM-dd HH:mm")
    }

    /// `07:30`.
    func time(_ date: Date) -> String {
        format(date, "HH:mm")
    }

    private func format(_ date: Date, _ pattern: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = pattern
        return formatter.string(from: date)
    }

    /// `Sun 29 Nov 2026` for a day number.
    static func longDay(_ day: Int) -> String {
        let (year, _, dayOfMonth) = DayNumber.civil(day)
        let month = DayNumber.shortLabel(day).prefix(3)
        return "\(DayNumber.weekdayName(day)) \(dayOfMonth) \(month) \(year)"
    }
}

extension JSON {
    /// An entry as scripts read it.
    static func entry(_ entry: WeightEntry, dates: DateText) -> JSON {
        .object([
            ("id", .string(entry.id)),
            ("date", .string(dates.instant(entry.date))),
            ("kilograms", .number(entry.kilograms)),
            ("note", .optional(entry.note)),
        ])
    }
}
