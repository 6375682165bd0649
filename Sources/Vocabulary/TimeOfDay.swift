import Foundation

/// A time on the clock, as a reminder's: minutes after midnight, 00:00 to 23:59.
/// Written `21:00`, `9:05`, `9pm`, `9:30 pm`, `noon` or `midnight`; shown `21:00`.
public struct TimeOfDay: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// Minutes after midnight, 0..<1440.
    public let minutes: Int

    public init?(minutes: Int) {
        guard (0..<Self.minutesInDay).contains(minutes) else { return nil }
        self.minutes = minutes
    }

    public static let minutesInDay = 1_440

    /// `21:00`.
    public var description: String { String(format: "%02d:%02d", minutes / 60, minutes % 60) }
    public var hour: Int { minutes / 60 }
    public var minute: Int { minutes % 60 }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.minutes < rhs.minutes }

    /// A time typed alone: `21:00`, `9:05`, `9pm`, `9:30pm`, `noon`, `midnight`; nil when it is none.
    public init?(_ text: String) {
        guard let (time, used) = try? Self.read(ArraySlice([text.lowercased()])), used == 1 else { return nil }
        self = time
    }

    /// Every time in `words` (`10:00 15:00`, `9 pm`, `9am and 6pm`, `9am, 6pm`), in the order of the clock and once
    /// each; the first word that is no time is the error, naming it.
    public static func list(_ words: [String]) throws(TimeOfDayError) -> [TimeOfDay] {
        let words = words.flatMap { $0.lowercased().split(separator: ",").map(String.init) }.filter { !$0.isEmpty && $0 != "and" }
        guard !words.isEmpty else { throw .missing }
        var times: Set<TimeOfDay> = [], index = 0
        while index < words.count {
            guard let (time, used) = try read(words[index...]) else { throw .notATime(words[index]) }
            times.insert(time)
            index += used
        }
        guard times.count <= maximumCount else { throw .tooMany }
        return times.sorted()
    }

    /// How many times one list may hold.
    public static let maximumCount = 12

    /// The time the first words make, with how many it took.
    static func read(_ words: ArraySlice<String>) throws(TimeOfDayError) -> (TimeOfDay, Int)? {
        guard let first = words.first else { return nil }
        switch first {
        case "noon", "midday": return (TimeOfDay(minutes: 720)!, 1)
        case "midnight": return (TimeOfDay(minutes: 0)!, 1)
        default: break
        }
        let clock: (String, Int)?
        do { clock = try WhenInput.clockTime(words) } catch { throw .notATime(words.prefix(2).joined(separator: " ")) }
        let (text, used) = clock ?? (first, 1)
        let fields = text.split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count == 2, (1...2).contains(fields[0].count), fields[1].count == 2,
              fields.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let hour = Int(fields[0]), let minute = Int(fields[1]) else { return nil }
        guard hour < 24, minute < 60 else { throw .notATime(words.prefix(used).joined(separator: " ")) }
        return (TimeOfDay(minutes: hour * 60 + minute)!, used)
    }
}

/// Why words are not a list of times.
public enum TimeOfDayError: Error, Equatable, Sendable, CustomStringConvertible {
    case missing
    case notATime(String)
    case tooMany

    public var description: String {
        switch self {
        case .missing: "no time given; write one or more, such as 21:00, 9pm or 7:30am"
        case let .notATime(text): "'\(text.prefix(40))' is not a time of day; write 21:00, 9pm or 7:30am"
        case .tooMany: "at most \(TimeOfDay.maximumCount) times a day"
        }
    }
}
