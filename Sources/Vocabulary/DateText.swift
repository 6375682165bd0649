import Foundation

/// Dates for people and for scripts, in the Features' time zone, from the
/// zone's table (`LocalDays`) rather than a formatter: `entries all` on a
/// million weigh-ins formats a million of them.
public struct DateText: Sendable {
    public let timeZone: TimeZone
    private let days: LocalDays

    public init(timeZone: TimeZone) {
        self.timeZone = timeZone
        days = LocalDays.shared(for: timeZone)
    }

    /// ISO 8601 with the local offset, e.g. `2026-06-01T07:30:00-04:00`.
    public func instant(_ date: Date) -> String {
        days.internetDateTime(date)
    }

    /// `2026-06-01 07:30`.
    public func local(_ date: Date) -> String {
        days.localMinute(date)
    }
}
