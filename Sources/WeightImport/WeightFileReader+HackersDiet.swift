import Foundation
import Vocabulary

/// Hacker's Diet Online's CSV export, whose unit is the file's own.
extension WeightFileReader {
    /// Hacker's Diet Online's CSV export: a few account rows (`Epoch`,
    /// `User`, `Preferences`, `Diet-Plan`), then per month a `Date,Weight,
    /// Rung,Flag,Comment` header, a `StartTrend` row and a row a day. The unit
    /// is the file's, not the display unit: `Preferences` names the log unit
    /// (`kilogram`, `pound`, `stone`) and each month's `StartTrend` row gives
    /// its own as a code in its third field (0 kg, 1 lb, 2 stone). A stone log
    /// holds pounds (stones are how HDO shows them).
    func readHackersDiet(_ records: Records, header: Int) -> ReadOutcome {
        var outcome = ReadOutcome(format: .hackersDiet, unit: displayUnit, unitAssumed: true)
        var unit: WeightUnit?
        var index = 0
        records { record in
            index += 1
            let dateText = field(record.fields, 0)
            switch dateText.lowercased() {
            case "preferences":
                if let named = Self.hackersDietUnit(named: field(record.fields, 2)) {
                    unit = unit ?? named
                    if outcome.unitAssumed { (outcome.unit, outcome.unitAssumed) = (named, false) }
                }
                return
            case "starttrend":
                if let coded = Self.hackersDietUnit(code: field(record.fields, 2)) {
                    unit = coded
                    if outcome.unitAssumed { (outcome.unit, outcome.unitAssumed) = (coded, false) }
                }
                return
            case "date":
                // Each month repeats the column names.
                return
            default:
                break
            }
            guard index > header + 1 else { return }
            // Summary and section rows between the data do not start with a date.
            guard dates.parse(dateText) != nil || dateText.first?.isNumber == true else { outcome.skipped += 1; return }
            add(record.line, dateText: dateText, weightText: field(record.fields, 1), unit: unit ?? outcome.unit,
                note: record.fields.count > 4 ? Self.perlEscapes(field(record.fields, 4)) : nil, id: nil, to: &outcome)
        }
        return outcome
    }

    /// HDO's unit words; a stone log is kept in pounds.
    static func hackersDietUnit(named word: String) -> WeightUnit? {
        switch word.lowercased() {
        case "kilogram", "kilograms", "kg", "kgs", "kilo", "kilos": .kilograms
        case "pound", "pounds", "lb", "lbs", "stone", "stones", "st": .pounds
        default: nil
        }
    }

    /// HDO's unit codes: 0 kilograms, 1 pounds, 2 stones (kept in pounds).
    static func hackersDietUnit(code: String) -> WeightUnit? {
        switch code {
        case "0": .kilograms
        case "1", "2": .pounds
        default: nil
        }
    }
}
