import Foundation

/// A hybrid logical clock (DESIGN §8): the wall time in milliseconds, a
/// counter for changes within one millisecond (or made while the wall clock
/// stood behind a clock already seen), and the installation that made the
/// change, which breaks ties. Clocks order every change the same way on
/// every device, however far their wall clocks disagree.
public struct SyncClock: Comparable, Hashable, Sendable {
    public let ms: Int
    public let counter: Int
    public let origin: String

    public init(ms: Int, counter: Int, origin: String) {
        self.ms = ms
        self.counter = counter
        self.origin = origin
    }

    public static func < (lhs: SyncClock, rhs: SyncClock) -> Bool {
        (lhs.ms, lhs.counter, lhs.origin) < (rhs.ms, rhs.counter, rhs.origin)
    }

    /// The clock of a change made now at `origin`, after every clock seen (`last`).
    static func next(after last: (ms: Int, counter: Int), now: Date, origin: String) -> SyncClock {
        let wall = Int((now.timeIntervalSince1970 * 1000).rounded(.down))
        return wall > last.ms ? SyncClock(ms: wall, counter: 0, origin: origin)
            : SyncClock(ms: last.ms, counter: last.counter + 1, origin: origin)
    }
}
