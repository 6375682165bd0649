import Foundation

/// Turns what the REPL sees (a command arriving, the process resuming) into
/// the application's lifecycle events: became-active after a long idle time,
/// significant-time-change when the local date, the habit day (which rolls
/// over at `set day-starts-at`) or the time zone changed.
@MainActor
public final class LifecycleMonitor {
    /// What the REPL tells the application before it runs a command.
    public enum Event: Equatable, Sendable {
        case becameActive
        case significantTimeChange
    }

    /// Idle longer than this counts as coming back to the app.
    public static let idleThreshold: TimeInterval = 30 * 60

    private let now: @MainActor () -> Date
    private let timeZone: @MainActor () -> TimeZone
    private let dayStartMinutes: @MainActor () -> Int
    private var lastActivity: Date
    private var lastDay: DateComponents
    private var lastHabitDay: DateComponents
    private var lastZone: TimeZone

    public init(now: @escaping @MainActor () -> Date, timeZone: @escaping @MainActor () -> TimeZone,
                dayStartMinutes: @escaping @MainActor () -> Int = { 0 }) {
        self.now = now
        self.timeZone = timeZone
        self.dayStartMinutes = dayStartMinutes
        let start = now()
        let zone = timeZone()
        lastActivity = start
        lastZone = zone
        lastDay = Self.day(of: start, in: zone)
        lastHabitDay = Self.day(of: start.habitClock(dayStartMinutes: dayStartMinutes()), in: zone)
    }

    /// Called as a command arrives; returns the events to deliver before it runs.
    public func commandArrived() -> [Event] {
        let moment = now()
        let zone = timeZone()
        var events: [Event] = []
        if moment.timeIntervalSince(lastActivity) > Self.idleThreshold {
            events.append(.becameActive)
        }
        let day = Self.day(of: moment, in: zone)
        let habitDay = Self.day(of: moment.habitClock(dayStartMinutes: dayStartMinutes()), in: zone)
        if day != lastDay || habitDay != lastHabitDay || zone.identifier != lastZone.identifier {
            events.append(.significantTimeChange)
        }
        lastActivity = moment
        lastDay = day
        lastHabitDay = habitDay
        lastZone = zone
        return events
    }

    private static func day(of date: Date, in zone: TimeZone) -> DateComponents {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar.dateComponents([.year, .month, .day], from: date)
    }
}
