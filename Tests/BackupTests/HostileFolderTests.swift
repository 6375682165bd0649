import AppCore
import Cryptography
import Foundation
import Settings
import Storage
import Testing
import TestSupport
import Vocabulary
import WeightLog
@testable import Backup

/// The sync folder and the Backups folder as an attacker (or a confused sync
/// program) leaves them: links, FIFOs, hostile snapshots. Nothing may be
/// written outside the data directory and this installation's own sync
/// folder, nothing may hang, and no device-local setting may cross.
@MainActor
@Suite(.serialized) struct HostileFolderTests {
    let temp = TemporaryDirectory()

    func graph(_ folder: String = "data", clock: TestClock = TestClock(date("2026-06-10 08:00"))) -> TestGraph {
        let directory = temp.url.appendingPathComponent(folder)
        return makeTestApp(store: LocalDataStore(directory: directory), clock: clock, directory: directory)
    }

    /// A graph with a sync folder set and one weigh-in: something to back up.
    func syncedGraph() async throws -> (graph: TestGraph, sync: URL) {
        let sync = try syncFolder()
        let g = graph()
        try await g.app.settingsFeature.setSyncFolder(sync.path)
        try await g.app.weightEntryFeature.record(kilograms: 80)
        return (g, sync)
    }

    func syncFolder() throws -> URL {
        let sync = temp.url.appendingPathComponent("Sync")
        try FileManager.default.createDirectory(at: sync.appendingPathComponent("Backups"), withIntermediateDirectories: true)
        return sync
    }

    @Test func anOwnSyncFolderThatIsALinkIsNeverWrittenThrough() async throws {
        defer { temp.remove() }
        let (g, sync) = try await syncedGraph()
        // The attacker's target: a folder holding a file the link would destroy.
        let target = temp.url.appendingPathComponent("victim")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        try Data("precious".utf8).write(to: target.appendingPathComponent("Previous.json"))
        try Data("precious".utf8).write(to: target.appendingPathComponent("Latest.json"))
        let id = try g.store.installationID()
        try FileManager.default.createSymbolicLink(at: sync.appendingPathComponent("Backups/\(id)"), withDestinationURL: target)

        _ = try await g.app.backupFeature.backupNow()
        #expect(try String(contentsOf: target.appendingPathComponent("Previous.json"), encoding: .utf8) == "precious")
        #expect(try String(contentsOf: target.appendingPathComponent("Latest.json"), encoding: .utf8) == "precious")
        #expect(try FileManager.default.contentsOfDirectory(atPath: target.path).sorted() == ["Latest.json", "Previous.json"])
        #expect(g.app.backupFeature.syncWarning?.contains("symbolic link") == true, "\(g.app.backupFeature.syncWarning ?? "none")")
        // The local snapshot is written all the same.
        #expect(FileManager.default.fileExists(atPath: g.directory.appendingPathComponent("Backups/Latest.json").path))
    }

    @Test func aFIFONamedLatestInTheSyncFolderNeverBlocksListingOrRestore() async throws {
        defer { temp.remove() }
        let sync = try syncFolder()
        let other = sync.appendingPathComponent("Backups/0badc0de-0000-4000-8000-000000000000")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        #expect(mkfifo(other.appendingPathComponent("Latest.json").path, 0o600) == 0)
        let g = graph()
        try await g.app.settingsFeature.setSyncFolder(sync.path)
        // Would block forever if the FIFO were opened for reading.
        let listed = try await g.app.backupFeature.listings()
        #expect(listed.listings.isEmpty)
        await #expect(throws: BackupFileError.noSuchBackup("sync 0badc0de")) {
            _ = try await g.app.backupFeature.prepareRestore(from: .sync("0badc0de"))
        }
    }

    @Test func aMissingSyncFolderIsNeverCreated() async throws {
        defer { temp.remove() }
        let sync = try syncFolder()
        let g = graph()
        try await g.app.settingsFeature.setSyncFolder(sync.path)
        try FileManager.default.removeItem(at: sync)
        try await g.app.weightEntryFeature.record(kilograms: 80)
        _ = try await g.app.backupFeature.backupNow()
        #expect(!FileManager.default.fileExists(atPath: sync.path))
        #expect(g.app.backupFeature.syncWarning?.contains("does not exist") == true)
    }

    @Test func aBackupsFolderThatIsALinkIsRefusedAndAPlantedWeeklyLinkIsReplaced() async throws {
        defer { temp.remove() }
        let g = graph()
        try await g.app.weightEntryFeature.record(kilograms: 80)
        let outside = temp.url.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: g.directory, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: g.directory.appendingPathComponent("Backups"), withDestinationURL: outside)
        await #expect(throws: BackupFileError.linkRefused(g.directory.appendingPathComponent("Backups").path)) {
            _ = try await g.app.backupFeature.backupNow()
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).isEmpty)

        // A real Backups folder whose week's copy is a planted link to a file elsewhere.
        try FileManager.default.removeItem(at: g.directory.appendingPathComponent("Backups"))
        let weekly = g.directory.appendingPathComponent("Backups/Weekly")
        try FileManager.default.createDirectory(at: weekly, withIntermediateDirectories: true)
        let decoy = outside.appendingPathComponent("decoy.json")
        try Data("decoy".utf8).write(to: decoy)
        try FileManager.default.createSymbolicLink(at: weekly.appendingPathComponent("2026-W24.json"), withDestinationURL: decoy)
        _ = try await g.app.backupFeature.backupNow()
        let attributes = try FileManager.default.attributesOfItem(atPath: weekly.appendingPathComponent("2026-W24.json").path)
        #expect(attributes[.type] as? FileAttributeType == .typeRegular, "the week's copy is a real snapshot")
        #expect(try String(contentsOf: decoy, encoding: .utf8) == "decoy")
    }

    @Test func aHostileSnapshotBringsNoSyncFolderAndNoJunkSettings() async throws {
        defer { temp.remove() }
        let (g, sync) = try await syncedGraph()
        var junk = (0..<2_000).map { SettingsTable.Row(key: "junk\($0)", value: String(repeating: "x", count: 100)) }
        junk += [SettingsTable.Row(key: "syncFolder", value: "/tmp/attacker"), SettingsTable.Row(key: "unit", value: "lb"),
                 SettingsTable.Row(key: "goalKilograms", value: "70")]
        let hostile = SnapshotContent.of(weights: [WeightEntry(id: "h1", date: date("2026-06-01 07:00"), kilograms: 81)],
                                         settings: junk)
        let file = temp.url.appendingPathComponent("hostile.json")
        try RecoverySnapshot(content: hostile, createdAt: date("2026-06-02"), installationID: "attacker", appVersion: "x")
            .encoded().write(to: file)

        let plan = try await g.app.backupFeature.prepareRestore(from: .file(file))
        #expect(plan.ignoredSettings == 2_001)
        #expect(plan.settingChanges.map(\.key) == ["goalKilograms", "unit"])
        _ = try await g.app.backupFeature.restore(plan)
        #expect(g.app.settingsFeature.current.syncFolder == sync.path, "this device's sync folder stays")
        #expect(g.app.settingsFeature.current.unit == .pounds)
        #expect(try g.store.readContent().settings.map(\.key).sorted() == ["goalKilograms", "syncFolder", "unit"])
    }

    @Test func previousKeepsTheLastDifferentSnapshotAndAnEmptyDatabaseWritesNone() async throws {
        defer { temp.remove() }
        let g = graph()
        let backup = g.app.backupFeature
        let folder = g.directory.appendingPathComponent("Backups")
        func weighIns(_ name: String) throws -> Int {
            try RecoverySnapshot.decode(Data(contentsOf: folder.appendingPathComponent(name)), name: name, schema: .trend).weighIns
        }
        await #expect(throws: BackupFileError.nothingToBackUp) { _ = try await backup.backupNow() }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("Latest.json").path))

        try await g.app.weightEntryFeature.record(kilograms: 80)
        _ = try await backup.backupNow()
        try await g.app.weightEntryFeature.record(kilograms: 79)
        _ = try await backup.backupNow()
        _ = try await backup.backupNow()
        // Trend's own rule (RecoveryBackupTests.retainsWeeklyCopiesAndPreviousGoodSnapshot): an unchanged save rotates nothing.
        #expect(try weighIns("Latest.json") == 2)
        #expect(try weighIns("Previous.json") == 1)

        _ = try await backup.deleteAllData()
        await #expect(throws: BackupFileError.nothingToBackUp) { _ = try await backup.backupNow() }
        await backup.triggerDataBackupIfNeeded()
        #expect(try weighIns("Latest.json") == 2, "an empty database never replaces a snapshot")
        #expect(try weighIns("Previous.json") == 1)
    }

    @Test func aWrongClockChangesNothingAndSaysSo() async throws {
        defer { temp.remove() }
        let clock = TestClock(date("2026-06-10 08:00"))
        let g = graph(clock: clock)
        try await g.app.weightEntryFeature.record(kilograms: 80)
        clock.now = Date(timeIntervalSince1970: 10_413_792_000)  // 2300-01-01
        await #expect(throws: ClockError.self) { try await g.app.weightEntryFeature.record(kilograms: 81) }
        await #expect(throws: ClockError.self) { _ = try await g.app.habitsFeature.add(name: "Read", schedule: .daily, kind: .yesNo) }
        await #expect(throws: ClockError.self) { _ = try await g.app.backupFeature.backupNow() }
        #expect(try g.store.readContent().weights.count == 1)
        #expect(!FileManager.default.fileExists(atPath: g.directory.appendingPathComponent("Backups/Latest.json").path))
    }

    @Test func aSnapshotWithBadRowsRestoresItsGoodRowsWhenAskedAndListsTheRest() async throws {
        defer { temp.remove() }
        let g = graph()
        let content = SnapshotContent.of(weights: [
            WeightEntry(id: "ok", date: date("2026-06-01 07:00"), kilograms: 80),
            WeightEntry(id: "future", date: Date(timeIntervalSince1970: 10_413_792_000), kilograms: 79),
            WeightEntry(id: "heavy", date: date("2026-06-02 07:00"), kilograms: 900),
        ])
        let file = temp.url.appendingPathComponent("bad-rows.json")
        try RecoverySnapshot(content: content, createdAt: date("2026-06-03"), installationID: "i", appVersion: "x").encoded().write(to: file)
        await #expect(throws: SnapshotError.self) { _ = try await g.app.backupFeature.prepareRestore(from: .file(file)) }
        let plan = try await g.app.backupFeature.prepareRestore(from: .file(file), skippingInvalid: true)
        #expect(plan.snapshot.dropped == ["weight 2 has a date outside 1900–2200", "weight 3 is 900.0 kg, outside 20–500 kg"])
        _ = try await g.app.backupFeature.restore(plan)
        #expect((try await g.app.weightEntryFeature.allEntries()).map(\.id) == ["ok"])
    }
}

/// The read-back check of a written snapshot, a chunk at a time.
@Suite struct ReadBackTests {
    @Test func aFileHashesAsWhatWasWrittenOrTheCheckSaysNo() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let folder = try SafeFolder.open(temp.url, [])
        // More than one chunk, so the hash crosses chunk borders.
        let data = Data((0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        func put(_ data: Data, as name: String) throws {
            let file = try folder.pending(name)
            try data.withUnsafeBytes { try file.append($0) }
            try file.commit()
        }
        try put(data, as: "Latest.json")
        let (hash, size) = try folder.sha256(of: "Latest.json")
        #expect(hash == (try ContentHash.sha256(data)))
        #expect(size == data.count)
        var changed = data
        changed[(2 << 20) + 5] ^= 1
        try put(changed, as: "Changed.json")
        #expect(try folder.sha256(of: "Changed.json").hash != hash, "one bit differs in the third megabyte")
        try put(data.prefix(data.count - 1), as: "Short.json")
        #expect(try folder.sha256(of: "Short.json").hash != hash, "a shorter file")
        // The copy a sync folder gets is the same bytes, and says so by its hash.
        let other = try SafeFolder.open(temp.url, ["Sync"], create: true)
        #expect(try other.copy("Latest.json", from: folder, as: "Latest.json") == hash)
        #expect(try other.sha256(of: "Latest.json").hash == hash)
        // A copy that is not the bytes expected (the source changed meanwhile) leaves the old copy standing.
        #expect(throws: BackupFileError.self) {
            try other.copy("Changed.json", from: folder, as: "Latest.json", expecting: hash)
        }
        #expect(try other.sha256(of: "Latest.json").hash == hash)
        #expect(try other.names() == ["Latest.json"], "no temporary file is left")
        try FileManager.default.createSymbolicLink(atPath: temp.url.appendingPathComponent("link.json").path,
                                                   withDestinationPath: temp.url.appendingPathComponent("Latest.json").path)
        #expect(throws: BackupFileError.self) { try folder.sha256(of: "link.json") }
    }
}
