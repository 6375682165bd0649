import CommandLanguage
import Foundation
import Vocabulary
import WeightLog

/// Dates for people and for scripts, in the Features' time zone, from the
/// zone's table (`LocalDays`) rather than a formatter: `entries all` on a
/// million weigh-ins formats a million of them.
struct DateText {
    let timeZone: TimeZone
    private let days: LocalDays

    init(timeZone: TimeZone) {
        self.timeZone = timeZone
        days = LocalDays.shared(for: timeZone)
    }

    /// ISO 8601 with the local offset, e.g. `2026-06-01T07:30:00-04:00`.
    func instant(_ date: Date) -> String {
        days.internetDateTime(date)
    }

    /// `2026-06-01 07:30`.
    func local(_ date: Date) -> String {
        days.localMinute(date)
    }
}

extension JSON {
    /// An entry as scripts read it (`EntryValue`).
    static func entry(_ entry: WeightEntry, dates: DateText) -> JSON {
        JSON(encoding: EntryValue(entry: entry, dates: dates))
    }
}

/// A weigh-in in an answer: every field (`WeightField`) under its export key, an unknown one `null`, the moment
/// with its offset.
struct EntryValue: Encodable {
    let entry: WeightEntry
    let dates: DateText

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnswerKey.self)
        for field in WeightField.all {
            let key = AnswerKey(field.exportKey)
            switch (field.kind, field.get(entry)) {
            case (.instant, _): try container.encode(dates.instant(entry.date), forKey: key)
            case let (_, .text(text)): try container.encode(text, forKey: key)
            case let (_, .number(number)): try container.encode(number, forKey: key)
            case (_, .absent): try container.encodeNil(forKey: key)
            }
        }
    }
}
