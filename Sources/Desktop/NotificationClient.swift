import Foundation

/// Why the desktop's notification service could not be used. Its kind comes from what failed (the D-Bus
/// error's name), never from its words, which are only for the person.
public struct NotificationFailure: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// libdbus-1 is not installed.
        case noLibrary
        /// The process has no session bus (`DBUS_SESSION_BUS_ADDRESS` is not set).
        case noSessionBus
        /// The session bus is named but not there (a login that ended).
        case unreachable
        /// No one owns `org.freedesktop.Notifications`: a bus without a desktop.
        case noService
        /// The service answered with an error.
        case refused
        /// No answer in time.
        case noAnswer
        /// The connection went away.
        case disconnected
    }

    public let kind: Kind
    public let description: String

    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }

    /// Whether there is no one to tell (no desktop to show it), as against a desktop that would not.
    public var reachesNoOne: Bool { [.noLibrary, .noSessionBus, .unreachable, .noService, .disconnected].contains(kind) }
}

/// One notification to show (the freedesktop Desktop Notifications specification, `Notify`).
public struct DesktopNotification: Sendable, Equatable {
    /// The title: plain text on every server.
    public var summary: String
    /// The text under it: plain here; escaped by the connection where the server reads markup.
    public var body: String
    /// Key and label of each action (`done`, `Done`).
    public var actions: [Action]
    /// Milliseconds before the server lets it go; -1: the server's choice, 0: never.
    public var expiresAfter: Int32

    public struct Action: Sendable, Equatable {
        public let key: String
        public let label: String

        public init(key: String, label: String) {
            self.key = key
            self.label = label
        }
    }

    public init(summary: String, body: String, actions: [Action] = [], expiresAfter: Int32 = -1) {
        self.summary = summary
        self.body = body
        self.actions = actions
        self.expiresAfter = expiresAfter
    }

    /// The body as a server that advertises `body-markup` must be sent it: `&`, `<` and `>` as entities, so a
    /// habit named `<a href=x>y</a>` is shown as those characters (the specification's markup is a subset of XML;
    /// quotes are left as they are, since outside a tag they mean nothing and not every server knows `&apos;`).
    public static func escapedForMarkup(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}

/// A notification the server took: its id, and which server (the bus's id and the unique name that answered),
/// so an action is believed only from that server, for a notification this installation sent.
public struct ShownNotification: Sendable, Hashable {
    public let id: UInt32
    public let server: String

    public init(id: UInt32, server: String) {
        self.id = id
        self.server = server
    }
}

/// What came back from the server.
public struct NotificationEvent: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// The person chose the action with this key.
        case action(String)
        /// The notification went (expired, dismissed, closed by a call).
        case closed
    }

    /// The notification and the server the signal came from (the bus's id and the signal's sender).
    public let notification: ShownNotification
    public let kind: Kind
}

/// One open connection to the desktop's notification service.
public protocol NotificationConnection: AnyObject, Sendable {
    /// Shows `notification`, or puts it in the place of `replacing`; throws unless the server took it.
    func notify(_ notification: DesktopNotification, replacing: UInt32) throws(NotificationFailure) -> ShownNotification
    /// Takes a notification off the screen (`CloseNotification`).
    func close(_ notification: ShownNotification) throws(NotificationFailure)
    /// From now on `nextEvent` hears the service's `ActionInvoked` and `NotificationClosed`.
    func listen() throws(NotificationFailure)
    /// The next signal, waiting at most `milliseconds`; nil when none came. Throws when the connection is gone.
    func nextEvent(waitingAtMost milliseconds: Int32) throws(NotificationFailure) -> NotificationEvent?
}

/// The desktop's notification service as the program uses it (DESIGN §9): a way to connect. `live` is the
/// session bus the process was started in; `inMemory` a desktop a test holds; `nowhere` a session without one.
public struct NotificationClient: Sendable {
    public var connect: @Sendable () throws(NotificationFailure) -> any NotificationConnection

    public init(connect: @escaping @Sendable () throws(NotificationFailure) -> any NotificationConnection) {
        self.connect = connect
    }

    /// The session bus of `DBUS_SESSION_BUS_ADDRESS`, as it is when `connect` is called (no address is kept).
    public static let live = NotificationClient { () throws(NotificationFailure) -> any NotificationConnection in try DesktopBus() }

    /// A process with no session bus.
    public static let nowhere = NotificationClient { () throws(NotificationFailure) -> any NotificationConnection in
        throw NotificationFailure(.noSessionBus, "no session bus (DBUS_SESSION_BUS_ADDRESS is not set)")
    }

    /// A desktop the test holds: what it shows, closes and is asked, and actions the test chooses.
    public static func inMemory(_ desktop: InMemoryDesktop) -> NotificationClient {
        NotificationClient { () throws(NotificationFailure) -> any NotificationConnection in try desktop.connect() }
    }
}
