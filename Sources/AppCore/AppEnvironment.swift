import DailyTips
import Foundation
import Settings
import Storage

/// Everything the graph is built from that differs between the running
/// program and a test: where data lives, the database, the clock, the
/// calendar and the random seed. `AppModel.assemble(_:)` takes one; `live()`
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
        ).with(hostName: ProcessInfo.processInfo.hostName)
    }

    /// The same environment, with the host's name for the sync folder.
    public func with(hostName: String) -> AppEnvironment {
        var copy = self
        copy.hostName = String(hostName.prefix(DeviceName.maximumLength))
        return copy
    }
}
