import CNotify
import Foundation
import SystemLibraries

/// The live notification connection: the freedesktop Notifications specification (`org.freedesktop.Notifications`
/// on the D-Bus session bus, which GNOME, KDE, dunst, mako and `notify-send` all speak), through libdbus-1. It
/// knows nothing of habits.
///
/// One bus is used from one thread at a time (`@unchecked Sendable` so a lane of `BlockingPool` may own it).
public final class DesktopBus: NotificationConnection, @unchecked Sendable {
    private let bus: OpaquePointer
    /// The bus's own id: another login's bus has another, so a notification id is never mistaken across them.
    private let busID: String
    /// Whether the server reads markup in the body (`body-markup`), asked once.
    private var readsMarkup: Bool?

    /// How long a call waits for the service's answer.
    static let replyMilliseconds: Int32 = 5_000

    /// Whether libdbus-1 is open and holds every function CNotify calls: opened on the first connection, once.
    private static let libraryTaken: Bool = DynamicLibrary.first(of: ["libdbus-1.so.3", "libdbus-1.so"]) { library in
        let handed = library.forC
        return trend_bus_take_library(handed.library, handed.lookUp) == 1 ? true : nil
    } ?? false

    /// Connects to the session bus the environment names now.
    public init() throws(NotificationFailure) {
        _ = Self.libraryTaken  // trend_bus_open says "no library" when it is not.
        var failure = trend_bus_failure()
        guard let bus = trend_bus_open(&failure) else { throw Self.failure(failure) }
        self.bus = bus
        busID = String(cString: trend_bus_id(bus))
    }

    deinit { trend_bus_close(bus) }

    /// From now on SIGTERM, SIGINT and SIGHUP ask the process to stop (`stopRequested`) instead of ending it.
    public static func stopOnSignals() { trend_stop_on_signals() }

    /// Whether one of those signals came.
    public static var stopRequested: Bool { trend_stop_requested() != 0 }

    public func notify(_ notification: DesktopNotification, replacing: UInt32) throws(NotificationFailure) -> ShownNotification {
        let markup = try readsBodyMarkup()
        let body = markup ? DesktopNotification.escapedForMarkup(notification.body) : notification.body
        let words = notification.actions.flatMap { [$0.key, $0.label] }
        let strings: [UnsafeMutablePointer<CChar>?] = words.map { strdup(Self.clean($0)) }
        defer { strings.forEach { free($0) } }
        var pointers: [UnsafePointer<CChar>?] = strings.map { $0.map { UnsafePointer($0) } }
        var failure = trend_bus_failure()
        var server = [CChar](repeating: 0, count: 256)
        let id = pointers.withUnsafeMutableBufferPointer { buffer in
            trend_bus_notify(bus, "Trend", replacing, Self.clean(notification.summary), Self.clean(body), buffer.baseAddress,
                             Int32(buffer.count), notification.expiresAfter, Self.replyMilliseconds, &server, server.count, &failure)
        }
        guard id != 0 else { throw Self.failure(failure) }
        return ShownNotification(id: id, server: serverName(Self.text(server)))
    }

    public func close(_ notification: ShownNotification) throws(NotificationFailure) {
        guard let sender = uniqueName(of: notification) else { return }  // Another login's: gone with it.
        var failure = trend_bus_failure()
        guard trend_bus_close_notification(bus, sender, notification.id, Self.replyMilliseconds, &failure) == 1 else {
            throw Self.failure(failure)
        }
    }

    public func listen() throws(NotificationFailure) {
        var failure = trend_bus_failure()
        guard trend_bus_listen(bus, &failure) == 1 else { throw Self.failure(failure) }
    }

    public func nextEvent(waitingAtMost milliseconds: Int32) throws(NotificationFailure) -> NotificationEvent? {
        var id: UInt32 = 0
        var key = [CChar](repeating: 0, count: 128), sender = [CChar](repeating: 0, count: 256)
        let found = trend_bus_next_event(bus, milliseconds, &id, &key, key.count, &sender, sender.count)
        let notification = ShownNotification(id: id, server: serverName(Self.text(sender)))
        switch found {
        case 1: return NotificationEvent(notification: notification, kind: .action(Self.text(key)))
        case 2: return NotificationEvent(notification: notification, kind: .closed)
        case 0: return nil
        default: throw NotificationFailure(.disconnected, "the session bus went away")
        }
    }

    /// GetCapabilities, once: whether the body is read as markup. A server that will not say is taken to read it,
    /// so the text is escaped (an escaped `&lt;` is the lesser harm).
    private func readsBodyMarkup() throws(NotificationFailure) -> Bool {
        if let readsMarkup { return readsMarkup }
        var failure = trend_bus_failure()
        var words = [CChar](repeating: 0, count: 1_024)
        guard trend_bus_capabilities(bus, &words, words.count, Self.replyMilliseconds, &failure) == 1 else {
            let error = Self.failure(failure)
            if error.reachesNoOne { throw error }
            readsMarkup = true
            return true
        }
        let markup = Self.text(words).split(separator: " ").contains("body-markup")
        readsMarkup = markup
        return markup
    }

    /// A server as this program names it: the bus's id and the unique name on it.
    private func serverName(_ uniqueName: String) -> String { busID + "/" + uniqueName }

    /// The unique name of the server a notification came from, when it is on this bus.
    private func uniqueName(of notification: ShownNotification) -> String? {
        let prefix = busID + "/"
        guard notification.server.hasPrefix(prefix), notification.server.count > prefix.count else { return nil }
        return String(notification.server.dropFirst(prefix.count))
    }

    private static func failure(_ failure: trend_bus_failure) -> NotificationFailure {
        let words = withUnsafeBytes(of: failure.words) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let kind: NotificationFailure.Kind = switch Int(failure.kind) {
        case TREND_BUS_NO_LIBRARY: .noLibrary
        case TREND_BUS_NO_SESSION: .noSessionBus
        case TREND_BUS_UNREACHABLE: .unreachable
        case TREND_BUS_NO_SERVICE: .noService
        case TREND_BUS_NO_ANSWER: .noAnswer
        case TREND_BUS_DISCONNECTED: .disconnected
        default: .refused
        }
        return NotificationFailure(kind, words.isEmpty ? "the notification service could not be used" : words)
    }

    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// D-Bus strings are UTF-8 without NUL: a NUL would end the string early, so it goes.
    private static func clean(_ text: String) -> String { text.replacingOccurrences(of: "\0", with: "") }
}
