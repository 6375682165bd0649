import Foundation

/// A span of local days as a person types it: `Nd`, `Nw`, `Nm` (30 days
/// each), `Ny` (365 days each) up to today; `all`; a month (`2026-02`); a
/// year (`2025`); or `START..END` with ISO dates (either end may be left
/// open: `2026-01-01..`). Pure: the caller gives today's local day.
public struct DayRange: Sendable, Equatable {
    /// The first and last local day, inclusive; nil is open (all history, or up to now).
    public let firstDay: Int?
    public let lastDay: Int?
    /// How messages name it: `2 weeks`, `February 2026`, `2025`, `2026-01-01 to 2026-01-31`, `all time`.
    public let title: String

    public init(firstDay: Int?, lastDay: Int?, title: String) {
        self.firstDay = firstDay
        self.lastDay = lastDay
        self.title = title
    }

    public static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                                    "October", "November", "December"]

    /// The span `text` names, ending today for the relative forms; nil when it is no RANGE.
    public static func parse(_ text: String, today: Int) -> DayRange? {
        let lower = text.lowercased()
        if lower == "all" { return allTime }
        if let (count, unit) = Self.count(lower) {
            let (days, word) = [("d", (1, "day")), ("w", (7, "week")), ("m", (30, "month")), ("y", (365, "year"))]
                .first { $0.0 == unit }?.1 ?? (1, "day")
            // Open at the top: a weigh-in stamped after today (a clock set back) still shows.
            return DayRange(firstDay: today - (count * days - 1), lastDay: nil, title: counted(count, word))
        }
        if lower.contains("..") {
            let ends = lower.components(separatedBy: "..")
            guard ends.count == 2 else { return nil }
            let first = ends[0].isEmpty ? nil : DayNumber.parse(ends[0])
            let last = ends[1].isEmpty ? nil : DayNumber.parse(ends[1])
            guard ends[0].isEmpty || first != nil, ends[1].isEmpty || last != nil, first != nil || last != nil else { return nil }
            if let first, let last, first > last { return nil }
            return DayRange(firstDay: first, lastDay: last, title: "\(ends[0].isEmpty ? "the start" : ends[0]) to \(ends[1].isEmpty ? "now" : ends[1])")
        }
        let parts = lower.split(separator: "-", omittingEmptySubsequences: false)
        if parts.count == 2, parts[0].count == 4, parts[1].count == 2, let year = Int(parts[0]), let month = Int(parts[1]),
           (1900...2200).contains(year), (1...12).contains(month) {
            let first = DayNumber.from(year: year, month: month, day: 1)
            let next = month == 12 ? DayNumber.from(year: year + 1, month: 1, day: 1) : DayNumber.from(year: year, month: month + 1, day: 1)
            return DayRange(firstDay: first, lastDay: next - 1, title: "\(monthNames[month - 1]) \(year)")
        }
        if parts.count == 1, lower.count == 4, let year = Int(lower), (1900...2200).contains(year) {
            return DayRange(firstDay: DayNumber.from(year: year, month: 1, day: 1),
                            lastDay: DayNumber.from(year: year + 1, month: 1, day: 1) - 1, title: lower)
        }
        return nil
    }

    /// All of history.
    public static let allTime = DayRange(firstDay: nil, lastDay: nil, title: "all time")

    /// `2w` → (2, "w"): a count of 1 to 100,000 and one of d, w, m, y.
    private static func count(_ text: String) -> (Int, String)? {
        guard let unit = text.last, "dwmy".contains(unit), let count = Int(text.dropLast()), (1...100_000).contains(count) else { return nil }
        return (count, String(unit))
    }
}

extension DayRange {
    /// The RANGE word that everyday words name, or nil when they name none:
    /// `2 weeks` → `2w`, `a month` → `1m`, `last 3 months` → `3m`,
    /// `last week` → last Monday to Sunday, `this week` → Monday to today,
    /// `last month` and `this month` → the calendar month (`2026-10`),
    /// `last year` and `this year` → `2025`, `february 2026` or `feb` → the month
    /// (without a year, the latest one not in the future). A single word that is
    /// already a RANGE is left to `parse`.
    public static func spoken(_ words: [String], today: Int) -> String? {
        let words = words.map { $0.lowercased() }
        guard !words.isEmpty, words.count <= 3 else { return nil }
        let (year, month, _) = DayNumber.civil(today)
        func monthWord(_ year: Int, _ month: Int) -> String { String(format: "%04d-%02d", year, month) }
        func days(_ first: Int, _ last: Int) -> String { DayNumber.string(first) + ".." + DayNumber.string(last) }
        let units: [String: String] = ["day": "d", "days": "d", "week": "w", "weeks": "w", "month": "m", "months": "m",
                                       "year": "y", "years": "y"]
        var rest = words[...]
        let relative = rest.first.map { ["last", "past", "this"].contains($0) } ?? false
        let lead = relative ? rest.removeFirst() : nil
        // `2 weeks`, `a month`, `last 3 months`, `past 10 days`.
        if rest.count == 2, let unit = units[rest[rest.startIndex + 1]] {
            let number = rest[rest.startIndex]
            guard lead != "this", let count = ["a": 1, "an": 1, "one": 1][number] ?? Int(number), (1...100_000).contains(count) else { return nil }
            return "\(count)\(unit)"
        }
        guard rest.count == 1 || (rest.count == 2 && lead == nil), let word = rest.first else { return nil }
        if let lead, let unit = units[word], rest.count == 1 {
            let monday = today - DayNumber.weekdayFromMonday(today)
            switch (lead, unit) {
            case ("this", "w"): return days(monday, today)
            case ("last", "w"), ("past", "w"): return lead == "past" ? "1w" : days(monday - 7, monday - 1)
            case ("this", "m"): return monthWord(year, month)
            case ("last", "m"): return month == 1 ? monthWord(year - 1, 12) : monthWord(year, month - 1)
            case ("this", "y"): return String(year)
            case ("last", "y"): return String(year - 1)
            case ("past", let unit): return "1\(unit)"
            case ("this", "d"), ("last", "d"): return "1d"
            default: return nil
            }
        }
        // `february 2026`, `feb`, `sept 2025`.
        guard lead == nil, let named = WhenInput.month(word) else { return nil }
        if rest.count == 2 {
            guard let typedYear = Int(rest[rest.startIndex + 1]), (1900...2200).contains(typedYear) else { return nil }
            return monthWord(typedYear, named)
        }
        return monthWord(named > month ? year - 1 : year, named)
    }
}
