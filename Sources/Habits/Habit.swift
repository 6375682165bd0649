/// Habits owns habits: their schedules and kinds, the days marked done,
/// skipped or with a value, streaks and Loop-style strength, the repository,
/// and HabitsFeature. It imports Storage and Settings; no other feature.
import Foundation
import Vocabulary

/// When a habit is meant to happen.
public enum HabitSchedule: Sendable, Equatable, Hashable, Codable {
    case daily
    /// Chosen weekdays, 0 Monday … 6 Sunday.
    case weekdays(Set<Int>)
    /// N times in each calendar week (Monday to Sunday).
    case timesPerWeek(Int)
    /// N times in each block of M days counted from the habit's first day.
    case timesPerDays(times: Int, days: Int)

    /// Repetitions per day, Loop's `f`.
    public var frequency: Double {
        switch self {
        case .daily: return 1
        case let .weekdays(days): return Double(days.count) / 7
        case let .timesPerWeek(times): return Double(times) / 7
        case let .timesPerDays(times, days): return Double(times) / Double(days)
        }
    }

    /// Repetitions and the length in days of the trailing period strength looks back over.
    var period: (times: Int, days: Int) {
        switch self {
        case .daily: return (1, 1)
        case let .weekdays(days): return (days.count, 7)
        case let .timesPerWeek(times): return (times, 7)
        case let .timesPerDays(times, days): return (times, days)
        }
    }

    /// `mon` … `sun`, as a schedule's code and text write a weekday.
    private static let weekdayNames = Weekday.shortNames.map { $0.lowercased() }

    /// How the schedule is stored: `daily`, `weekdays:mon,wed,fri`,
    /// `week:3`, `days:2/10`. Stable: a stored code is read by every later
    /// Trend. The words shown to a person are `text`.
    public var code: String {
        switch self {
        case .daily: return "daily"
        case let .weekdays(days): return "weekdays:" + days.sorted().map { Self.weekdayNames[$0] }.joined(separator: ",")
        case let .timesPerWeek(times): return "week:\(times)"
        case let .timesPerDays(times, days): return "days:\(times)/\(days)"
        }
    }

    /// Reads a stored `code`.
    public init?(code: String) {
        let parts = code.split(separator: ":", maxSplits: 1).map(String.init)
        switch (parts.first, parts.count) {
        case ("daily", 1): self = .daily
        case ("weekdays", 2):
            guard let schedule = HabitSchedule(text: parts[1]), case .weekdays = schedule else { return nil }
            self = schedule
        case ("week", 2):
            guard let times = Int(parts[1]), (1...6).contains(times) else { return nil }
            self = .timesPerWeek(times)
        case ("days", 2):
            guard let schedule = HabitSchedule(text: parts[1]), case .timesPerDays = schedule else { return nil }
            self = schedule
        default: return nil
        }
    }

    /// Reads a schedule in the words people type: `every day`, `daily`,
    /// `weekdays`, `weekends`, `mon,wed,fri`, `mon wed fri`, `3/week`,
    /// `3 per week`, `2/10`, `2 per 10 days`. Snapshots of format 1 stored
    /// these words, so they are read there too.
    public init?(text: String) {
        let words = text.lowercased().split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
        // "every" and "times"/"x" add nothing: "every mon wed fri", "3 times a week", "3x/week".
        var plain = words.filter { $0 != "times" && $0 != "time" }
        if plain.first == "every", plain.count > 1 { plain.removeFirst() }
        let joined = plain.joined(separator: " ")
        switch joined {
        case "", "day", "everyday", "daily": self = .daily; return
        case "weekday", "weekdays": self = .weekdays([0, 1, 2, 3, 4]); return
        case "weekend", "weekends": self = .weekdays([5, 6]); return
        case "week": self = .timesPerWeek(1); return
        case "month": self = .timesPerDays(times: 1, days: 30); return
        default: break
        }
        if let schedule = Self.quota(plain) { self = schedule; return }
        if let days = Self.weekdays(plain), !days.isEmpty {
            self = days.count == 7 ? .daily : .weekdays(days)
            return
        }
        return nil
    }

    /// `3/week`, `3 a week`, `3x week`, `2/10`, `2 per 10 days`, `2 in 10`, `4 a month`, `2 days` (every 2 days).
    private static func quota(_ words: [String]) -> HabitSchedule? {
        let text = words.joined(separator: " ").replacingOccurrences(of: "/", with: " / ")
        var tokens = text.split(separator: " ").map(String.init).filter { !["a", "per", "/", "each", "in", "every"].contains($0) }
        if let first = tokens.first, first.hasSuffix("x"), Int(first.dropLast()) != nil { tokens[0] = String(first.dropLast()) }
        guard let times = tokens.first.flatMap({ Int($0) }), times >= 1 else { return nil }
        let unit = Array(tokens.dropFirst())
        switch unit {
        case ["week"], ["weeks"], ["w"], ["wk"]:
            guard times <= 7 else { return nil }
            return times == 7 ? .daily : .timesPerWeek(times)
        case ["month"], ["months"], ["mo"]:
            guard times <= 30 else { return nil }
            return .timesPerDays(times: times, days: 30)
        case ["day"], ["days"], ["d"]:
            // "every 3 days": once in 3.
            return times == 1 ? .daily : .timesPerDays(times: 1, days: times)
        default:
            guard unit.count == 1 || (unit.count == 2 && ["day", "days", "d"].contains(unit[1])),
                  let days = Int(unit[0]), days >= 1, days <= 365, times <= days else { return nil }
            return times == days ? .daily : .timesPerDays(times: times, days: days)
        }
    }

    /// `mon wed fri`, `monday`, `mon-fri`, `sat-sun`.
    private static func weekdays(_ words: [String]) -> Set<Int>? {
        var days = Set<Int>()
        for word in words {
            let ends = word.split(separator: "-").map(String.init)
            guard let first = ends.first.flatMap(Weekday.index(of:)) else { return nil }
            if ends.count == 2, let last = Weekday.index(of: ends[1]) {
                var day = first
                while true {
                    days.insert(day)
                    if day == last { break }
                    day = (day + 1) % 7
                }
            } else {
                guard ends.count == 1 else { return nil }
                days.insert(first)
            }
        }
        return days
    }

    /// The schedule in the words `init?(text:)` reads back: `every day`, `mon,wed,fri`, `3/week`, `every 2 days`,
    /// `2/10`; what every screen and the JSON answers show.
    public var text: String {
        switch self {
        case .daily: "every day"
        case let .weekdays(days): days.sorted().map { Self.weekdayNames[$0] }.joined(separator: ",")
        case let .timesPerWeek(times): "\(times)/week"
        case let .timesPerDays(1, days): "every \(days) days"
        case let .timesPerDays(times, days): "\(times)/\(days)"
        }
    }

    /// The forms `init?(text:)` reads, for a message that lists them.
    public static let acceptedForms = "every day, daily, weekdays, weekends, mon,wed,fri, every mon wed fri, mon-fri, "
        + "3 times a week, 3x/week, 3/week, every week, every 3 days, 2 times per 10 days, 2/10, 4 times a month"

    /// The quota period holding `day`: Monday to Sunday for `N/week`,
    /// blocks of M days from the habit's first day for `N/M`, the day itself
    /// otherwise. The one definition of a habit period.
    public func period(containing day: Int, firstDay: Int) -> ClosedRange<Int> {
        switch self {
        case .timesPerWeek:
            let monday = day - DayNumber.weekdayFromMonday(day)
            return monday...(monday + 6)
        case let .timesPerDays(_, length):
            // Floor division, so a day before the first one falls in the block before it.
            let offset = day - firstDay
            let block = offset >= 0 ? offset / length : -((-offset + length - 1) / length)
            let start = firstDay + block * length
            return start...(start + length - 1)
        case .daily, .weekdays:
            return day...day
        }
    }

    /// Whether `day` is one of the chosen weekdays (daily and frequency schedules: every day may hold one).
    func isScheduledWeekday(_ day: Int) -> Bool {
        if case let .weekdays(days) = self { return days.contains(DayNumber.weekdayFromMonday(day)) }
        return true
    }
}

/// What a day of a habit records.
public enum HabitKind: Sendable, Equatable, Hashable, Codable {
    case yesNo
    /// A number a day that should be at least `target` (glasses of water ≥ 8).
    case atLeast(Double)
    /// A number a day that should be at most `target` (drinks ≤ 2).
    case atMost(Double)

    public var isNumeric: Bool { self != .yesNo }

    /// `yes/no`, `at least 8`, `at most 2`.
    public var text: String {
        switch self {
        case .yesNo: "yes/no"
        case let .atLeast(target): "at least \(PlainDecimal.text(target))"
        case let .atMost(target): "at most \(PlainDecimal.text(target))"
        }
    }

    /// `at least 8 glasses`: the kind and what it counts.
    public func text(unit: String) -> String {
        unit.isEmpty || !isNumeric ? text : text + " " + unit
    }

    /// The target of a numeric kind.
    public var target: Double? {
        switch self {
        case .yesNo: nil
        case let .atLeast(target), let .atMost(target): target
        }
    }

    /// How the kind is stored: `yesno`, `atLeast` or `atMost` (with the target in its own column).
    public var code: String {
        switch self {
        case .yesNo: "yesno"
        case .atLeast: "atLeast"
        case .atMost: "atMost"
        }
    }

    /// Reads a stored code and target; nil for an unknown code or a numeric kind without a usable target.
    public init?(code: String, target: Double?) {
        switch (code, target) {
        case ("yesno", _): self = .yesNo
        case let ("atLeast", target?) where target.isFinite && target >= 0: self = .atLeast(target)
        case let ("atMost", target?) where target.isFinite && target >= 0: self = .atMost(target)
        default: return nil
        }
    }

    /// Whether a recorded value meets the target.
    public func isMet(by value: Double) -> Bool {
        switch self {
        case .yesNo: return value >= 1
        case let .atLeast(target): return value >= target
        case let .atMost(target): return value <= target
        }
    }

    /// Progress toward the target, 0…1 (inverted for at-most: over the limit scores less).
    func progress(_ value: Double) -> Double {
        switch self {
        case .yesNo: return value >= 1 ? 1 : 0
        case let .atLeast(target): return target <= 0 ? 1 : min(1, max(0, value / target))
        case let .atMost(target):
            if value <= target { return 1 }
            return value <= 0 ? 0 : max(0, target / value)
        }
    }
}

/// One day of one habit.
public enum HabitMark: Sendable, Equatable, Codable {
    case done
    case skipped
    /// Loop's NO: the day was answered "not done", which is not the same as
    /// no answer (a day without a mark, which a met quota can still cover).
    case no
    case value(Double)
}

extension HabitMark {
    /// The numbers a day may hold, whether typed, imported or restored.
    public static let acceptedValues: ClosedRange<Double> = 0...1_000_000
    /// The numbers a day may come to hold when honest additions from several devices add up (`+600000` on two
    /// devices apart makes 1,200,000): kept, shown and accepted by snapshots and by sync. Far below 2^53, so
    /// every such sum is exact and converts to an integer without trapping.
    public static let mergedValues: ClosedRange<Double> = 0...1_000_000_000_000

    /// Whether the day was done at all: a yes, or an amount above zero (a day with drinks, even within
    /// the limit).
    public var isDoneAtAll: Bool {
        switch self {
        case .done: true
        case let .value(amount): amount > 0
        case .skipped, .no: false
        }
    }

    /// This mark added to what a day already holds: values sum, and a day
    /// without a number (no mark, a no, a skip) counts as 0. Other marks replace.
    public func added(to existing: HabitMark?) -> HabitMark {
        guard case let .value(amount) = self else { return self }
        if case let .value(held)? = existing { return .value(held + amount) }
        return .value(amount)
    }
}

/// A habit (its marks not read) with the days it was done at all and the days skipped, oldest
/// first: what insights relate to the weight, read without every mark (`HabitsFeature.doneDays()`).
public struct HabitDoneDays: Sendable, Equatable {
    public let habit: Habit
    /// The habit's `firstDay`: its creation or its first mark, whichever is older.
    public let firstDay: Int
    public let done: [Int]
    public let skipped: [Int]

    public init(habit: Habit, firstDay: Int, done: [Int], skipped: [Int]) {
        (self.habit, self.firstDay, self.done, self.skipped) = (habit, firstDay, done, skipped)
    }

    /// From a habit whose marks are in memory.
    public init(_ habit: Habit) {
        var bare = habit
        (bare.marks, bare.notes) = ([:], [:])
        let days = habit.marks.sorted { $0.key < $1.key }
        self.init(habit: bare, firstDay: habit.firstDay, done: days.filter { $0.value.isDoneAtAll }.map(\.key),
                  skipped: days.filter { $0.value == .skipped }.map(\.key))
    }
}

/// A habit and its history.
public struct Habit: Sendable, Equatable, Identifiable, Codable {
    public let id: String
    public var name: String
    public var schedule: HabitSchedule
    public var kind: HabitKind
    /// The local day the habit was created.
    public var createdDay: Int
    public var archived: Bool
    /// Marks by local day number.
    public var marks: [Int: HabitMark]
    /// What a numeric habit counts (`glasses`, `km`); empty when unnamed or yes/no (Loop's `unit`).
    public var unit: String
    /// A note on a marked day (Loop's entry notes), by local day number.
    public var notes: [Int: String] = [:]
    /// The times of day it reminds of itself, in the order of the clock (`habit remind`); none: no reminder.
    public var reminders: [TimeOfDay] = []

    public init(id: String = UUID().uuidString.lowercased(), name: String, schedule: HabitSchedule, kind: HabitKind,
                createdDay: Int, archived: Bool = false, marks: [Int: HabitMark] = [:], unit: String = "") {
        self.id = id
        self.name = name
        self.schedule = schedule
        self.kind = kind
        self.createdDay = createdDay
        self.archived = archived
        self.marks = marks
        self.unit = unit
    }

    /// The first day that counts: the creation day, or an earlier backfilled one.
    public var firstDay: Int { min(createdDay, marks.keys.min() ?? createdDay) }

    /// Whether the habit is still due on `day`: a daily habit always, a
    /// weekday habit on its days, a quota while its period has not met it.
    public func isDue(on day: Int) -> Bool {
        switch schedule {
        case .daily: return true
        case .weekdays: return schedule.isScheduledWeekday(day)
        case let .timesPerWeek(times), let .timesPerDays(times, _):
            let start = schedule.period(containing: day, firstDay: firstDay).lowerBound
            return (start..<day).filter { isDone(on: $0) }.count < times
        }
    }

    /// The days it was done at all (`HabitMark.isDoneAtAll`). What insights relate to the weight and
    /// what `progress … with NAME` marks.
    public var daysDoneAtAll: Set<Int> {
        Set(marks.compactMap { day, mark in mark.isDoneAtAll ? day : nil })
    }

    /// Whether `day` counts as done (numeric: the value meets the target).
    public func isDone(on day: Int) -> Bool {
        switch marks[day] {
        case .done?: return true
        case let .value(value)?: return kind.isMet(by: value)
        case .skipped?, .no?, nil: return false
        }
    }
}
