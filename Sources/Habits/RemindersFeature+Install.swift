import Desktop
import Foundation

/// What `remind install` writes and runs, decided from what the session has (DESIGN §9): one watcher,
/// `trend remind --watch`, started with the graphical session. Shown to the person before anything is written.
public struct WatcherSetup: Sendable, Equatable {
    /// What starts the watcher with the session.
    public enum Way: Sendable, Equatable {
        /// A systemd user service bound to `graphical-session.target`.
        case systemd
        /// An XDG autostart entry, where no user manager runs.
        case autostart
    }

    public let way: Way
    /// The file it writes, and its text.
    public let file: URL
    public let text: String
    /// The `systemctl --user` calls that follow, each its words.
    public let commands: [[String]]
    /// What an older Trend installed that this replaces, as a person reads it.
    public let replaces: [String]

    /// The plan, as a person reads it before saying yes.
    public var plan: String {
        var lines = ["\(file.path):", text]
        if !commands.isEmpty { lines.append("then: " + commands.map { (["systemctl", "--user"] + $0).joined(separator: " ") }.joined(separator: " && ")) }
        if !replaces.isEmpty { lines.append("It replaces " + RemindersRefused.list(replaces) + ".") }
        return lines.joined(separator: "\n")
    }
}

/// Why `remind install` wrote nothing, or stopped.
public enum WatcherSetupError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A path holds a character no unit or desktop entry can hold safely; nothing was written.
    case unwritable(what: String, character: String)
    /// The service manager failed; `done` says what was done before it.
    case failed(ServiceManagerFailure, done: [String])

    public var description: String {
        switch self {
        case let .unwritable(what, character):
            "\(what) holds a control character (\(character)), which a systemd unit or an autostart entry cannot hold safely; "
                + "nothing was written. Move the data to a folder without one (--data-dir)"
        case let .failed(failure, done):
            failure.description + (done.isEmpty ? "; nothing was changed" : "; before that: " + done.joined(separator: " "))
        }
    }
}

extension RemindersFeature {
    /// The unit's name, and the autostart entry's.
    public nonisolated static let serviceName = "trend-remind"
    /// The tag an older Trend put on its crontab line.
    nonisolated static let cronTag = "# trend remind"

    /// The watcher's command line: this program, this data directory.
    var watcherCommand: [String] {
        [executable, "--data-dir", store.directory?.path ?? "", "remind", "--watch"]
    }

    /// What `remind install` would write: a systemd user service where a user manager runs, else an autostart
    /// entry; either replaces an older every-minute timer or crontab line. Refuses a path no such file can hold.
    public func watcherSetup() throws -> WatcherSetup {
        let replaces = try olderInstalls().map(\.said)
        let written: (way: WatcherSetup.Way, text: String)
        do {
            written = try startupFile()
        } catch {
            let what = error.word == executable ? "The path of the trend program" : "The data directory's path"
            throw WatcherSetupError.unwritable(what: what, character: error.character)
        }
        switch written.way {
        case .systemd:
            return WatcherSetup(way: .systemd, file: serviceManager.userUnitFolder.appendingPathComponent(Self.serviceName + ".service"),
                                text: written.text, commands: [["daemon-reload"], ["enable", "--now", Self.serviceName + ".service"]],
                                replaces: replaces)
        case .autostart:
            return WatcherSetup(way: .autostart, file: serviceManager.autostartFolder.appendingPathComponent(Self.serviceName + ".desktop"),
                                text: written.text, commands: [], replaces: replaces)
        }
    }

    /// The unit where a user manager runs, else the autostart entry.
    private func startupFile() throws(UnwritableWord) -> (way: WatcherSetup.Way, text: String) {
        if serviceManager.runsUserManager {
            return (.systemd, try StartupFiles.systemdService(description: "Trend: habit reminders on the desktop", command: watcherCommand))
        }
        return (.autostart, try StartupFiles.autostartEntry(name: "Trend reminders", comment: "Habit reminders with Done and Skip",
                                                            command: watcherCommand))
    }

    /// Puts `setup` in place: the older installs go first, then the file, then the manager's calls. Returns what
    /// was done, a sentence each.
    public func install(_ setup: WatcherSetup) throws(WatcherSetupError) -> [String] {
        var done: [String] = []
        do {
            for older in try olderInstalls() {
                try remove(older)
                done.append("Removed \(older.said).")
            }
            try serviceManager.write(setup.text, to: setup.file)
            done.append("Wrote \(setup.file.path).")
            for command in setup.commands { try serviceManager.systemctl(command) }
        } catch {
            throw .failed(error, done: done)
        }
        switch setup.way {
        case .systemd:
            done.append("The watcher runs now, and starts with each graphical login.")
        case .autostart:
            done.append("The watcher starts with your next login; to start it now, run: trend remind --watch &")
        }
        return done
    }

    /// Takes away whatever `install` (of this Trend or an older one) put in place; what was done, a sentence each.
    public func uninstall() throws(WatcherSetupError) -> [String] {
        var done: [String] = []
        do {
            let service = serviceManager.userUnitFolder.appendingPathComponent(Self.serviceName + ".service")
            let entry = serviceManager.autostartFolder.appendingPathComponent(Self.serviceName + ".desktop")
            for older in try olderInstalls() {
                try remove(older)
                done.append("Removed \(older.said).")
            }
            if serviceManager.exists(service) {
                // Stopping a service the manager never loaded fails; the file goes in any case.
                if serviceManager.runsUserManager { try? serviceManager.systemctl(["disable", "--now", Self.serviceName + ".service"]) }
                try serviceManager.remove(service)
                if serviceManager.runsUserManager { try? serviceManager.systemctl(["daemon-reload"]) }  // Only tidies the manager's list.
                done.append("Stopped the watcher and removed \(service.path).")
            }
            if serviceManager.exists(entry) {
                try serviceManager.remove(entry)
                done.append("Removed \(entry.path); a watcher running now ends with this login.")
            }
        } catch {
            throw .failed(error, done: done)
        }
        return done.isEmpty ? ["No reminder watcher was installed."] : done
    }

    /// What an older Trend installed: the every-minute timer, and the crontab line.
    private enum OlderInstall {
        case timer(URL)
        case cronLine(String)

        var said: String {
            switch self {
            case let .timer(file): "the older every-minute timer (\(file.path))"
            case .cronLine: "the older every-minute line in your crontab"
            }
        }
    }

    private func olderInstalls() throws(ServiceManagerFailure) -> [OlderInstall] {
        let timer = serviceManager.userUnitFolder.appendingPathComponent(Self.serviceName + ".timer")
        let lines = try serviceManager.crontabLines().filter { $0.hasSuffix(Self.cronTag) }
        return (serviceManager.exists(timer) ? [.timer(timer)] : []) + lines.map { .cronLine($0) }
    }

    private func remove(_ older: OlderInstall) throws(ServiceManagerFailure) {
        switch older {
        case let .timer(file):
            if serviceManager.runsUserManager { try? serviceManager.systemctl(["disable", "--now", Self.serviceName + ".timer"]) }
            try serviceManager.remove(file)
        case let .cronLine(line):
            try serviceManager.setCrontab(try serviceManager.crontabLines().filter { $0 != line })
        }
    }
}
