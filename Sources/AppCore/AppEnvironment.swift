import DailyTips
import Desktop
import Foundation
import Settings
import Storage

/// Everything the graph is built from that differs between the running
/// program and a test: where data lives, the database, the clock, the
/// calendar, the random seed, and the clients of the person's session (the
/// desktop's notification service, the service manager), each with a live
/// and an in-memory form, as isowords keeps its clients. `AppModel.assemble(_:)` takes one; `live()`
/// makes the real one and tests make theirs, so both run the same wiring.
@MainActor
public struct AppEnvironment {
    /// The data directory: the database, `Backups/`, exports and history live here.
    public var dataDirectory: URL
    /// The one database (a file in `dataDirectory`, or in memory in tests).
    public var store: LocalDataStore
    /// "Now", the only source of time below the executable.
    public var currentDate: @MainActor () -> Date
    /// The person's calendar and time zone; Monday starts the week.
    public var calendar: Calendar
    /// Shuffles a new installation's tip decks (a stored seed wins).
    public var tipSeed: UInt64
    /// Reads the tip catalogue, on first use.
    public var tipCatalogue: @Sendable () throws -> TipCatalogue
    /// Where settings are kept; tests may pass one that counts or fails.
    public var settingsRepository: any SettingsRepository
    /// Written into every snapshot.
    public var appVersion: String
    /// How long the backup check waits after a change for things to settle.
    public var backupDebounce: Duration
    /// Waits out the debounce: the real clock's `Task.sleep` in the program; a timer the test advances.
    public var backupSleep: @Sendable (Duration) async throws -> Void
    /// What this installation is called in the sync folder until `set device-name` names it.
    public var hostName: String = "this device"
    /// The desktop's notification service: `.live` (the session bus) in the program; none unless a test gives one.
    public var notifications: NotificationClient = .nowhere
    /// What starts the reminder watcher with the session: the machine's in the program; a test gives its own.
    public var serviceManager: any ServiceManager = InMemoryServiceManager(home: FileManager.default.temporaryDirectory
        .appendingPathComponent("trend-no-home"), runsUserManager: false)
    /// This program's path, written into the watcher's command line.
    public var executablePath: String = "trend"

    public init(dataDirectory: URL, store: LocalDataStore, currentDate: @escaping @MainActor () -> Date, calendar: Calendar,
                tipSeed: UInt64, tipCatalogue: @escaping @Sendable () throws -> TipCatalogue,
                settingsRepository: (any SettingsRepository)? = nil, appVersion: String, backupDebounce: Duration,
                backupSleep: @escaping @Sendable (Duration) async throws -> Void) {
        self.dataDirectory = dataDirectory
        self.store = store
        self.currentDate = currentDate
        self.calendar = calendar
        self.tipSeed = tipSeed
        self.tipCatalogue = tipCatalogue
        self.settingsRepository = settingsRepository ?? LocalSettingsRepository(store: store)
        self.appVersion = appVersion
        self.backupDebounce = backupDebounce
        self.backupSleep = backupSleep
    }

    /// The running program's environment: a database file in `dataDirectory`,
    /// the system clock, a Gregorian calendar on the system's time zone.
    public static func live(dataDirectory: URL) -> AppEnvironment {
        var calendar = Calendar(identifier: .gregorian)
        // Follows the system's zone when it changes (the REPL re-reads it before each command).
        calendar.timeZone = TimeZone.autoupdatingCurrent
        calendar.firstWeekday = 2
        return AppEnvironment(
            dataDirectory: dataDirectory,
            store: LocalDataStore(directory: dataDirectory, schema: .trend),
            // A function rather than a stored Date keeps production time moving while tests pass a fixed clock.
            currentDate: { .now },
            calendar: calendar,
            tipSeed: UInt64.random(in: .min ... .max),
            tipCatalogue: { TipCatalogue.shipped },
            appVersion: AppModel.version,
            backupDebounce: .seconds(3),
            backupSleep: { try await Task.sleep(for: $0) }
        ).with(hostName: ProcessInfo.processInfo.hostName).withSession(
            notifications: .live, serviceManager: LiveServiceManager(environment: ProcessInfo.processInfo.environment),
            executablePath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
    }

    /// The same environment, with these clients of the person's session.
    public func withSession(notifications: NotificationClient, serviceManager: any ServiceManager, executablePath: String) -> AppEnvironment {
        var copy = self
        copy.notifications = notifications
        copy.serviceManager = serviceManager
        copy.executablePath = executablePath
        return copy
    }

    /// The same environment, with the host's name for the sync folder.
    public func with(hostName: String) -> AppEnvironment {
        var copy = self
        copy.hostName = String(hostName.prefix(DeviceName.maximumLength))
        return copy
    }
}
