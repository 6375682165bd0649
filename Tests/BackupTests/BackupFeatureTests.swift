import AppCore
import Foundation
import Storage
import Testing
import TestSupport
import WeightLog
@testable import Backup

@MainActor
@Suite struct BackupFeatureTests {
    let temp = TemporaryDirectory()

    func graph(clock: TestClock = TestClock(date("2026-06-10 08:00")), folder: String = "data") -> TestGraph {
        let directory = temp.url.appendingPathComponent(folder)
        return makeTestApp(store: LocalDataStore(directory: directory), clock: clock, directory: directory)
    }

    func backups(_ graph: TestGraph) -> URL { graph.directory.appendingPathComponent("Backups") }

    func weights(in file: URL) throws -> Int {
        try RecoverySnapshot.decode(Data(contentsOf: file), name: "test", schema: .trend).weighIns
    }

    @Test func atMostOneAutomaticSnapshotADayAndOnlyWhenSomethingChanged() async throws {
        defer { temp.remove() }
        let clock = TestClock(date("2026-06-10 08:00"))
        let g = graph(clock: clock)
        let backup = g.app.backupFeature
        await backup.triggerDataBackupIfNeeded()
        #expect(!FileManager.default.fileExists(atPath: backups(g).appendingPathComponent("Latest.json").path), "nothing to keep yet")

        try await g.app.weightEntryFeature.record(kilograms: 80)
        await backup.triggerDataBackupIfNeeded()
        let latest = backups(g).appendingPathComponent("Latest.json")
        #expect(try weights(in: latest) == 1)

        clock.advance(by: 3600)
        try await g.app.weightEntryFeature.record(kilograms: 79)
        await backup.triggerDataBackupIfNeeded()
        #expect(try weights(in: latest) == 1, "within 24 hours: no second automatic snapshot")

        clock.advance(by: 24 * 3600)
        await backup.triggerDataBackupIfNeeded()
        #expect(try weights(in: latest) == 2)
        #expect(try weights(in: backups(g).appendingPathComponent("Previous.json")) == 1, "the old Latest is rotated to Previous")

        clock.advance(by: 25 * 3600)
        let before = try Data(contentsOf: latest)
        await backup.triggerDataBackupIfNeeded()
        #expect(try Data(contentsOf: latest) == before, "a day later but nothing changed: no snapshot")

        _ = try await backup.backupNow()
        #expect(try Data(contentsOf: latest) != before, "backup now ignores both rules")
    }

    /// Issue 27, item 7: the check after a change waits its debounce on the
    /// injected timer, which the test moves; a second change restarts the wait.
    @Test func aChangeIsBackedUpOnceTheDebounceHasPassedOnTheTimer() async throws {
        defer { temp.remove() }
        let g = graph()
        g.app.applicationDidFinishLaunchingForCommands()
        let latest = backups(g).appendingPathComponent("Latest.json")
        try await g.app.weightEntryFeature.record(kilograms: 80)
        func settle() async { for _ in 0..<200 { await Task.yield() } }
        await settle()
        #expect(g.timer.pending == 1, "the change started the wait")
        g.timer.advance(by: .seconds(2))
        await settle()
        #expect(!FileManager.default.fileExists(atPath: latest.path), "not before the debounce has passed")
        try await g.app.weightEntryFeature.record(kilograms: 79)
        await settle()
        g.timer.advance(by: .seconds(2))
        await settle()
        #expect(!FileManager.default.fileExists(atPath: latest.path), "the second change restarted the wait")
        g.timer.advance(by: .seconds(1))
        for _ in 0..<100_000 where !FileManager.default.fileExists(atPath: latest.path) { await Task.yield() }
        #expect(FileManager.default.fileExists(atPath: latest.path), "the timer fired the check")
        #expect(try weights(in: latest) == 2)
        #expect(g.timer.pending == 0)
    }

    /// A snapshot's listing counts the rows as they were written (no second
    /// count of the table); habits alone are worth a snapshot, and a database
    /// with nothing to keep makes not even the Backups folder.
    @Test func aSnapshotListsWhatItWroteAndNothingIsWrittenForNothing() async throws {
        defer { temp.remove() }
        let g = graph()
        let backup = g.app.backupFeature
        await #expect(throws: BackupFileError.nothingToBackUp) { _ = try await backup.backupNow() }
        #expect(!FileManager.default.fileExists(atPath: backups(g).path))

        _ = try await g.app.habitsFeature.add(name: "Read", schedule: .daily, kind: .yesNo)
        _ = try await g.app.habitsFeature.add(name: "Walk", schedule: .daily, kind: .yesNo)
        let habitsOnly = try await backup.backupNow()
        #expect(habitsOnly.entries == 0 && habitsOnly.habits == 2)

        for kilograms in [80.0, 79.5, 79.0] { try await g.app.weightEntryFeature.record(kilograms: kilograms) }
        let both = try await backup.backupNow()
        #expect(both.entries == 3 && both.habits == 2)
        let listed = try await backup.listings().listings.first { $0.kind == .latest }
        #expect(listed?.entries == 3 && listed?.habits == 2, "the file says what the writer counted")
    }

    @Test func oneWeeklySnapshotPerISOWeekNeverOverwritten() async throws {
        defer { temp.remove() }
        // Sunday 2026-06-07 is in ISO week 23; Monday 2026-06-08 starts week 24.
        let clock = TestClock(date("2026-06-07 20:00"))
        let g = graph(clock: clock)
        try await g.app.weightEntryFeature.record(kilograms: 80)
        _ = try await g.app.backupFeature.backupNow()
        try await g.app.weightEntryFeature.record(kilograms: 81)
        _ = try await g.app.backupFeature.backupNow()
        let weekly = backups(g).appendingPathComponent("Weekly")
        #expect(try weights(in: weekly.appendingPathComponent("2026-W23.json")) == 1, "the first of the week stays")
        clock.advance(by: 5 * 3600)
        _ = try await g.app.backupFeature.backupNow()
        #expect(try weights(in: weekly.appendingPathComponent("2026-W24.json")) == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: weekly.path).sorted() == ["2026-W23.json", "2026-W24.json"])
        let mode = try FileManager.default.attributesOfItem(atPath: weekly.appendingPathComponent("2026-W24.json").path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func aRestoreBringsBackWeightsHabitsWithHistoryAndSettingsThenRefreshes() async throws {
        defer { temp.remove() }
        let g = graph()
        try await g.app.weightEntryFeature.record(kilograms: 80, when: .yesterday)
        try await g.app.weightEntryFeature.record(kilograms: 79.5)
        try await g.app.habitsFeature.add(name: "Read", schedule: .daily, kind: .yesNo)
        _ = try await g.app.habitsFeature.mark("Read", when: .yesterday, as: .done)
        _ = try await g.app.habitsFeature.mark("Read", as: .done)
        try await g.app.settingsFeature.setUnit(named: "lb")
        try await g.app.progressFeature.setGoal(kilograms: 75)
        _ = try await g.app.backupFeature.backupNow()

        // Change everything, then restore.
        _ = try await g.app.weightEntryFeature.delete(id: (try await g.app.weightEntryFeature.allEntries())[0].id)
        _ = try await g.app.habitsFeature.delete("Read")
        try await g.app.settingsFeature.setUnit(named: "st")
        _ = try await g.app.progressFeature.prepare()
        #expect(g.app.progressFeature.progressSnapshot?.points.count == 1)

        let plan = try await g.app.backupFeature.prepareRestore(from: .latest)
        #expect(plan.currentEntries == 1 && plan.snapshot.content.weights.count == 2)
        let result = try await g.app.backupFeature.restore(plan)
        #expect(result.entries == 2)

        // Observable through the Features, without reloading by hand.
        #expect((try await g.app.weightEntryFeature.allEntries()).map(\.kilograms) == [80, 79.5])
        #expect(g.app.habitsFeature.summaries().first?.currentStreak == 2)
        #expect(g.app.settingsFeature.current.unit == .pounds)
        #expect(g.app.settingsFeature.current.goalKilograms == 75)
        #expect(g.app.progressFeature.progressSnapshot?.points.count == 2, "the progress shown was refreshed")
        let copies = try FileManager.default.contentsOfDirectory(atPath: backups(g).appendingPathComponent("Before-restore").path)
        #expect(copies.count == 1)
    }

    /// Issue 32, item 7: Before-restore keeps the newest ten copies and the newest of each recent day
    /// (60 attempts made 830 MB), and a temporary a killed process left is removed at the next check.
    @Test func beforeRestoreIsBoundedAndStaleTemporariesGo() async throws {
        defer { temp.remove() }
        let clock = TestClock(date("2026-06-10 08:00"))
        let g = graph(clock: clock)
        try await g.app.weightEntryFeature.record(kilograms: 80)
        _ = try await g.app.backupFeature.backupNow()
        let folder = backups(g).appendingPathComponent("Before-restore")
        func copies() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }.sorted() }
        // Each restore replaces something (a weigh-in made since), so each keeps a copy.
        try await g.app.weightEntryFeature.record(kilograms: 81)
        _ = try await g.app.backupFeature.restore(try await g.app.backupFeature.prepareRestore(from: .latest))
        clock.advance(by: 86_400)
        for _ in 0..<12 {
            clock.advance(by: 60)
            try await g.app.weightEntryFeature.record(kilograms: 81)
            _ = try await g.app.backupFeature.restore(try await g.app.backupFeature.prepareRestore(from: .latest))
        }
        let kept = try copies()
        #expect(kept.count == 11, "the ten newest, and the day before's newest: \(kept)")
        #expect(kept.first?.hasPrefix("2026-06-10") == true)
        #expect(kept.filter { $0.hasPrefix("2026-06-11") }.count == 10)

        // A temporary of a process that has ended goes; one of a running process (this one) stays.
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        let stale = backups(g).appendingPathComponent(".Latest.json.\(ended.processIdentifier).tmp")
        let live = folder.appendingPathComponent(".2026-06-11T08-00-00Z.json.\(getpid()).tmp")
        try Data(repeating: 1, count: 1_000).write(to: stale)
        try Data(repeating: 1, count: 1_000).write(to: live)
        try await g.app.weightEntryFeature.record(kilograms: 79)
        await g.app.backupFeature.triggerDataBackupIfNeeded()
        #expect(!FileManager.default.fileExists(atPath: stale.path))
        #expect(FileManager.default.fileExists(atPath: live.path))
    }

    /// Issue 32, item 7: a restore of the content already there changes nothing, journals nothing and
    /// keeps no copy (each one added 34 MB of journal at 196k weigh-ins).
    @Test func aRestoreOfTheSameContentChangesNothing() async throws {
        defer { temp.remove() }
        let g = graph()
        for day in 0..<5 { try await g.app.weightEntryFeature.record(kilograms: 80 - Double(day) / 10, when: .relative(.daysAgo(day + 1), hour: 7, minute: 0)) }
        _ = try await g.app.backupFeature.backupNow()
        func journalRows() throws -> Int { try g.store.read { try $0.scalarInt("SELECT count(*) FROM journal_rows") ?? -1 } }
        let rows = try journalRows()
        let changes = try await g.app.changeHistoryFeature.recent(100).count
        let result = try await g.app.backupFeature.restore(try await g.app.backupFeature.prepareRestore(from: .latest))
        #expect(result.unchanged && result.beforeRestoreName == nil)
        #expect(try journalRows() == rows)
        #expect(try await g.app.changeHistoryFeature.recent(100).count == changes, "no change journaled")
        let folder = backups(g).appendingPathComponent("Before-restore").path
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".json") }.isEmpty)
        // Content that differs is restored as before.
        try await g.app.weightEntryFeature.record(kilograms: 79)
        let second = try await g.app.backupFeature.restore(try await g.app.backupFeature.prepareRestore(from: .latest))
        #expect(!second.unchanged && second.beforeRestoreName != nil)
        #expect(try await g.app.weightEntryFeature.allEntries().count == 5)
    }

    /// Issue 32, item 6: a restore checks what it wrote before it commits. A trigger planted in the
    /// database that deletes behind the insert made a restore report 352 weigh-ins while one was left.
    @Test func aRestoreThatDoesNotHoldWhatItWroteIsRolledBack() async throws {
        defer { temp.remove() }
        let g = graph()
        for day in 0..<3 { try await g.app.weightEntryFeature.record(kilograms: 80, when: .relative(.daysAgo(day + 1), hour: 7, minute: 0)) }
        _ = try await g.app.backupFeature.backupNow()
        try await g.app.weightEntryFeature.record(kilograms: 79)
        try g.store.write(notifying: false) {
            try $0.execute("CREATE TRIGGER planted AFTER INSERT ON weight_entries BEGIN DELETE FROM weight_entries WHERE rowid = NEW.rowid; END")
        }
        let plan = try await g.app.backupFeature.prepareRestore(from: .latest)
        await #expect(throws: StorageError.self) { _ = try await g.app.backupFeature.restore(plan) }
        try g.store.write(notifying: false) { try $0.execute("DROP TRIGGER planted") }
        #expect(try await g.app.weightEntryFeature.allEntries().count == 4, "nothing was changed")
    }

    @Test(arguments: ["tampered", "truncated", "version", "range", "foreign", "empty"])
    func aBadSnapshotIsRefusedAndChangesNothing(fault: String) async throws {
        defer { temp.remove() }
        let g = graph()
        try await g.app.weightEntryFeature.record(kilograms: 80)
        _ = try await g.app.backupFeature.backupNow()
        try await g.app.weightEntryFeature.record(kilograms: 81)
        let latest = backups(g).appendingPathComponent("Latest.json")
        var text = try String(contentsOf: latest, encoding: .utf8)
        switch fault {
        case "tampered": text = text.replacingOccurrences(of: "\"kilograms\":80", with: "\"kilograms\":70")
        case "truncated": text = String(text.prefix(text.count / 2))
        case "version": text = text.replacingOccurrences(of: "\"formatVersion\":\(RecoverySnapshot.formatVersion)", with: "\"formatVersion\":99")
        case "range":
            // A consistent file (hash recomputed) with an impossible weight.
            let read = try RecoverySnapshot.decode(Data(text.utf8), name: "x", schema: .trend)
            var content = read.content
            var weights = content.weights
            weights[0].kilograms = 900
            content.set(WeightTable.Part(entries: weights), for: "weights")
            let snapshot = try RecoverySnapshot(content: content, createdAt: read.createdAt,
                                            installationID: read.installationID, appVersion: "x")
            text = String(decoding: snapshot.encoded(), as: UTF8.self)
        case "foreign": text = "date,weight\n2026-01-01,80\n"
        default: text = ""
        }
        #expect(text.contains("\"kilograms\":70") || fault != "tampered")
        #expect(text.contains("\"formatVersion\":99") || fault != "version")
        try Data(text.utf8).write(to: latest)
        let before = try g.store.readContent()
        await #expect(throws: SnapshotError.self) { _ = try await g.app.backupFeature.prepareRestore(from: .latest) }
        #expect(try g.store.readContent() == before)
        #expect(!FileManager.default.fileExists(atPath: backups(g).appendingPathComponent("Before-restore").path))
    }

    @Test func namesThatLeaveTheBackupFolderAreRefused() async throws {
        defer { temp.remove() }
        let g = graph()
        for name in ["../../trend.sqlite", "a/b", "..", ""] {
            await #expect(throws: BackupFileError.self) { _ = try await g.app.backupFeature.prepareRestore(from: .beforeRestore(name)) }
        }
        await #expect(throws: BackupFileError.noSuchBackup("weekly ../2026-W01")) {
            _ = try await g.app.backupFeature.prepareRestore(from: .weekly("../2026-W01"))
        }
        // A link inside Before-restore that points out of the Backups folder.
        let folder = backups(g).appendingPathComponent("Before-restore")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let outside = temp.url.appendingPathComponent("elsewhere.json")
        try Data("{}".utf8).write(to: outside)
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("sneaky.json"), withDestinationURL: outside)
        await #expect(throws: BackupFileError.linkRefused(folder.appendingPathComponent("sneaky.json").path)) {
            _ = try await g.app.backupFeature.prepareRestore(from: .beforeRestore("sneaky"))
        }
    }

    @Test func aSecondInstallationListsRestoresAndMergesTheFirstsSnapshotsFromTheSyncFolder() async throws {
        defer { temp.remove() }
        let sync = temp.url.appendingPathComponent("Sync")
        try FileManager.default.createDirectory(at: sync, withIntermediateDirectories: true)
        let laptop = graph(folder: "laptop")
        try await laptop.app.settingsFeature.setSyncFolder(sync.path)
        try await laptop.app.weightEntryFeature.record(kilograms: 80, when: .yesterday)
        try await laptop.app.habitsFeature.add(name: "Read", schedule: .daily, kind: .yesNo)
        _ = try await laptop.app.habitsFeature.mark("Read", when: .yesterday, as: .done)
        _ = try await laptop.app.backupFeature.backupNow()
        let laptopID = try laptop.store.installationID()
        #expect(FileManager.default.fileExists(atPath: sync.appendingPathComponent("Backups/\(laptopID)/Latest.json").path))

        let desktop = graph(folder: "desktop")
        try await desktop.app.settingsFeature.setSyncFolder(sync.path)
        try await desktop.app.weightEntryFeature.record(kilograms: 79)
        try await desktop.app.habitsFeature.add(name: "read", schedule: .daily, kind: .yesNo)
        _ = try await desktop.app.habitsFeature.mark("read", as: .done)
        let listed = try await desktop.app.backupFeature.listings().listings.filter { $0.kind == .sync }
        #expect(listed.map(\.installationID) == [laptopID])
        #expect(listed.first?.entries == 1)

        let merge = try await desktop.app.backupFeature.prepareRestore(from: .sync(String(laptopID.prefix(8))))
        let merged = try await desktop.app.backupFeature.restore(merge, merge: true)
        #expect(merged.merged == MergeCounts(weights: 1, duplicateWeights: 0, habits: 0, habitDays: 1))
        #expect((try await desktop.app.weightEntryFeature.allEntries()).map(\.kilograms) == [80, 79])
        #expect(desktop.app.habitsFeature.summaries().first?.currentStreak == 2, "yesterday from the laptop, today here")

        let again = try await desktop.app.backupFeature.restore(try await desktop.app.backupFeature.prepareRestore(from: .sync(String(laptopID.prefix(8)))), merge: true)
        #expect(again.merged == MergeCounts(weights: 0, duplicateWeights: 1, habits: 0, habitDays: 0), "a second merge adds nothing")

        let replace = try await desktop.app.backupFeature.prepareRestore(from: .sync(String(laptopID.prefix(8))))
        _ = try await desktop.app.backupFeature.restore(replace)
        #expect((try await desktop.app.weightEntryFeature.allEntries()).map(\.kilograms) == [80])
    }

    @Test func deleteAllDataKeepsASnapshotFirst() async throws {
        defer { temp.remove() }
        let g = graph()
        try await g.app.weightEntryFeature.record(kilograms: 80)
        let copy = try #require(try await g.app.backupFeature.deleteAllData())
        #expect((try await g.app.weightEntryFeature.allEntries()).isEmpty)
        let plan = try await g.app.backupFeature.prepareRestore(from: .beforeRestore(copy))
        _ = try await g.app.backupFeature.restore(plan)
        #expect((try await g.app.weightEntryFeature.allEntries()).count == 1)
    }

    @Test func aChangeIsBackedUpBeforeTheProcessEnds() async throws {
        defer { temp.remove() }
        let g = graph()
        g.app.applicationDidFinishLaunching()
        try await g.app.weightEntryFeature.record(kilograms: 80)
        await g.app.applicationWillTerminate()
        #expect(try weights(in: backups(g).appendingPathComponent("Latest.json")) == 1)
    }
}
