import Foundation

/// A period and the one it is compared with, as local days: what `summary`
/// looks back on. `week` is Monday to today against last week, `month` and
/// `year` the same so far against the whole one before, and a RANGE the
/// span of its length just before it.
public struct ComparedPeriods: Sendable, Equatable {
    /// How the period is said (`this week`, `February 2026`).
    public let name: String
    public let current: ClosedRange<Int>
    public let previous: ClosedRange<Int>

    public init(name: String, current: ClosedRange<Int>, previous: ClosedRange<Int>) {
        self.name = name
        self.current = current
        self.previous = previous
    }

    /// The periods `word` names on `today`; nil for a word that names none (or a range all in the future).
    public static func named(_ word: String, today: Int) -> ComparedPeriods? {
        let (year, month, _) = DayNumber.civil(today)
        switch word.lowercased() {
        case "week":
            let monday = today - DayNumber.weekdayFromMonday(today)
            return ComparedPeriods(name: "this week", current: monday...today, previous: (monday - 7)...(monday - 1))
        case "month":
            let first = DayNumber.from(year: year, month: month, day: 1)
            let previousFirst = month == 1 ? DayNumber.from(year: year - 1, month: 12, day: 1) : DayNumber.from(year: year, month: month - 1, day: 1)
            return ComparedPeriods(name: "this month", current: first...today, previous: previousFirst...(first - 1))
        case "year":
            let first = DayNumber.from(year: year, month: 1, day: 1)
            return ComparedPeriods(name: "this year", current: first...today, previous: DayNumber.from(year: year - 1, month: 1, day: 1)...(first - 1))
        default:
            guard let range = DayRange.parse(word, today: today), let first = range.firstDay else { return nil }
            let last = min(range.lastDay ?? today, today)
            guard first <= last else { return nil }
            let (firstYear, firstMonth, _) = DayNumber.civil(first)
            // A month is compared with the month before it, a year with the year before; other spans with as many days just before.
            if word.count == 7, let previous = DayRange.parse(firstMonth == 1 ? String(format: "%04d-12", firstYear - 1)
                                                               : String(format: "%04d-%02d", firstYear, firstMonth - 1), today: today),
               let previousFirst = previous.firstDay {
                return ComparedPeriods(name: range.title, current: first...last, previous: previousFirst...(first - 1))
            }
            if word.count == 4 {
                return ComparedPeriods(name: range.title, current: first...last,
                                       previous: DayNumber.from(year: firstYear - 1, month: 1, day: 1)...(first - 1))
            }
            let length = last - first + 1
            return ComparedPeriods(name: range.title, current: first...last, previous: (first - length)...(first - 1))
        }
    }
}
