import Foundation

/// When something happened, as a person types it: `today` (the current
/// moment), `yesterday`,
/// `YYYY-MM-DD` (noon that day) or `YYYY-MM-DD HH:MM`. Resolving it needs
/// the Feature's clock and calendar, so this only records what was typed.
public enum WhenInput: Sendable, Equatable {
    case current
    case yesterday
    case day(year: Int, month: Int, day: Int)
    case dayTime(year: Int, month: Int, day: Int, hour: Int, minute: Int)

    /// Reads a WHEN at the start of `tokens`, returning it and how many tokens
    /// it used, or nil when the first token is not a WHEN at all.
    public static func parse(_ tokens: ArraySlice<String>) throws(WhenInputError) -> (WhenInput, Int)? {
        guard let first = tokens.first?.lowercased() else { return nil }
        switch first {
        case "today", "now": return (.current, 1)
        case "yesterday": return (.yesterday, 1)
        default: break
        }
        // 2026-06-01T07:30 in one token.
        let parts = first.split(separator: "t", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard let head = parts.first, let date = try parseDate(head) else { return nil }
        if parts.count == 2 {
            let (hour, minute) = try parseTime(parts[1], original: first)
            return (.dayTime(year: date.0, month: date.1, day: date.2, hour: hour, minute: minute), 1)
        }
        let next = tokens.dropFirst().first
        if let next, next.contains(":"), next.first?.isNumber == true {
            let (hour, minute) = try parseTime(next, original: first + " " + next)
            return (.dayTime(year: date.0, month: date.1, day: date.2, hour: hour, minute: minute), 2)
        }
        return (.day(year: date.0, month: date.1, day: date.2), 1)
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
        }
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

    public var description: String {
        switch self {
        case let .impossible(text): "'\(text)' is not a real date or time; write today, yesterday, YYYY-MM-DD or YYYY-MM-DD HH:MM"
        case let .future(text): "\(text) is in the future; only moments up to now can be recorded"
        }
    }
}
