import Foundation

/// Why the session's service manager could not do what it was asked; nothing after the failure was done.
public struct ServiceManagerFailure: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// A file could not be written, or removed.
        case cannotWrite, cannotRemove
        /// A program (`systemctl`, `crontab`) could not be started.
        case cannotRun
        /// It ran and said no.
        case failed
    }

    public let kind: Kind
    public let description: String
}

/// What starts programs with the person's session (DESIGN §9): the systemd user manager, the XDG autostart
/// folder every desktop reads at login, and the crontab an older Trend wrote a line in. `LiveServiceManager`
/// is the machine's; `InMemoryServiceManager` a test's, with its folders in a scratch home. Both write real
/// files; they differ in what runs `systemctl` and holds the crontab.
public protocol ServiceManager: Sendable {
    /// `$XDG_CONFIG_HOME/systemd/user` (`~/.config/systemd/user`).
    var userUnitFolder: URL { get }
    /// `$XDG_CONFIG_HOME/autostart` (`~/.config/autostart`).
    var autostartFolder: URL { get }
    /// Whether a systemd user manager runs for this person (`systemctl` on the PATH and `$XDG_RUNTIME_DIR/systemd`).
    var runsUserManager: Bool { get }
    /// Runs `systemctl --user` with `arguments`.
    func systemctl(_ arguments: [String]) throws(ServiceManagerFailure)
    /// The person's crontab, a line each; none where there is no crontab (or no `crontab`).
    func crontabLines() throws(ServiceManagerFailure) -> [String]
    /// Replaces the person's crontab.
    func setCrontab(_ lines: [String]) throws(ServiceManagerFailure)
}

extension ServiceManager {
    /// Writes `text` to `file` whole (a temporary file renamed over it), making its folder where it is new.
    public func write(_ text: String, to file: URL) throws(ServiceManagerFailure) {
        do {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file, options: .atomic)
        } catch {
            throw ServiceManagerFailure(kind: .cannotWrite, description: "could not write \(file.path): \(error.localizedDescription)")
        }
    }

    /// Removes `file`; one that is not there is already removed.
    public func remove(_ file: URL) throws(ServiceManagerFailure) {
        guard exists(file) else { return }
        do { try FileManager.default.removeItem(at: file) } catch {
            throw ServiceManagerFailure(kind: .cannotRemove, description: "could not remove \(file.path): \(error.localizedDescription)")
        }
    }

    public func exists(_ file: URL) -> Bool { FileManager.default.fileExists(atPath: file.path) }

    /// What a file holds now; nil where it is not there or cannot be read.
    public func contents(of file: URL) -> String? { try? String(contentsOf: file, encoding: .utf8) }
}

/// The machine's service manager, from the process's environment.
public struct LiveServiceManager: ServiceManager {
    public let userUnitFolder: URL
    public let autostartFolder: URL
    public let runsUserManager: Bool
    private let path: String

    public init(environment: [String: String]) {
        let configuration = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0) : nil }
            ?? URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory()).appendingPathComponent(".config")
        userUnitFolder = configuration.appendingPathComponent("systemd/user")
        autostartFolder = configuration.appendingPathComponent("autostart")
        path = environment["PATH"] ?? "/usr/bin:/bin"
        let runtime = environment["XDG_RUNTIME_DIR"] ?? "/run/user/\(getuid())"
        runsUserManager = Self.onPath("systemctl", path) != nil && FileManager.default.fileExists(atPath: runtime + "/systemd")
    }

    public func systemctl(_ arguments: [String]) throws(ServiceManagerFailure) {
        try run(["systemctl", "--user"] + arguments)
    }

    public func crontabLines() throws(ServiceManagerFailure) -> [String] {
        guard Self.onPath("crontab", path) != nil else { return [] }
        // `crontab -l` fails when the person has no crontab yet: that is an empty one.
        let listed = (try? run(["crontab", "-l"])) ?? ""
        return listed.split(separator: "\n").map(String.init)
    }

    public func setCrontab(_ lines: [String]) throws(ServiceManagerFailure) {
        try run(["crontab", "-"], input: lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n")
    }

    /// Runs a program found on the PATH; its standard output, or a failure naming it and what it said.
    @discardableResult
    private func run(_ arguments: [String], input: String? = nil) throws(ServiceManagerFailure) -> String {
        guard let program = Self.onPath(arguments[0], path) else {
            throw ServiceManagerFailure(kind: .cannotRun, description: "\(arguments[0]) is not on the PATH")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = Array(arguments.dropFirst())
        let output = Pipe(), errors = Pipe(), feed = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = input == nil ? FileHandle.nullDevice : feed
        do {
            try process.run()
            if let input {
                feed.fileHandleForWriting.write(Data(input.utf8))
                try feed.fileHandleForWriting.close()
            }
        } catch {
            throw ServiceManagerFailure(kind: .cannotRun, description: "could not run \(arguments[0]): \(error.localizedDescription)")
        }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ServiceManagerFailure(kind: .failed, description: "\(arguments.joined(separator: " ")) failed: \(said.trimmingCharacters(in: .whitespacesAndNewlines).prefix(200))")
        }
        return text
    }

    private static func onPath(_ name: String, _ path: String) -> String? {
        path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

/// A test's service manager: its folders under a scratch home, `systemctl` calls recorded (and refused when
/// the test says), the crontab held in memory.
public final class InMemoryServiceManager: ServiceManager, @unchecked Sendable {
    // @unchecked: the mutable fields are read and written under `lock`.
    private let lock = NSLock()
    public let userUnitFolder: URL
    public let autostartFolder: URL
    public let runsUserManager: Bool
    private var calls: [[String]] = []
    private var crontab: [String]
    private var refusing: Set<String> = []

    public init(home: URL, runsUserManager: Bool, crontab: [String] = []) {
        userUnitFolder = home.appendingPathComponent(".config/systemd/user")
        autostartFolder = home.appendingPathComponent(".config/autostart")
        self.runsUserManager = runsUserManager
        self.crontab = crontab
    }

    /// Every `systemctl --user` call so far, without `--user`.
    public var systemctlCalls: [[String]] { lock.withLock { calls } }

    /// `systemctl --user VERB …` fails from now on.
    public func refuse(_ verb: String) { lock.withLock { _ = refusing.insert(verb) } }

    public func systemctl(_ arguments: [String]) throws(ServiceManagerFailure) {
        lock.lock()
        defer { lock.unlock() }
        calls.append(arguments)
        if let verb = arguments.first, refusing.contains(verb) {
            throw ServiceManagerFailure(kind: .failed, description: "systemctl --user \(arguments.joined(separator: " ")) failed: refused by the test")
        }
    }

    public func crontabLines() throws(ServiceManagerFailure) -> [String] { lock.withLock { crontab } }

    public func setCrontab(_ lines: [String]) throws(ServiceManagerFailure) { lock.withLock { crontab = lines } }
}
