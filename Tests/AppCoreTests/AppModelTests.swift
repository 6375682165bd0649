import Foundation
import Settings
import Storage
import Testing
import TestSupport
import Vocabulary
@testable import AppCore

/// Counts loads on the way to the real SQLite repository, to see what launch starts.
actor CountingSettingsRepository: SettingsRepository {
    let base: LocalSettingsRepository
    private(set) var loads = 0

    init(store: LocalDataStore) {
        base = LocalSettingsRepository(store: store)
    }

    func loadSettings() async throws -> LoadedSettings {
        loads += 1
        return try await base.loadSettings()
    }

    func save(_ change: SettingChange, journal: JournalEntry?) async throws { try await base.save(change, journal: journal) }
    func externalVersion() async throws -> Int { try await base.externalVersion() }
}

@MainActor
@Suite struct AppModelTests {
    @Test func launchStartsLoadingOnceAndASecondCallStartsNothing() async throws {
        let store = LocalDataStore.inMemory()
        try store.write { try $0.run("INSERT INTO settings(key, value) VALUES('unit', 'st')") }
        let counting = CountingSettingsRepository(store: store)
        let graph = makeTestApp(store: store, settingsRepository: counting)

        graph.app.applicationDidFinishLaunching()
        graph.app.applicationDidFinishLaunching()
        try await graph.app.settingsFeature.load()

        #expect(graph.app.settingsFeature.current.unit == .stones)
        #expect(await counting.loads == 1)
    }

    @Test func aCommandDuringLaunchJoinsTheLoadInFlight() async throws {
        let counting = CountingSettingsRepository(store: .inMemory())
        let graph = makeTestApp(settingsRepository: counting)
        graph.app.applicationDidFinishLaunching()
        async let first: Void = graph.app.settingsFeature.load()
        async let second: Void = graph.app.settingsFeature.load()
        _ = try await (first, second)
        #expect(await counting.loads == 1)
    }

    @Test func aStoreThatCannotOpenIsReportedAndRetried() async throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let blocker = temp.url.appendingPathComponent("data")
        try Data("in the way".utf8).write(to: blocker)
        let graph = makeTestApp(store: LocalDataStore(directory: blocker))
        graph.app.applicationDidFinishLaunching()
        await #expect(throws: StorageError.self) { try await graph.app.settingsFeature.load() }

        try FileManager.default.removeItem(at: blocker)
        try await graph.app.settingsFeature.load()
        #expect(graph.app.settingsFeature.lastError == nil)
    }

    @Test func theDataDirectoryFollowsTheDocumentedOrder() {
        let environment = ["TREND_DATA_DIR": "/srv/trend", "XDG_DATA_HOME": "/x", "HOME": "/home/ada"]
        #expect(DataDirectory.resolve(flag: "/flag", environment: environment).path == "/flag")
        #expect(DataDirectory.resolve(flag: nil, environment: environment).path == "/srv/trend")
        #expect(DataDirectory.resolve(flag: nil, environment: ["XDG_DATA_HOME": "/x"]).path == "/x/trend")
        #expect(DataDirectory.resolve(flag: nil, environment: ["XDG_DATA_HOME": "relative", "HOME": "/home/ada"]).path
            == "/home/ada/.local/share/trend")
        #expect(DataDirectory.resolve(flag: nil, environment: ["HOME": "/home/ada"]).path == "/home/ada/.local/share/trend")
    }

    /// Issue 32, item 4: `~` and the default directory are `$HOME`'s, as XDG says, not the password database's.
    @Test func homeIsTheEnvironmentsHomeFirst() {
        let sandbox = ["HOME": "/tmp/sandbox"]
        #expect(DataDirectory.resolve(flag: "~/data", environment: sandbox).path == "/tmp/sandbox/data")
        #expect(DataDirectory.resolve(flag: nil, environment: ["TREND_DATA_DIR": "~/t", "HOME": "/tmp/sandbox/"]).path == "/tmp/sandbox/t")
        #expect(DataDirectory.resolve(flag: nil, environment: sandbox).path == "/tmp/sandbox/.local/share/trend")
        #expect(HomePath.expanding("~", environment: sandbox) == "/tmp/sandbox")
        #expect(HomePath.expanding("~/x.csv", environment: sandbox) == "/tmp/sandbox/x.csv")
        #expect(HomePath.expanding("/a/~/b", environment: sandbox) == "/a/~/b")
        // Without HOME, the account's entry still gives one.
        #expect(HomePath.expanding("~/x", environment: [:]).hasSuffix("/x") && !HomePath.expanding("~/x", environment: [:]).hasPrefix("~"))
    }
}

@MainActor
@Suite struct TwoProcessesTests {
    @Test func aSecondConnectionsWritesAreSeenOnTheNextCommand() async throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        // Two stores on one file: two connections, as two trend processes would have.
        let first = makeTestApp(store: LocalDataStore(directory: temp.url))
        let second = makeTestApp(store: LocalDataStore(directory: temp.url))
        try await first.app.weightEntryFeature.load()
        try await first.app.habitsFeature.load()
        try await first.app.settingsFeature.load()

        try await second.app.weightEntryFeature.record(kilograms: 81)
        try await second.app.habitsFeature.add(name: "Read", schedule: .daily, kind: .yesNo)
        try await second.app.settingsFeature.setUnit(named: "lb")

        try await first.app.weightEntryFeature.load()
        try await first.app.habitsFeature.load()
        try await first.app.settingsFeature.load()
        #expect((try await first.app.weightEntryFeature.allEntries()).map(\.kilograms) == [81])
        #expect(first.app.habitsFeature.habits.map(\.name) == ["Read"])
        #expect(first.app.settingsFeature.current.unit == .pounds)
    }
}
