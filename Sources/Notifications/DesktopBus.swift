import CNotify
import Foundation

/// The desktop's notification service (the freedesktop Notifications
/// specification, `org.freedesktop.Notifications` on the D-Bus session bus,
/// which GNOME, KDE, dunst, mako and `notify-send` all speak), through
/// libdbus-1: a connection, `Notify` with actions, and the `ActionInvoked`
/// signals that come back. It knows nothing of habits.
///
/// One bus is used from one thread at a time (`@unchecked Sendable` so a
/// lane of `BlockingPool` may own it).
public final class DesktopBus: @unchecked Sendable {
    /// Why the bus could not be used: said to the person as it is.
    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        public let description: String

        public init(description: String) {
            self.description = description
        }

        /// Whether there is no one to tell: no libdbus, no session bus, or no notification service on it (a
        /// server without a desktop). Then a reminder is printed instead; any other failure is a refusal.
        public var isNoService: Bool {
            ["could not be loaded", "no session bus", "could not be reached", "ServiceUnknown", "NameHasNoOwner", "ServiceNotFound"]
                .contains { description.contains($0) }
        }
    }

    /// From now on SIGTERM, SIGINT and SIGHUP ask the process to stop (`stopRequested`) instead of ending it.
    public static func stopOnSignals() { trend_stop_on_signals() }

    /// Whether one of those signals came.
    public static var stopRequested: Bool { trend_stop_requested() != 0 }

    /// One notification to show.
    public struct Notification: Sendable, Equatable {
        public var summary: String
        public var body: String
        /// Key and label of each action (`("done", "Done")`).
        public var actions: [(key: String, label: String)]

        public init(summary: String, body: String, actions: [(key: String, label: String)]) {
            self.summary = summary
            self.body = body
            self.actions = actions
        }

        public static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.summary == rhs.summary && lhs.body == rhs.body
                && lhs.actions.map(\.key) == rhs.actions.map(\.key) && lhs.actions.map(\.label) == rhs.actions.map(\.label)
        }
    }

    /// What came back from a notification: its id and the key of the action chosen.
    public struct Action: Sendable, Equatable {
        public let id: UInt32
        public let key: String
    }

    private let bus: OpaquePointer

    /// Connects to the session bus; throws when libdbus or the bus is not there.
    public init() throws(Failure) {
        var error = [CChar](repeating: 0, count: 512)
        guard let bus = trend_bus_open(&error, error.count) else { throw Failure(description: Self.text(error)) }
        self.bus = bus
    }

    deinit { trend_bus_close(bus) }

    /// Shows a notification; returns the id the service gave it. `reply` bounds the wait for the service's answer.
    public func notify(_ notification: Notification, application: String, expiresAfterMilliseconds timeout: Int32 = -1,
                       replyMilliseconds reply: Int32 = 5_000) throws(Failure) -> UInt32 {
        var error = [CChar](repeating: 0, count: 512)
        let words: [String] = notification.actions.flatMap { [$0.key, $0.label] }
        let strings: [UnsafeMutablePointer<CChar>?] = words.map { strdup(Self.clean($0)) }
        defer { strings.forEach { free($0) } }
        var pointers: [UnsafePointer<CChar>?] = strings.map { $0.map { UnsafePointer($0) } }
        let id = pointers.withUnsafeMutableBufferPointer { buffer in
            trend_bus_notify(bus, application, Self.clean(notification.summary), Self.clean(notification.body),
                             buffer.baseAddress, Int32(buffer.count), timeout, reply, &error, error.count)
        }
        guard id != 0 else { throw Failure(description: Self.text(error)) }
        return id
    }

    /// Asks the bus to pass on the service's `ActionInvoked` signals.
    public func listenForActions() throws(Failure) {
        var error = [CChar](repeating: 0, count: 512)
        guard trend_bus_listen(bus, &error, error.count) == 1 else { throw Failure(description: Self.text(error)) }
    }

    /// The next action chosen on any notification, waiting at most `milliseconds`; nil when none came.
    /// Throws when the connection is gone.
    public func nextAction(waitingAtMost milliseconds: Int32) throws(Failure) -> Action? {
        var id: UInt32 = 0
        var key = [CChar](repeating: 0, count: 128)
        switch trend_bus_next_action(bus, milliseconds, &id, &key, key.count) {
        case 1: return Action(id: id, key: Self.text(key))
        case 0: return nil
        default: throw Failure(description: "the session bus went away")
        }
    }

    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// D-Bus strings are UTF-8 without NUL: a NUL would end the string early, so it goes.
    private static func clean(_ text: String) -> String { text.replacingOccurrences(of: "\0", with: "") }
}
