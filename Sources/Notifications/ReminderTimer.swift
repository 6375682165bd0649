import Foundation

/// What runs a command every minute for a person who is logged in: a systemd user timer where systemd runs
/// the session, else a line in the person's crontab. It knows nothing of habits: it is given the command.
public struct ReminderTimer: Sendable, Equatable {
    /// Where the timer goes.
    public enum Scheduler: Sendable, Equatable {
        /// A service and a timer in the systemd user folder, started with `systemctl --user`.
        case systemd(folder: URL)
        /// A line in `crontab -l`, tagged so `uninstall` finds it.
        case cron
        /// Neither is here: the person is told the line to add.
        case none
    }

    /// The command, each word on its own (the executable first).
    public let command: [String]
    public let scheduler: Scheduler
    /// The session bus cron must be told of (systemd's user services have it already).
    public let busAddress: String?

    public static let unitName = "trend-remind"
    static let cronTag = "# trend remind"

    /// Chooses the scheduler from what the machine has: systemd when `systemctl` is on the PATH and a user
    /// manager runs (`/run/user/UID/systemd`), else cron when `crontab` is there.
    public init(command: [String], environment: [String: String]) {
        self.command = command
        busAddress = environment["DBUS_SESSION_BUS_ADDRESS"]
        let configuration = environment["XDG_CONFIG_HOME"].map { URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory()).appendingPathComponent(".config")
        let runtime = environment["XDG_RUNTIME_DIR"] ?? "/run/user/\(getuid())"
        if Self.onPath("systemctl", environment) != nil, FileManager.default.fileExists(atPath: runtime + "/systemd") {
            scheduler = .systemd(folder: configuration.appendingPathComponent("systemd/user"))
        } else if Self.onPath("crontab", environment) != nil {
            scheduler = .cron
        } else {
            scheduler = .none
        }
    }

    public init(command: [String], scheduler: Scheduler, busAddress: String?) {
        self.command = command
        self.scheduler = scheduler
        self.busAddress = busAddress
    }

    /// The command as a shell reads it, each word quoted where it needs to be.
    var commandLine: String { command.map(Self.shellWord).joined(separator: " ") }

    /// The files a systemd timer is made of, with their text.
    public var unitFiles: [(name: String, text: String)] {
        [
            ("\(Self.unitName).service", """
            [Unit]
            Description=Trend: send the habits' reminders that have come due

            [Service]
            Type=oneshot
            ExecStart=\(commandLine)

            """),
            ("\(Self.unitName).timer", """
            [Unit]
            Description=Trend: habit reminders, every minute

            [Timer]
            OnCalendar=*-*-* *:*:00
            AccuracySec=1s

            [Install]
            WantedBy=timers.target

            """),
        ]
    }

    /// The crontab line: every minute, with the session bus the desktop's notifications need.
    public var cronLine: String {
        let bus = busAddress.map { "DBUS_SESSION_BUS_ADDRESS=\(Self.shellWord($0)) " } ?? ""
        return "* * * * * \(bus)\(commandLine) >/dev/null 2>&1 \(Self.cronTag)"
    }

    /// What `install` would write, as a person reads it.
    public var plan: String {
        switch scheduler {
        case let .systemd(folder):
            return unitFiles.map { "\(folder.appendingPathComponent($0.name).path):\n\($0.text)" }.joined(separator: "\n")
                + "\nthen: systemctl --user daemon-reload && systemctl --user enable --now \(Self.unitName).timer"
        case .cron:
            return "a line in your crontab:\n\(cronLine)"
        case .none:
            return "neither systemd's user manager nor crontab is here; run this every minute with what you have:\n\(commandLine)"
        }
    }

    /// Why the timer could not be put in place or taken away.
    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Writes the timer and starts it; returns what was done.
    public func install() throws(Failure) -> String {
        switch scheduler {
        case let .systemd(folder):
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                for file in unitFiles {
                    try Data(file.text.utf8).write(to: folder.appendingPathComponent(file.name), options: .atomic)
                }
            } catch {
                throw Failure(description: "could not write to \(folder.path): \(error.localizedDescription)")
            }
            try Self.run(["systemctl", "--user", "daemon-reload"])
            try Self.run(["systemctl", "--user", "enable", "--now", "\(Self.unitName).timer"])
            return "Wrote \(unitFiles.map(\.name).joined(separator: " and ")) to \(folder.path) and started the timer."
        case .cron:
            let kept = try Self.crontabLines().filter { !$0.hasSuffix(Self.cronTag) }
            try Self.run(["crontab", "-"], input: (kept + [cronLine]).joined(separator: "\n") + "\n")
            return "Added to your crontab: \(cronLine)"
        case .none:
            throw Failure(description: "neither systemd's user manager nor crontab is here; nothing was written")
        }
    }

    /// Stops and removes what `install` put in place; returns what was done.
    public func uninstall() throws(Failure) -> String {
        switch scheduler {
        case let .systemd(folder):
            let files = unitFiles.map { folder.appendingPathComponent($0.name) }.filter { FileManager.default.fileExists(atPath: $0.path) }
            guard !files.isEmpty else { return "No reminder timer was installed in \(folder.path)." }
            // Stopping a timer the manager never loaded fails; the files go in any case.
            _ = try? Self.run(["systemctl", "--user", "disable", "--now", "\(Self.unitName).timer"])
            for file in files {
                do { try FileManager.default.removeItem(at: file) } catch {
                    throw Failure(description: "could not remove \(file.path): \(error.localizedDescription)")
                }
            }
            _ = try? Self.run(["systemctl", "--user", "daemon-reload"])  // Only tidies the manager's list.
            return "Removed \(files.map(\.lastPathComponent).joined(separator: " and ")) from \(folder.path)."
        case .cron:
            let lines = try Self.crontabLines()
            let kept = lines.filter { !$0.hasSuffix(Self.cronTag) }
            guard kept.count < lines.count else { return "Your crontab holds no reminder line." }
            try Self.run(["crontab", "-"], input: kept.isEmpty ? "" : kept.joined(separator: "\n") + "\n")
            return "Removed the reminder line from your crontab."
        case .none:
            return "Neither systemd's user manager nor crontab is here: nothing to remove."
        }
    }

    private static func crontabLines() throws(Failure) -> [String] {
        // `crontab -l` fails when the person has no crontab yet: that is an empty one.
        let listed = (try? run(["crontab", "-l"])) ?? ""
        return listed.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
    }

    /// Runs a program found on the PATH; its standard output, or a failure naming it and what it said.
    @discardableResult
    static func run(_ arguments: [String], input: String? = nil) throws(Failure) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
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
            throw Failure(description: "could not run \(arguments[0]): \(error.localizedDescription)")
        }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "\(arguments.joined(separator: " ")) failed: \(said.trimmingCharacters(in: .whitespacesAndNewlines).prefix(200))")
        }
        return text
    }

    static func onPath(_ name: String, _ environment: [String: String]) -> String? {
        (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map { "\($0)/\(name)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// A word a shell reads as it is: quoted with `'` where it holds anything but letters, digits and `/._-=:@`.
    static func shellWord(_ word: String) -> String {
        let plain = word.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "/._-=:@+,".contains($0)) }
        return plain && !word.isEmpty ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
