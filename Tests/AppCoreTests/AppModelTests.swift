import Foundation
import Habits
import Settings
import Storage
import Testing
import TestSupport
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
        let home = "/home/ada"
        let environment = ["TREND_DATA_DIR": "/srv/trend", "XDG_DATA_HOME": "/x"]
        #expect(DataDirectory.resolve(flag: "/flag", environment: environment, home: home).path == "/flag")
        #expect(DataDirectory.resolve(flag: nil, environment: environment, home: home).path == "/srv/trend")
        #expect(DataDirectory.resolve(flag: nil, environment: ["XDG_DATA_HOME": "/x"], home: home).path == "/x/trend")
        #expect(DataDirectory.resolve(flag: nil, environment: ["XDG_DATA_HOME": "relative"], home: home).path == "/home/ada/.local/share/trend")
        #expect(DataDirectory.resolve(flag: nil, environment: [:], home: home).path == "/home/ada/.local/share/trend")
    }

    @Test func theDataDirectoryFlagIsReadFromTheArgumentsNotFromACommand() {
        #expect(DataDirectory.flag(in: ["--data-dir", "/a", "-c", "today"]) == "/a")
        #expect(DataDirectory.flag(in: ["--data-dir=/b", "--json"]) == "/b")
        #expect(DataDirectory.flag(in: ["-c", "--data-dir", "--json"]) == nil)
        #expect(DataDirectory.flag(in: ["--json"]) == nil)
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
