import Foundation
import Storage
import Testing
@testable import Sync

/// What a sync folder can hold that Trend did not write, or wrote only in
/// part: each is passed over with a warning, retried later, never half
/// applied, and nothing is written outside this installation's own folder.
/// And the rest of §8 a person meets: a device that joins late, an undone
/// sync, two habits of one name, device-local settings.
@Suite("Sync folder")
struct SyncFolderTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("trend-sync-folder-\(UUID().uuidString)")
    let minute = 60_000
    let start = 1_800_000_000_000

    /// Two devices whose copies of the sync folder are one folder (as after Syncthing has delivered everything).
    func pair(_ seed: Int = 1) throws -> (SimulatedDevice, SimulatedDevice, URL) {
        let shared = root.appendingPathComponent("shared")
        let a = try SimulatedDevice(name: "laptop", seed: seed, root: root, skewMs: 0)
        let b = try SimulatedDevice(name: "desktop", seed: seed, root: root, skewMs: 0)
        try FileManager.default.removeItem(at: a.folder)
        try FileManager.default.removeItem(at: b.folder)
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: a.folder, withDestinationURL: shared)
        try FileManager.default.createSymbolicLink(at: b.folder, withDestinationURL: shared)
        return (a, b, shared)
    }

    /// Every file below `folder`, relative to it.
    func files(in folder: URL) -> Set<String> {
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        var found = Set<String>()
        while let path = enumerator?.nextObject() as? String { found.insert(path) }
        return found
    }

    @Test func aWeighInAndAnEditComeAcrossAndTheLaterEditWins() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let (a, b, _) = try pair()
        try a.weigh(id: "w1", kilograms: 82.4, at: start)
        try await a.sync(at: start)
        let report = try await b.sync(at: start + minute)
        #expect(report.received == 1)
        #expect(report.from == ["laptop"])
        try b.edit(id: "w1", kilograms: 82.8, note: nil, at: start + 3 * minute)
        try a.edit(id: "w1", kilograms: 82.6, note: nil, at: start + 2 * minute)
        try await a.sync(at: start + 4 * minute)
        try await b.sync(at: start + 4 * minute)
        try await a.sync(at: start + 5 * minute)
        #expect(try a.visible() == b.visible())
        #expect(try a.visible().contains("w w1 1800000000.0 82.8 -"))
        // One entry per sync, naming the device.
        let history = try b.store.journalChanges(limit: 10).map(\.summary)
        #expect(history.contains("sync: 1 change from laptop"))
    }

    /// Issue 59, item 2: `undo` takes back this device's own command, not the sync that came after it (the laptop's
    /// weigh-in merged at launch stays); the undo travels as the desktop's own delete, and a sync alone leaves
    /// nothing to undo.
    @Test func undoAfterASyncTakesBackThisDevicesOwnChangeAndTheUndoTravels() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let (a, b, _) = try pair()
        try a.weigh(id: "w1", kilograms: 82.4, at: start)
        try await a.sync(at: start)
        try b.weigh(id: "w2", kilograms: 83.0, at: start + minute)
        try await b.sync(at: start + 2 * minute)
        #expect(try b.visible().contains { $0.hasPrefix("w w1 ") })
        let undone = try b.store.undoLatestChange()
        #expect(undone.action == "weigh", "\(undone)")
        #expect(try b.visible().contains { $0.hasPrefix("w w1 ") }, "the laptop's weigh-in, merged by the sync, stays")
        #expect(try !b.visible().contains { $0.hasPrefix("w w2 ") })
        #expect(throws: JournalError.nothingToUndo) { try b.store.undoLatestChange() }
        try await b.sync(at: start + 3 * minute)
        try await a.sync(at: start + 4 * minute)
        #expect(try a.visible() == b.visible())
        #expect(try !a.visible().contains { $0.hasPrefix("w w2 ") }, "the undo travels as the desktop's own delete")
        // The sync that came between is still in the history, and a redo brings the weigh-in back.
        #expect(try b.store.journalChanges(limit: 10).contains { $0.summary == "sync: 1 change from laptop" })
        _ = try b.store.redoLatestChange()
        #expect(try b.visible().contains { $0.hasPrefix("w w2 ") })
    }

    @Test func aDeviceThatJoinsLateStartsFromACheckpointOnceTheSegmentsAreGone() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let shared = root.appendingPathComponent("shared")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        let a = try SimulatedDevice(name: "laptop", seed: 2, root: root, skewMs: 0, checkpointEvery: 5)
        let b = try SimulatedDevice(name: "desktop", seed: 2, root: root, skewMs: 0)
        for device in [a, b] {
            try FileManager.default.removeItem(at: device.folder)
            try FileManager.default.createSymbolicLink(at: device.folder, withDestinationURL: shared)
        }
        try a.addHabit(id: "h1", name: "Water", at: start)
        for index in 0..<8 {
            try a.weigh(id: "w\(index)", kilograms: 80 + Double(index) / 10, at: start + index * minute)
            try a.mark(habit: "h1", day: 20_000, amount: 1, adding: true, at: start + index * minute)
            try await a.sync(at: start + index * minute)
        }
        try a.deleteWeighIn(id: "w3", at: start + 20 * minute)
        try await a.sync(at: start + 20 * minute)
        let own = shared.appendingPathComponent("trend/\(a.id)")
        let names = try FileManager.default.contentsOfDirectory(atPath: own.path)
        #expect(names.contains { $0.hasPrefix("checkpoint-") })
        // No other device had read them, so the segments stay; remove the old ones as a pruning peer set would.
        for name in names where !name.hasPrefix("checkpoint-") && name != "\(names.count)-\(names.count).jsonl" {
            if let range = SyncSegment.range(ofName: name), !range.checkpoint, range.last < 14 {
                try FileManager.default.removeItem(at: own.appendingPathComponent(name))
            }
        }
        try await b.sync(at: start + 30 * minute)
        #expect(try b.visible() == a.visible())
        #expect(try b.visible().contains("r h1 20000 value 8.0"))
    }

    @Test func segmentsTrendDidNotWriteWholeArePassedOverAndRetried() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let (a, b, shared) = try pair(3)
        try a.weigh(id: "w1", kilograms: 82.4, at: start)
        try await a.sync(at: start)
        let own = shared.appendingPathComponent("trend/\(a.id)")
        let segment = own.appendingPathComponent("1-1.jsonl")
        let whole = try Data(contentsOf: segment)
        let manager = FileManager.default

        // Cut short, as a copy still arriving.
        try whole.prefix(whole.count - 10).write(to: segment)
        var report = try await b.sync(at: start + minute)
        #expect(report.received == 0)
        #expect(report.problems.contains { $0.contains("cut short") })
        // Signed with another installation's id.
        try Data(String(decoding: whole, as: UTF8.self).replacingOccurrences(of: a.id, with: "someone-else").utf8).write(to: segment)
        report = try await b.sync(at: start + minute)
        #expect(report.received == 0)
        #expect(report.problems.contains { $0.contains("not the folder's") })
        // A line that is not a change, its signature kept: the bytes no longer match it.
        let parts = String(decoding: whole, as: UTF8.self).split(separator: "\n")
        try Data((parts[0] + "\n{\"t\":1}\n" + parts[2] + "\n").utf8).write(to: segment)
        report = try await b.sync(at: start + minute)
        #expect(report.received == 0)
        #expect(report.problems.contains { $0.contains("does not match its signature") })
        // Its signature line gone: the file is not whole.
        try Data((parts[0] + "\n" + parts[1] + "\n").utf8).write(to: segment)
        report = try await b.sync(at: start + minute)
        #expect(report.received == 0)
        #expect(report.problems.contains { $0.contains("cut short") })
        // A FIFO and a link in its place: never opened, never followed.
        try manager.removeItem(at: segment)
        #expect(mkfifo(segment.path, 0o600) == 0)
        report = try await b.sync(at: start + minute)
        #expect(report.problems.contains { $0.contains("not a regular file") })
        try manager.removeItem(at: segment)
        let elsewhere = root.appendingPathComponent("elsewhere.jsonl")
        try whole.write(to: elsewhere)
        try manager.createSymbolicLink(at: segment, withDestinationURL: elsewhere)
        report = try await b.sync(at: start + minute)
        #expect(report.problems.contains { $0.contains("symbolic link") })
        #expect(try !b.visible().contains { $0.hasPrefix("w w1 ") }, "nothing was applied from any of them")
        // Whole again: it is read at the next sync.
        try manager.removeItem(at: segment)
        try whole.write(to: segment)
        report = try await b.sync(at: start + 2 * minute)
        #expect(report.received == 1)
        #expect(report.problems.isEmpty)
    }

    @Test func aHostileDeviceCannotChangeDeviceLocalSettingsNorWriteOutsideItsFolder() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let (a, b, shared) = try pair(4)
        try b.setSetting("syncFolder", "/home/desktop/Sync", at: start)
        try await b.sync(at: start)
        let before = files(in: root.appendingPathComponent("shared")).filter { !$0.hasPrefix("trend/\(b.id)") }
        // Lines a hostile device wrote by hand into its own folder.
        let hostile = shared.appendingPathComponent("trend/mallory")
        try FileManager.default.createDirectory(at: hostile, withIntermediateDirectories: true)
        let lines = [
            #"{"trend-sync":1,"installation":"mallory","device":"../../etc","first":1,"last":6,"count":6,"at":1800000000000}"#,
            #"{"t":"settings","k0":"syncFolder","ms":1800000000000,"n":0,"o":"mallory","op":"set","c.key":"syncFolder","c.value":"/tmp/evil"}"#,
            #"{"t":"settings","k0":"deviceName","ms":1800000000000,"n":1,"o":"mallory","op":"set","c.key":"deviceName","c.value":"pwned"}"#,
            #"{"t":"weight_entries","k0":"w9","ms":1800000000000,"n":2,"o":"mallory","op":"set","c.id":"w9","c.instant":1800000000,"c.kilograms":"heavy"}"#,
            #"{"t":"weight_entries","k0":"w8","ms":1800000000000,"n":3,"o":"mallory","op":"set","c.id":"w8","c.instant":1800000000,"c.kilograms":9000.0}"#,
            #"{"t":"sqlite_master","k0":"x","ms":1800000000000,"n":4,"o":"mallory","op":"del"}"#,
            #"{"t":"weight_entries","k0":"w7","ms":1800000000000,"n":5,"o":"mallory","op":"set","c.id":"w7","c.instant":1800000000,"c.kilograms":70.5}"#,
        ]
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: hostile.appendingPathComponent("1-6.jsonl"))
        let report = try await b.sync(at: start + minute)
        #expect(report.received == 1, "only the one valid weigh-in: \(report)")
        #expect(report.problems.count == 4, "\(report.problems)")
        let folder = try b.store.read { try $0.scalarText("SELECT value FROM settings WHERE key = 'syncFolder'") }
        #expect(folder == "/home/desktop/Sync")
        #expect(try b.visible().contains("w w7 1800000000.0 70.5 -"))
        // The desktop wrote only in its own folder.
        let after = files(in: root.appendingPathComponent("shared")).filter { !$0.hasPrefix("trend/\(b.id)") && !$0.hasPrefix("trend/mallory") }
        #expect(after == before)
        _ = a
    }

    /// A first sync, or one after the journal has forgotten changes not yet sent, reads every row:
    /// only those that differ from what sync last left are sent, so an old row never takes a new clock.
    @Test func aSyncThatReadsEveryRowSendsOnlyWhatChanged() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let (a, b, _) = try pair(6)
        try a.weigh(id: "w1", kilograms: 82.4, at: start)
        try a.weigh(id: "w2", kilograms: 82.0, at: start)
        try await a.sync(at: start)
        try await b.sync(at: start + minute)
        // The laptop's journal is as if it had forgotten; one row changes meanwhile, and the desktop edits the other later.
        try a.store.write { try $0.run("DELETE FROM meta WHERE key = 'sync.stamped'") }
        try a.edit(id: "w2", kilograms: 81.5, note: nil, at: start + 2 * minute)
        try b.edit(id: "w1", kilograms: 82.9, note: nil, at: start + 3 * minute)
        try await b.sync(at: start + 3 * minute)
        let report = try await a.sync(at: start + 4 * minute)
        #expect(report.sent == 1, "only the edited row goes out: \(report)")
        try await b.sync(at: start + 5 * minute)
        #expect(try a.visible() == b.visible())
        #expect(try a.visible().contains("w w1 1800000000.0 82.9 -"), "the desktop's later edit stands")
        #expect(try a.visible().contains("w w2 1800000000.0 81.5 -"))
    }

    @Test func twoDifferentHabitsOfOneNameMadeOnTwoDevicesAreBothKeptTheLaterRenamed() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let (a, b, _) = try pair(5)
        // Both have synced before (the first sync sends every row at its own moment).
        try await a.sync(at: start - minute)
        try await b.sync(at: start - minute)
        try a.addHabit(id: "ha", name: "Read", at: start)
        try b.addHabit(id: "hb", name: "Read", schedule: "weekdays:mon,wed,fri", at: start + minute)
        try await a.sync(at: start + 2 * minute)
        try await b.sync(at: start + 2 * minute)
        try await a.sync(at: start + 3 * minute)
        try await b.sync(at: start + 3 * minute)
        let shown = (try a.visible(), try b.visible())
        #expect(shown.0 == shown.1, "\(shown)")
        #expect(shown.0.filter { $0.hasPrefix("h ") } == ["h ha Read", "h hb Read (2)"])
    }

    /// The same habit (name, schedule, kind, target, unit) added on the laptop and the desktop while apart, each
    /// marking days, one of them the same day: one habit on both, with the days of both, and `sync` says so (issue 47,
    /// item 9). Which one stays does not depend on which device hears of the other first.
    @Test(arguments: [("ha", "hb"), ("hz", "hb")])
    func theSameHabitAddedOnTwoDevicesBecomesOneWithTheDaysOfBoth(ids: (String, String)) async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let (a, b, _) = try pair(5)
        try await a.sync(at: start - minute)
        try await b.sync(at: start - minute)
        try a.addHabit(id: ids.0, name: "Water", at: start)
        try a.mark(habit: ids.0, day: 20_000, amount: 3, adding: true, at: start)
        try a.mark(habit: ids.0, day: 20_001, amount: 5, adding: true, at: start)
        try b.addHabit(id: ids.1, name: "water", at: start + minute)
        try b.mark(habit: ids.1, day: 20_001, amount: 6, adding: true, at: start + minute)
        try b.mark(habit: ids.1, day: 20_002, amount: 2, adding: true, at: start + minute)
        try await a.sync(at: start + 2 * minute)
        let met = try await b.sync(at: start + 2 * minute)
        #expect(met.notes.contains { $0.contains("was added on two devices while they were apart; it is one now") }, "\(met.notes)")
        for step in 3...5 {
            try await a.sync(at: start + step * minute)
            try await b.sync(at: start + step * minute)
        }
        let shown = (try a.visible(), try b.visible())
        #expect(shown.0 == shown.1, "\(shown)")
        let kept = min(ids.0, ids.1)
        let name = kept == ids.0 ? "Water" : "water"
        #expect(shown.0.filter { $0.hasPrefix("h ") || $0.hasPrefix("r ") } == [
            "h \(kept) \(name)",
            "r \(kept) 20000 value 3.0", "r \(kept) 20001 value 6.0", "r \(kept) 20002 value 2.0",
        ])
        // Once one, a mark on either device is a mark of the one habit everywhere.
        try b.mark(habit: kept, day: 20_002, amount: 1, adding: true, at: start + 6 * minute)
        try a.mark(habit: kept, day: 20_002, amount: 1, adding: true, at: start + 6 * minute)
        try await a.sync(at: start + 7 * minute)
        try await b.sync(at: start + 7 * minute)
        try await a.sync(at: start + 8 * minute)
        #expect(try a.visible() == b.visible())
        #expect(try a.visible().contains("r \(kept) 20002 value 4.0"))
    }

    /// A third device that had the absorbed habit, and marked a day of it while apart, loses no mark: it makes the two
    /// one as the others did, and the day comes to the habit that stays.
    @Test func aThirdDeviceThatMarkedTheAbsorbedHabitKeepsItsMark() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let (a, b, shared) = try pair(5)
        let c = try SimulatedDevice(name: "phone", seed: 5, root: root, skewMs: 0)
        try FileManager.default.removeItem(at: c.folder)
        try FileManager.default.createSymbolicLink(at: c.folder, withDestinationURL: shared)
        for device in [a, b, c] { try await device.sync(at: start - minute) }
        try b.addHabit(id: "hb", name: "Stretch", at: start)
        try await b.sync(at: start + minute)
        try await c.sync(at: start + minute)
        try c.mark(habit: "hb", day: 20_003, amount: 1, adding: true, at: start + 2 * minute)
        try a.addHabit(id: "ha", name: "Stretch", at: start + 3 * minute)
        try await a.sync(at: start + 4 * minute)
        try await b.sync(at: start + 5 * minute)
        try await c.sync(at: start + 6 * minute)
        for step in 7...9 { for device in [a, b, c] { try await device.sync(at: start + step * minute) } }
        let shown = try [a, b, c].map { try $0.visible() }
        #expect(shown[0] == shown[1] && shown[1] == shown[2], "\(shown)")
        #expect(shown[0].filter { $0.hasPrefix("h ") || $0.hasPrefix("r ") } == ["h ha Stretch", "r ha 20003 value 1.0"])
    }

    /// Two readings a device took minutes apart are no double typed on two devices: the other device says nothing of
    /// them. Readings typed on both are named, each, up to a screenful, and the rest counted.
    @Test func likelyDoublesAreReadingsOfTwoDevicesAndASyncSaysAScreenfulOfThem() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let (a, b, _) = try pair(7)
        for n in 0..<30 { try a.weigh(id: "a\(n)", kilograms: 80, at: start + n * minute) }
        try await a.sync(at: start + 31 * minute)
        let alone = try await b.sync(at: start + 31 * minute)
        #expect(alone.received == 30)
        #expect(alone.notes.isEmpty, "\(alone.notes)")
        for n in 0..<30 { try a.weigh(id: "c\(n)", kilograms: 90, at: start + 40 * minute + n * 10 * minute) }
        for n in 0..<30 { try b.weigh(id: "d\(n)", kilograms: 90, at: start + 41 * minute + n * 10 * minute) }
        try await a.sync(at: start + 400 * minute)
        let both = try await b.sync(at: start + 400 * minute)
        #expect(both.notes.count == SyncLedger.Applied.notesShown + 1, "\(both.notes)")
        #expect(both.notes.first?.contains("is likely a double of the weigh-in of") == true, "\(both.notes)")
        #expect(both.notes.last == "and 10 more notes like these")
    }

    /// Three devices each add a habit of one name while apart: two of them the same habit (one schedule), the third a
    /// different one. The two become one, with the days of both, the different one keeps its own (renamed), and
    /// every device ends with the same two habits, whichever order the files come in.
    @Test(arguments: [0, 1, 2])
    func theSameHabitTwiceAndADifferentOneOfTheSameNameOnThreeDevices(first: Int) async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let (a, b, shared) = try pair(9)
        let c = try SimulatedDevice(name: "phone", seed: 9, root: root, skewMs: 0)
        try FileManager.default.removeItem(at: c.folder)
        try FileManager.default.createSymbolicLink(at: c.folder, withDestinationURL: shared)
        let devices = [a, b, c]
        for device in devices { try await device.sync(at: start - minute) }
        try a.addHabit(id: "h2", name: "Read", at: start)
        try a.mark(habit: "h2", day: 20_000, amount: 1, adding: true, at: start)
        try b.addHabit(id: "h1", name: "Read", at: start + minute)
        try b.mark(habit: "h1", day: 20_001, amount: 1, adding: true, at: start + minute)
        try c.addHabit(id: "h0", name: "Read", schedule: "weekdays:mon,wed,fri", at: start + 2 * minute)
        try c.mark(habit: "h0", day: 20_002, amount: 1, adding: true, at: start + 2 * minute)
        let order = Array(devices[first...] + devices[..<first])
        for step in 3...8 { for device in order { try await device.sync(at: start + step * minute) } }
        let shown = try devices.map { try $0.visible() }
        #expect(shown[0] == shown[1] && shown[1] == shown[2], "\(shown)")
        let habits = shown[0].filter { $0.hasPrefix("h ") }
        #expect(habits.count == 2, "\(habits)")
        #expect(habits.contains("h h1 Read") || habits.contains("h h1 Read (2)"), "the same habit twice is one, kept under the first id: \(habits)")
        #expect(habits.contains { $0.hasPrefix("h h0 ") }, "\(habits)")
        #expect(shown[0].filter { $0.hasPrefix("r ") } == ["r h0 20002 value 1.0", "r h1 20000 value 1.0", "r h1 20001 value 1.0"])
    }
}
