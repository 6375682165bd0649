import AppCore
import DailyTips
import Desktop
import Foundation
import Settings
import Storage

/// The pieces of an isolated graph a test may want to reach.
@MainActor
public struct TestGraph {
    public let app: AppModel
    public let store: LocalDataStore
    public let clock: TestClock
    /// The backup's debounce waits on it; it fires only when the test advances it.
    public let timer: TestTimer
    public let calendar: Calendar
    public let directory: URL
}

/// Builds an `AppModel` through the same `AppModel.assemble(_:)` as the
/// program, on real SQLite (in memory unless a store is given) with a clock
/// the test moves, a fixed tip seed and a folder of its own.
@MainActor
public func makeTestApp(
    store: LocalDataStore = .inMemory(),
    clock: TestClock = TestClock(date("2026-06-15 08:00")),
    calendar: Calendar = calendar(zone: "UTC"),
    // A folder of its own, so Backups/ of one test never meets another's.
    directory: URL = FileManager.default.temporaryDirectory.appendingPathComponent("trend-graph-\(UUID().uuidString)"),
    settingsRepository: (any SettingsRepository)? = nil,
    tipSeed: UInt64 = 7,
    tipCatalogue: TipCatalogue? = nil,
    timer: TestTimer = TestTimer(),
    // The session's clients: no desktop and a service manager in the test's own folder unless a test gives its own.
    notifications: NotificationClient = .nowhere,
    serviceManager: (any ServiceManager)? = nil,
    executablePath: String = "/usr/local/bin/trend"
) -> TestGraph {
    let environment = AppEnvironment(
        dataDirectory: directory, store: store, currentDate: clock.currentDate, calendar: calendar, tipSeed: tipSeed,
        tipCatalogue: { tipCatalogue ?? TipCatalogue.shipped }, settingsRepository: settingsRepository,
        // The debounce fires only when the test advances `timer`; otherwise the test runs the check (flushPendingBackup).
        appVersion: "test", backupDebounce: .seconds(3), backupSleep: timer.sleepFunction
    )
    let session = environment.withSession(
        notifications: notifications,
        serviceManager: serviceManager ?? InMemoryServiceManager(home: directory.appendingPathComponent("home"), runsUserManager: false),
        executablePath: executablePath)
    let app = AppModel.assemble(session)
    return TestGraph(app: app, store: store, clock: clock, timer: timer, calendar: calendar, directory: directory)
}

/// A suite of the imports or the exports: the files it reads in a scratch folder of its own, and the app it
/// brings them into.
@MainActor
public protocol ImportAndExportSuite {
    var temp: TemporaryDirectory { get }
}

extension ImportAndExportSuite {
    /// A file to import in the suite's folder (`TemporaryDirectory.file`).
    public func file(_ name: String, _ text: String, bom: Bool = false, crlf: Bool = false) throws -> URL {
        try temp.file(name, text, bom: bom, crlf: crlf)
    }

    /// The app the suite's tests start from (`makeTestApp(unit:zone:)`).
    public func graph(zone: String = "UTC", unit: String = "kg") async throws -> TestGraph {
        try await makeTestApp(unit: unit, zone: zone)
    }
}

/// An app on 2026-11-29 09:00 in `zone` whose weights are shown in `unit`: where the imports' and the exports' tests
/// start.
@MainActor
public func makeTestApp(unit: String, zone: String = "UTC") async throws -> TestGraph {
    let graph = makeTestApp(clock: TestClock(date("2026-11-29 09:00")), calendar: calendar(zone: zone))
    try await graph.app.settingsFeature.setUnit(named: unit)
    return graph
}
