import CommandLanguage
import Foundation
import Vocabulary
import WeightLog

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
