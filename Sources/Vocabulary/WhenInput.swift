import Foundation

/// When something happened, as a person types it:
///
/// - `today` or `now` (the current moment), `21:00` (today at that time);
/// - `yesterday`, a weekday (`monday`, `fri`: the latest one before today),
///   `last fri`, `3 days ago` — each at noon, or with a time after it
///   (`yesterday 21:00`, `last fri 07:30`);
/// - `2026-02-14` (noon), `2026-02-14 07:30` or `2026-02-14T07:30`.
///
/// Resolving it needs the Feature's clock and calendar, so this only records
/// what was typed.
public enum WhenInput: Sendable, Equatable {
    case current
    case yesterday
    case day(year: Int, month: Int, day: Int)
    case dayTime(year: Int, month: Int, day: Int, hour: Int, minute: Int)
    /// A day counted back from today, at noon or at a time.
    case relative(RelativeDay, hour: Int?, minute: Int?)

    /// A day named relative to today.
    public enum RelativeDay: Sendable, Equatable {
        /// `N days ago` (0 is today, 1 yesterday).
        case daysAgo(Int)
        /// The latest such date that is not after today (`apr 12`, `12 apr` without a year).
        case monthDay(month: Int, day: Int)
        /// The latest such weekday before today, 0 Monday … 6 Sunday.
        case weekday(Int)
    }

    /// Reads a WHEN at the start of `tokens`, returning it and how many tokens
    /// it used, or nil when the first token is not a WHEN at all.
    public static func parse(_ tokens: ArraySlice<String>) throws(WhenInputError) -> (WhenInput, Int)? {
        // The everyday forms first become the plain ones (`this morning` → `today 07:00`), each
        // remembering how many typed words it stands for.
        let spoken = try everyday(tokens.map { $0.lowercased() })
        guard let (when, used) = try plain(spoken.map(\.word)) else { return nil }
        return (when, spoken.prefix(used).reduce(0) { $0 + $1.typed })
    }

    /// The words of a day's parts, as the time they mean.
    static let partsOfDay = ["morning": (7, 0), "noon": (12, 0), "midday": (12, 0), "afternoon": (15, 0), "evening": (19, 0),
                             "tonight": (21, 0), "night": (21, 0)]
    static let months = ["jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "sept": 9,
                         "oct": 10, "nov": 11, "dec": 12]

    /// `january`, `jan`, `jan.` → 1.
    static func month(_ word: String) -> Int? {
        let word = word.hasSuffix(".") ? String(word.dropLast()) : word
        guard word.count >= 3 else { return nil }
        if let month = months[word] { return month }
        let full = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"]
        return full.firstIndex(of: word).map { $0 + 1 }
    }

    /// `7am`, `7 pm`, `7:30pm`, `12am` → `HH:MM`, with the words it took; nil when the words there are no such time.
    static func clockTime(_ words: ArraySlice<String>) throws(WhenInputError) -> (String, Int)? {
        guard let first = words.first else { return nil }
        var text = first, used = 1
        if let next = words.dropFirst().first, ["am", "pm", "a.m.", "p.m."].contains(next), first.first?.isNumber == true { text += next; used = 2 }
        let suffix: String
        if text.hasSuffix("a.m.") || text.hasSuffix("p.m.") { suffix = text.hasSuffix("a.m.") ? "am" : "pm"; text.removeLast(4) }
        else if text.hasSuffix("am") || text.hasSuffix("pm") { suffix = String(text.suffix(2)); text.removeLast(2) }
        else { return nil }
        let fields = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(fields.count), fields.allSatisfy({ (1...2).contains($0.count) && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let hour = Int(fields[0]), let minute = fields.count == 2 ? Int(fields[1]) : 0 else { return nil }
        guard (1...12).contains(hour), minute < 60 else { throw .impossible(words.prefix(used).joined(separator: " ")) }
        let hours = (hour % 12) + (suffix == "pm" ? 12 : 0)
        return (String(format: "%02d:%02d", hours, minute), used)
    }

    /// The everyday forms as the plain ones, each with the count of typed words it stands for:
    /// `at 7am`, `7:30pm`, `this morning`, `yesterday evening`, `apr 12`, `12 april 2026`, `12/04/2026`.
    static func everyday(_ words: [String]) throws(WhenInputError) -> [(word: String, typed: Int)] {
        var result: [(word: String, typed: Int)] = []
        var index = 0, pendingAt = 0
        while index < words.count {
            let word = words[index], rest = words[index...]
            // `at` before a time is the time.
            if word == "at", index + 1 < words.count, try clockTime(words[(index + 1)...]) != nil || words[index + 1].contains(":")
                || partsOfDay[words[index + 1]] != nil {
                pendingAt += 1
                index += 1
                continue
            }
            func append(_ plain: String, _ typed: Int) {
                result.append((plain, typed + pendingAt))
                pendingAt = 0
                index += typed
            }
            if let (time, used) = try clockTime(rest) {
                append(time, used)
            } else if word == "this", index + 1 < words.count, let (hour, minute) = partsOfDay[words[index + 1]] {
                result.append(("today", 1))
                index += 1
                append(String(format: "%02d:%02d", hour, minute), 1)
            } else if word == "last", index + 1 < words.count, words[index + 1] == "night" {
                // A weigh-in typed after midnight that belongs to the evening before.
                result.append(("yesterday", 1 + pendingAt))
                pendingAt = 0
                index += 1
                append("23:59", 1)
            } else if word == "tonight" {
                result.append(("today", pendingAt))
                pendingAt = 0
                append("21:00", 1)
            } else if let (hour, minute) = partsOfDay[word] {
                append(String(format: "%02d:%02d", hour, minute), 1)
            } else if let date = try monthDate(rest) {
                append(date.text, date.used)
            } else if let date = try slashDate(word) {
                append(date, 1)
            } else {
                append(word, 1)
            }
        }
        return result
    }

    /// `apr 12`, `12 apr`, `april 12 2026`, `12 april 2026` → `2026-04-12`, or `m04-12` without a year.
    static func monthDate(_ words: ArraySlice<String>) throws(WhenInputError) -> (text: String, used: Int)? {
        let list = Array(words.prefix(3))
        guard list.count >= 2 else { return nil }
        let dayWord: String, monthNumber: Int
        if let month = month(list[0]), let day = Int(list[1].trimmingCharacters(in: CharacterSet(charactersIn: ",")).filter(\.isNumber)),
           list[1].first?.isNumber == true {
            (dayWord, monthNumber) = (String(day), month)
        } else if let month = month(list[1]), list[0].first?.isNumber == true,
                  let day = Int(list[0].filter(\.isNumber)) {
            (dayWord, monthNumber) = (String(day), month)
        } else {
            return nil
        }
        guard let day = Int(dayWord), (1...31).contains(day) else { throw .impossible(list.prefix(2).joined(separator: " ")) }
        if list.count == 3, list[2].count == 4, let year = Int(list[2]), (1900...2200).contains(year) {
            return (String(format: "%04d-%02d-%02d", year, monthNumber, day), 3)
        }
        return (String(format: "m%02d-%02d", monthNumber, day), 2)
    }

    /// `12/04/2026`: the order is plain only when one part is above 12; `4/12/2026` against `12/4/2026` is refused.
    static func slashDate(_ word: String) throws(WhenInputError) -> String? {
        let fields = word.split(separator: "/", omittingEmptySubsequences: false)
        guard fields.count == 3, fields.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let a = Int(fields[0]), let b = Int(fields[1]), let year = Int(fields[2]), fields[2].count == 4 else { return nil }
        let (day, month): (Int, Int)
        if a > 12, b <= 12 { (day, month) = (a, b) }
        else if b > 12, a <= 12 { (day, month) = (b, a) }
        else if a == b { (day, month) = (a, b) }
        else { throw .ambiguous(word) }
        return String(format: "%04d-%02d-%02d", year, month, day)
    }

    /// The plain forms: a relative day, today or now, a time, an ISO date, a month and day.
    private static func plain(_ words: [String]) throws(WhenInputError) -> (WhenInput, Int)? {
        guard let first = words.first else { return nil }
        if first.hasPrefix("m"), first.count == 6, let month = Int(first.dropFirst().prefix(2)), let day = Int(first.suffix(2)) {
            if words.count > 1, let time = try time(words[1], original: first + " " + words[1]) {
                return (.relative(.monthDay(month: month, day: day), hour: time.0, minute: time.1), 2)
            }
            return (.relative(.monthDay(month: month, day: day), hour: nil, minute: nil), 1)
        }
        if let (day, used) = relativeDay(words) {
            // A time may follow: yesterday 21:00, last fri 07:30, 3 days ago 20:15.
            if used < words.count, let time = try time(words[used], original: words.prefix(used + 1).joined(separator: " ")) {
                return (.relative(day, hour: time.0, minute: time.1), used + 1)
            }
            return (day == .daysAgo(1) ? .yesterday : .relative(day, hour: nil, minute: nil), used)
        }
        switch first {
        case "today", "now":
            if words.count > 1, let time = try time(words[1], original: first + " " + words[1]) {
                return (.relative(.daysAgo(0), hour: time.0, minute: time.1), 2)
            }
            return (.current, 1)
        default: break
        }
        // 21:00 alone: today at that time.
        if let time = try time(first, original: first) { return (.relative(.daysAgo(0), hour: time.0, minute: time.1), 1) }
        // 2026-06-01T07:30 in one token.
        let parts = first.split(separator: "t", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard let head = parts.first, let date = try parseDate(head) else { return nil }
        if parts.count == 2 {
            let (hour, minute) = try parseTime(parts[1], original: first)
            return (.dayTime(year: date.0, month: date.1, day: date.2, hour: hour, minute: minute), 1)
        }
        if words.count > 1, let time = try time(words[1], original: first + " " + words[1]) {
            return (.dayTime(year: date.0, month: date.1, day: date.2, hour: time.0, minute: time.1), 2)
        }
        return (.day(year: date.0, month: date.1, day: date.2), 1)
    }

    /// `yesterday`, a weekday, `last fri`, `N days ago` (or `N day ago`) at the start of `words`.
    private static func relativeDay(_ words: [String]) -> (RelativeDay, Int)? {
        guard let first = words.first else { return nil }
        if first == "yesterday" { return (.daysAgo(1), 1) }
        if let weekday = Weekday.index(of: first) { return (.weekday(weekday), 1) }
        if first == "last", words.count > 1, let weekday = Weekday.index(of: words[1]) { return (.weekday(weekday), 2) }
        if words.count >= 3, let count = Int(first), (0...36_500).contains(count), ["day", "days"].contains(words[1]), words[2] == "ago" {
            return (.daysAgo(count), 3)
        }
        return nil
    }

    /// `HH:MM` (or `H:MM`, `HH:MM:SS`): nil when the word is no time at all, an error when it is a broken one.
    private static func time(_ word: String, original: String) throws(WhenInputError) -> (Int, Int)? {
        guard word.contains(":"), word.first?.isNumber == true, !word.contains("-") else { return nil }
        return try parseTime(word, original: original)
    }

    /// Reads a WHEN at the start of `tokens` if there is one and moves past
    /// it; `.current` when the words there are not a WHEN.
    public static func take(from tokens: inout ArraySlice<String>) throws(WhenInputError) -> WhenInput {
        guard let (when, used) = try parse(tokens) else { return .current }
        tokens = tokens.dropFirst(used)
        return when
    }

    /// The instant this names, or why it cannot be used. Days are noon local time;
    /// a day after today is refused.
    public func resolve(now: Date, calendar: Calendar) throws(WhenInputError) -> Date {
        switch self {
        case .current:
            return now
        case .yesterday:
            let today = calendar.startOfDay(for: now)
            guard let yesterday = calendar.date(byAdding: .day, value: -1, to: today),
                  let noon = calendar.date(bySettingHour: 12, minute: 0, second: 0, of: yesterday) else {
                throw .impossible("yesterday")
            }
            return noon
        case let .day(year, month, day):
            // A date without a time is noon, except today, when noon may not have come yet: then it is now.
            let noon = try checked(year, month, day, 12, 0, now: now, calendar: calendar, allowingLaterToday: true)
            return calendar.isDate(noon, inSameDayAs: now) ? now : noon
        case let .dayTime(year, month, day, hour, minute):
            return try checked(year, month, day, hour, minute, now: now, calendar: calendar)
        case let .relative(relative, hour, minute):
            let today = calendar.startOfDay(for: now)
            let back: Int
            switch relative {
            case let .daysAgo(count): back = count
            case let .monthDay(month, day):
                // This year's, unless it is still to come: then last year's.
                let year = calendar.component(.year, from: today)
                let thisYear = calendar.date(from: DateComponents(year: year, month: month, day: day)).map { $0 > today } ?? true
                let chosen = thisYear ? year - 1 : year
                guard let hour, let minute else { return try WhenInput.day(year: chosen, month: month, day: day).resolve(now: now, calendar: calendar) }
                return try checked(chosen, month, day, hour, minute, now: now, calendar: calendar)
            case let .weekday(weekday):
                // Monday is 0: Foundation counts Sunday as 1.
                let todayFromMonday = (calendar.component(.weekday, from: today) + 5) % 7
                back = (todayFromMonday - weekday + 6) % 7 + 1
            }
            guard let day = calendar.date(byAdding: .day, value: -back, to: today) else { throw .impossible("\(back) days ago") }
            let parts = calendar.dateComponents([.year, .month, .day], from: day)
            guard let year = parts.year, let month = parts.month, let dayOfMonth = parts.day else { throw .impossible("\(back) days ago") }
            guard let hour, let minute else {
                return try WhenInput.day(year: year, month: month, day: dayOfMonth).resolve(now: now, calendar: calendar)
            }
            return try checked(year, month, dayOfMonth, hour, minute, now: now, calendar: calendar)
        }
    }

    /// What to say of an instant whose local time happened twice (the fall-back night): it is taken at its first
    /// occurrence, before the clocks went back; nil for any other instant.
    public static func repeatedTimeNote(_ date: Date, calendar: Calendar) -> String? {
        let local = calendar.dateComponents([.hour, .minute], from: date)
        let hourLater = calendar.dateComponents([.hour, .minute], from: date.addingTimeInterval(3_600))
        guard local == hourLater, let hour = local.hour, let minute = local.minute else { return nil }
        let zone = calendar.timeZone.abbreviation(for: date) ?? calendar.timeZone.identifier
        return String(format: "%02d:%02d happened twice that night (the clocks went back); it is taken as the first, %02d:%02d %@",
                      hour, minute, hour, minute, zone)
    }

    /// How far ahead of the clock a typed time may be: another device's clock may run a little fast.
    public static let clockSkew: TimeInterval = 5 * 60

    private func checked(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int,
                         now: Date, calendar: Calendar, allowingLaterToday: Bool = false) throws(WhenInputError) -> Date {
        let text = String(format: "%04d-%02d-%02d", year, month, day)
        let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute)
        // 2026-02-30 would roll over to March; a date that does not map back is not real.
        guard let date = calendar.date(from: components),
              calendar.dateComponents([.year, .month, .day], from: date) == DateComponents(year: year, month: month, day: day) else {
            throw .impossible(text)
        }
        // A time the clocks skipped (the spring-forward gap) maps to one after it: refused, naming the first minute after.
        let local = calendar.dateComponents([.hour, .minute], from: date)
        if local.hour != hour || local.minute != minute {
            let gapEnd = calendar.timeZone.nextDaylightSavingTimeTransition(after: date.addingTimeInterval(-86_400)) ?? date
            let after = calendar.dateComponents([.hour, .minute], from: gapEnd)
            throw .skipped(String(format: "%@ %02d:%02d", text, hour, minute), zone: calendar.timeZone.identifier,
                           firstAfter: String(format: "%02d:%02d", after.hour ?? 0, after.minute ?? 0))
        }
        let startOfTomorrow = calendar.date(byAdding: .day, value: 1, to: calendar.startOfDay(for: now)) ?? now
        guard date < startOfTomorrow else { throw .future(text) }
        if !allowingLaterToday, date.timeIntervalSince(now) > Self.clockSkew {
            throw .future(String(format: "%@ %02d:%02d", text, hour, minute))
        }
        return date
    }

    private static func parseDate(_ text: String) throws(WhenInputError) -> (Int, Int, Int)? {
        let fields = text.split(separator: "-", omittingEmptySubsequences: false)
        guard fields.count == 3, fields[0].count == 4, fields.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }) else {
            return nil
        }
        guard let year = Int(fields[0]), let month = Int(fields[1]), let day = Int(fields[2]) else { return nil }
        guard (1900...2200).contains(year), (1...12).contains(month), (1...31).contains(day) else {
            throw .impossible(text)
        }
        return (year, month, day)
    }

    private static func parseTime(_ text: String, original: String) throws(WhenInputError) -> (Int, Int) {
        let fields = text.split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count == 2 || fields.count == 3,
              fields.allSatisfy({ (1...2).contains($0.count) && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let hour = Int(fields[0]), let minute = Int(fields[1]), hour < 24, minute < 60 else {
            throw .impossible(original)
        }
        return (hour, minute)
    }
}

/// Why a WHEN was refused.
public enum WhenInputError: Error, Equatable, CustomStringConvertible, Sendable {
    case impossible(String)
    case future(String)
    /// `4/12/2026`: the 4th of December or April 12th.
    case ambiguous(String)
    /// A local time the clocks skipped (the spring-forward night), with the first minute after the gap.
    case skipped(String, zone: String, firstAfter: String)

    public var description: String {
        switch self {
        case let .ambiguous(text): "'\(text)' could be read day first or month first; write it as YYYY-MM-DD or with the month's name (12 apr 2026)"
        case let .impossible(text): "'\(text)' is not a real date or time; write today, yesterday, a weekday, last fri, 3 days ago, 21:00, YYYY-MM-DD or YYYY-MM-DD HH:MM"
        case let .future(text): "\(text) is in the future; only moments up to now can be recorded"
        case let .skipped(text, zone, firstAfter):
            "\(text) did not happen in \(zone): the clocks went forward there; the first minute after the gap is \(firstAfter)"
        }
    }
}
