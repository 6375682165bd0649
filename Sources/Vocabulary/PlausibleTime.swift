import Foundation

/// The moments Trend accepts, 1900-01-01 to 2200-01-01: a weigh-in outside
/// them is refused, and while the clock reads outside them nothing is
/// changed, so one wrong clock can never write a value that a backup of it
/// would then refuse to restore.
public enum PlausibleTime {
    /// 1900-01-01 to 2200-01-01, in seconds since 1970.
    public static let seconds: ClosedRange<Double> = -2_208_988_800...7_258_118_400

    /// The same span as day numbers (days since 1970-01-01): a habit cannot start before 1900.
    public static let days: ClosedRange<Int> = -25_567...84_006

    /// Throws when `now` is outside the accepted span: the clock is wrong.
    public static func checkClock(_ now: Date) throws(ClockError) {
        guard seconds.contains(now.timeIntervalSince1970) else { throw ClockError(now: now) }
    }
}

/// A change refused because the system clock reads an impossible moment.
public struct ClockError: Error, Equatable, Sendable, CustomStringConvertible {
    public let now: Date

    public var description: String {
        let formatter = ISO8601DateFormatter()
        return "the system clock reads \(formatter.string(from: now)), outside 1900–2200, so nothing was changed; "
            + "set the clock right and try again"
    }
}
