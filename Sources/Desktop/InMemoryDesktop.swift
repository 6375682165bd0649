import Foundation

/// The notification service of a desktop a test holds (DESIGN §9, the in-memory form of `NotificationClient`):
/// it records what it is sent, answers as a server that does or does not read markup, may be away or refuse
/// after some notifications, and hears actions the test chooses, from itself or from another bus client.
public final class InMemoryDesktop: @unchecked Sendable {
    // @unchecked: every field is read and written under `lock`.
    private let lock = NSLock()
    private var state = State()

    /// The server's name on its bus, as a connection reports it.
    public static let server = "memory/:1.1"

    public struct Shown: Sendable, Equatable {
        public let id: UInt32
        public let summary: String
        /// As the server received it: escaped where it reads markup.
        public let body: String
        public let actions: [String]
        public let replaced: UInt32
    }

    private struct State {
        var shown: [Shown] = []
        var closed: [UInt32] = []
        var events: [NotificationEvent] = []
        var nextID: UInt32 = 1
        var away: NotificationFailure?
        var acceptsAtMost: Int?
        var readsMarkup = false
    }

    public init(readsMarkup: Bool = false) {
        state.readsMarkup = readsMarkup
    }

    /// What it has shown, oldest first.
    public var shown: [Shown] { lock.withLock { state.shown } }
    /// The ids it was asked to close, in order.
    public var closed: [UInt32] { lock.withLock { state.closed } }

    /// The desktop is not there (nil: it is), as a connection would find.
    public func setAway(_ failure: NotificationFailure?) { lock.withLock { state.away = failure } }

    /// It shows `count` more notifications, then refuses.
    public func refuse(after count: Int) { lock.withLock { state.acceptsAtMost = state.shown.count + count } }

    /// The person chooses `key` on notification `id`; `sender` is the bus client that says so (the server unless a
    /// test forges it). Then the notification is closed, as a desktop does.
    public func invoke(_ id: UInt32, _ key: String, sender: String = InMemoryDesktop.server) {
        lock.withLock {
            let shown = ShownNotification(id: id, server: sender)
            state.events.append(NotificationEvent(notification: shown, kind: .action(key)))
            state.events.append(NotificationEvent(notification: shown, kind: .closed))
        }
    }

    func connect() throws(NotificationFailure) -> any NotificationConnection {
        if let away = lock.withLock({ state.away }) { throw away }  // A desktop that is not there cannot be reached.
        return Connection(desktop: self)
    }

    private final class Connection: NotificationConnection, @unchecked Sendable {
        let desktop: InMemoryDesktop
        init(desktop: InMemoryDesktop) { self.desktop = desktop }

        func notify(_ notification: DesktopNotification, replacing: UInt32) throws(NotificationFailure) -> ShownNotification {
            desktop.lock.lock()
            defer { desktop.lock.unlock() }
            if let away = desktop.state.away { throw away }
            if let most = desktop.state.acceptsAtMost, desktop.state.shown.count >= most {
                throw NotificationFailure(.refused, "the notification service refused: too many [org.freedesktop.Notifications.Error.ExcessNotificationGeneration]")
            }
            let id = replacing != 0 ? replacing : desktop.state.nextID
            if replacing == 0 { desktop.state.nextID += 1 }
            let body = desktop.state.readsMarkup ? DesktopNotification.escapedForMarkup(notification.body) : notification.body
            desktop.state.shown.append(Shown(id: id, summary: notification.summary, body: body,
                                             actions: notification.actions.map(\.key), replaced: replacing))
            return ShownNotification(id: id, server: InMemoryDesktop.server)
        }

        func close(_ notification: ShownNotification) throws(NotificationFailure) {
            desktop.lock.lock()
            defer { desktop.lock.unlock() }
            if let away = desktop.state.away { throw away }
            desktop.state.closed.append(notification.id)
        }

        func listen() throws(NotificationFailure) {}

        func nextEvent(waitingAtMost milliseconds: Int32) throws(NotificationFailure) -> NotificationEvent? {
            desktop.lock.lock()
            defer { desktop.lock.unlock() }
            if let away = desktop.state.away { throw away }
            return desktop.state.events.isEmpty ? nil : desktop.state.events.removeFirst()
        }
    }
}
