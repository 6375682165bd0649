import Foundation

/// A real D-Bus session bus of the test's own (`dbus-daemon --session`, from Debian's `dbus`), with the
/// recording notification server `scripts/notification-recorder.py` (Debian's python3-dbus-next) owning
/// `org.freedesktop.Notifications` on it: what Trend's reminders reach, as a desktop's would.
public final class SessionBus: @unchecked Sendable {
    // @unchecked: the processes and files are used by one test at a time.
    /// The bus's address, for `DBUS_SESSION_BUS_ADDRESS`.
    public let address: String
    private let folder: URL
    private let record: URL
    private let daemon = Process()
    private let recorder = Process()
    private let recorderInput = Pipe()

    /// A folder for a bus that is not started yet: its address is known before it is there.
    public static func newFolder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("trend-bus-\(UUID().uuidString)")
    }

    /// The address of the bus `SessionBus(folder:)` starts in `folder`.
    public static func address(in folder: URL) -> String { "unix:path=" + folder.appendingPathComponent("socket").path }

    /// Starts the bus (in `folder`, or a new one) and, unless told not to, the notification server, which
    /// advertises `body-markup` when `markup`; throws when either cannot start.
    public init(withNotificationServer: Bool = true, markup: Bool = false, folder given: URL? = nil) throws {
        folder = given ?? Self.newFolder()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        record = folder.appendingPathComponent("notifications.jsonl")
        let socket = folder.appendingPathComponent("socket").path
        address = "unix:path=" + socket
        daemon.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        daemon.arguments = ["--session", "--nofork", "--nopidfile", "--address=" + address]
        daemon.standardOutput = FileHandle.nullDevice
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        guard Self.waitFor({ FileManager.default.fileExists(atPath: socket) }) else { throw CocoaError(.fileNoSuchFile) }
        guard withNotificationServer else { return }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/notification-recorder.py")
        recorder.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        recorder.arguments = [script.path, record.path] + (markup ? ["--markup"] : [])
        recorder.environment = ["DBUS_SESSION_BUS_ADDRESS": address, "PATH": "/usr/bin:/bin"]
        let output = Pipe()
        recorder.standardOutput = output
        recorder.standardError = FileHandle.nullDevice
        recorder.standardInput = recorderInput
        try recorder.run()
        // It says "ready" once it owns the name.
        let ready = output.fileHandleForReading.availableData
        guard String(decoding: ready, as: UTF8.self).contains("ready") else { throw CocoaError(.fileReadUnknown) }
    }

    deinit { stop() }

    /// The notifications shown so far, oldest first: `id`, `app`, `summary`, `body`, `actions`, `replaces`.
    public var notifications: [[String: Any]] { lines.filter { $0["summary"] != nil } }

    /// The ids the server was asked to close (`CloseNotification`), in order.
    public var closed: [Int] { lines.compactMap { $0["close"] as? Int } }

    private var lines: [[String: Any]] {
        let text = (try? String(contentsOf: record, encoding: .utf8)) ?? ""  // No file yet: none shown.
        return text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// Waits until `count` notifications have been shown, at most `seconds`; whether they have.
    public func waitForNotifications(_ count: Int, seconds: Double = 10) -> Bool {
        Self.waitFor(seconds: seconds) { self.notifications.count >= count }
    }

    /// A person clicks the action `key` of notification `id`: ActionInvoked, then NotificationClosed.
    public func invoke(_ id: Int, _ key: String) {
        recorderInput.fileHandleForWriting.write(Data("invoke \(id) \(key)\n".utf8))
    }

    /// Another client on the bus (not the notification server) emits `ActionInvoked(id, key)`, as any program in
    /// the session could: `dbus-send`, from Debian's dbus.
    public func forgeAction(_ id: Int, _ key: String) throws {
        let sent = try runTool("/usr/bin/dbus-send", ["--session", "--type=signal", "/org/freedesktop/Notifications",
                                                       "org.freedesktop.Notifications.ActionInvoked", "uint32:\(id)", "string:\(key)"],
                               environment: ["DBUS_SESSION_BUS_ADDRESS": address, "PATH": "/usr/bin:/bin"], mergingErrors: true)
        guard sent.status == 0 else { throw CocoaError(.executableLoad) }
    }

    public func stop() {
        // The test runner's threads may block SIGTERM, and a child inherits the mask: SIGKILL cannot be blocked.
        try? recorderInput.fileHandleForWriting.close()  // Already closed by an earlier stop: nothing to do.
        for process in [recorder, daemon] where process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: folder)  // A temporary folder; nothing depends on its removal.
    }

    /// Polls `condition` every 20 ms for at most `seconds` (a process outside the test is what it waits for).
    public static func waitFor(seconds: Double = 10, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }
}
