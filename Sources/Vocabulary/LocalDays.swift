import Foundation
import Synchronization

/// Numbers local calendar days in one time zone without asking `Calendar`
/// per instant: day 0 is 1970-01-01 local, and an instant's day is
/// `floor((seconds + utcOffset) / 86400)` with the offset looked up in a
/// precomputed table of the zone's transitions (DST-safe).
///
/// - Complexity: building is O(transitions in the span); `day(of:)` is
///   O(log transitions), and O(1) amortised through `DayCursor` for sorted input.
public struct LocalDays: Sendable, Equatable {
    /// Instants (seconds since 1970) at which the offset changes, ascending.
    public let transitions: [Double]
    /// `offsets[i]` applies before `transitions[i]`; the last one after the last transition.
    public let offsets: [Double]
    public let timeZoneIdentifier: String

    /// A table for `timeZone` covering `from`…`to` (widened by a year on each side).
    public init(timeZone: TimeZone, from start: Date, to end: Date) {
        timeZoneIdentifier = timeZone.identifier
        var transitions: [Double] = []
        var offsets: [Double] = []
        var cursor = start.addingTimeInterval(-366 * 86_400)
        let stop = end.addingTimeInterval(366 * 86_400)
        offsets.append(Double(timeZone.secondsFromGMT(for: cursor)))
        while let next = timeZone.nextDaylightSavingTimeTransition(after: cursor), next < stop, transitions.count < 100_000 {
            transitions.append(next.timeIntervalSince1970)
            offsets.append(Double(timeZone.secondsFromGMT(for: next)))
            cursor = next
        }
        self.transitions = transitions
        self.offsets = offsets
    }

    /// A table for `timeZone` around 1900…2200 — every date Trend accepts.
    public init(timeZone: TimeZone) {
        self.init(timeZone: timeZone, from: Date(timeIntervalSince1970: -2_208_988_800),
                  to: Date(timeIntervalSince1970: 7_258_118_400))
    }

    private static let memo = Mutex<[String: LocalDays]>([:])

    /// The 1900…2200 table for `timeZone`, built once per process (about 2 ms
    /// for a zone with daylight saving) and shared by every Feature.
    public static func shared(for timeZone: TimeZone) -> LocalDays {
        if let known = memo.withLock({ $0[timeZone.identifier] }) { return known }
        let built = LocalDays(timeZone: timeZone)
        memo.withLock { $0[timeZone.identifier] = built }
        return built
    }

    public func offset(at seconds: Double) -> Double {
        offsets[firstTransition(after: seconds)]
    }

    /// The local day number of an instant.
    public func day(of date: Date) -> Int {
        let seconds = date.timeIntervalSince1970
        return Int(((seconds + offset(at: seconds)) / 86_400).rounded(.down))
    }

    /// The instant local midnight begins on `day` (the first instant of that day).
    public func startOfDay(_ day: Int) -> Date {
        let localSeconds = Double(day) * 86_400
        // Try the offset in force an offset's width either side; pick the one that maps back.
        let guess = localSeconds - offset(at: localSeconds)
        let corrected = localSeconds - offset(at: guess)
        return Date(timeIntervalSince1970: self.day(of: Date(timeIntervalSince1970: corrected)) == day ? corrected : guess)
    }

    /// The instant a local wall-clock time (seconds since 1970-01-01 00:00
    /// local) names. In the hour a spring change skips, the later offset is used;
    /// in the hour an autumn change repeats, the first occurrence.
    public func instant(localSeconds: Double) -> Date {
        let guess = localSeconds - offset(at: localSeconds)
        let corrected = localSeconds - offset(at: guess)
        let early = localSeconds - offset(at: corrected - 3_600)
        // Prefer the earlier of two instants that both show this wall time.
        if early < corrected, early + offset(at: early) == localSeconds { return Date(timeIntervalSince1970: early) }
        return Date(timeIntervalSince1970: corrected)
    }

    /// The first instant whose wall-clock time is `localSeconds` or, where a spring change skips that time, the
    /// moment the skipped hour ends (02:30 on the night Berlin goes from 02:00 to 03:00 is 03:00): the instant a
    /// time of day set for that night comes due. In the hour an autumn change repeats, the first occurrence.
    public func firstInstant(atOrAfterLocalSeconds localSeconds: Double) -> Date {
        let candidate = instant(localSeconds: localSeconds)
        let seconds = candidate.timeIntervalSince1970
        guard seconds + offset(at: seconds) != localSeconds else { return candidate }
        // In a gap: the change that skipped it is the one whose offset grew past this wall time, either side of the candidate.
        let next = firstTransition(after: seconds)
        for index in [next - 1, next] where transitions.indices.contains(index) {
            let change = transitions[index], before = offsets[index], after = offsets[index + 1]
            if after > before, localSeconds - after <= change, change <= localSeconds - before { return Date(timeIntervalSince1970: change) }
        }
        return candidate
    }

    /// The index of the first transition after `seconds` (`transitions.count` when there is none).
    private func firstTransition(after seconds: Double) -> Int {
        var low = 0, high = transitions.count
        while low < high {
            let middle = (low + high) / 2
            if transitions[middle] <= seconds { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Walks sorted instants, moving through the transition table once.
    public struct DayCursor {
        let days: LocalDays
        var index = 0

        public init(_ days: LocalDays) {
            self.days = days
        }

        /// The local day of `seconds`; calls must come in ascending order.
        public mutating func day(ofSeconds seconds: Double) -> Int {
            Int((localSeconds(of: seconds) / 86_400).rounded(.down))
        }

        /// The local wall-clock time of `seconds`, as seconds since 1970-01-01 00:00 local; calls must come in ascending order.
        public mutating func localSeconds(of seconds: Double) -> Double {
            let transitions = days.transitions
            while index < transitions.count, transitions[index] <= seconds { index += 1 }
            return seconds + days.offsets[index]
        }
    }
}

/// Arithmetic on day numbers: dates, weekdays, labels — no Calendar needed.
public enum DayNumber {
    /// `YYYY-MM-DD` for a day number (1970-01-01 is day 0).
    public static func string(_ day: Int) -> String {
        let (year, month, dayOfMonth) = civil(day)
        func padded(_ number: Int, _ width: Int) -> String {
            let digits = String(number)
            return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
        }
        return padded(year, 4) + "-" + padded(month, 2) + "-" + padded(dayOfMonth, 2)
    }

    /// Year, month and day of a day number (proleptic Gregorian).
    public static func civil(_ day: Int) -> (year: Int, month: Int, day: Int) {
        let z = day + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let dayOfMonth = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, dayOfMonth)
    }

    /// The day number of a civil date.
    /// `yyyy-MM-dd` as a day number; nil for anything else or a date that does not exist.
    public static func parse(_ text: String) -> Int? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              (1...12).contains(month), day >= 1 else { return nil }
        let number = from(year: year, month: month, day: day)
        return civil(number) == (year, month, day) ? number : nil
    }

    public static func from(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// 0 Monday … 6 Sunday (1970-01-01 was a Thursday).
    public static func weekdayFromMonday(_ day: Int) -> Int {
        ((day + 3) % 7 + 7) % 7
    }

    private static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `Jun 1` style label.
    public static func shortLabel(_ day: Int) -> String {
        let (_, month, dayOfMonth) = civil(day)
        return "\(monthNames[month - 1]) \(dayOfMonth)"
    }

    /// `Mon` … `Sun`.
    public static func weekdayName(_ day: Int) -> String { Weekday.shortNames[weekdayFromMonday(day)] }


    /// `Sat 19 Dec`: a day as a person names it in a sentence about the recent past.
    public static func spoken(_ day: Int) -> String {
        let (_, month, dayOfMonth) = civil(day)
        return "\(weekdayName(day)) \(dayOfMonth) \(monthNames[month - 1])"
    }

    /// `Sun 29 Nov 2026`: a day as a heading names it.
    public static func longName(_ day: Int) -> String {
        spoken(day) + " \(civil(day).year)"
    }

    /// `Wed 1 Jul to Sun 5 Jul 2026`: a span of days as a heading names it, the year once where both days share it.
    public static func longName(_ days: ClosedRange<Int>) -> String {
        let first = spoken(days.lowerBound), sameYear = civil(days.lowerBound).year == civil(days.upperBound).year
        return "\(sameYear ? first : longName(days.lowerBound)) to \(longName(days.upperBound))"
    }

    /// `early May`, `mid May`, `late May`: how far a range reaches.
    public static func partOfMonth(_ day: Int) -> String {
        let (_, month, dayOfMonth) = civil(day)
        let part = dayOfMonth <= 10 ? "early" : (dayOfMonth <= 20 ? "mid" : "late")
        return "\(part) \(DayRange.monthNames[month - 1])"
    }
}

extension Date {
    /// The moment as a habit's clock reads it: moved back by the day start (`set day-starts-at`, Loop's "start of
    /// day"), so the habit day rolls over at that time, not at midnight. The one rule for the day-start shift.
    public func habitClock(dayStartMinutes: Int) -> Date {
        addingTimeInterval(-Double(dayStartMinutes) * 60)
    }
}

extension Date {
    /// The whole seconds since 1970 (rounded down): a weigh-in's and a measurement's moment is a whole second,
    /// which duplicates, exports and the samples cache compare.
    public var wholeSecondsSince1970: Int64 { Int64(timeIntervalSince1970.rounded(.down)) }

    /// The moment cut to its whole second (`wholeSecondsSince1970`).
    public var wholeSecond: Date { Date(timeIntervalSince1970: timeIntervalSince1970.rounded(.down)) }
}
