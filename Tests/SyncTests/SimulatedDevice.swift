import AppCore
import Foundation
import Storage
@testable import Sync
import Settings
import Vocabulary

/// One installation in a simulated sync (a real in-memory database with
/// Trend's schema, its own copy of the sync folder, its own wrong clock),
/// changed the way the Features change it: each write one journaled change.
final class SimulatedDevice {
    let name: String
    let store: LocalDataStore
    let worker: SyncWorker
    /// This device's copy of the sync folder, which the simulated file-sync engine fills.
    let folder: URL
    let skewMs: Int
    private(set) var id = ""

    convenience init(name: String, seed: Int, root: URL, skewMs: Int, checkpointEvery: Int = 5_000, changesPerMerge: Int = SyncWorker.changesPerMerge) throws {
        try self.init(name: name, store: LocalDataStore.inMemory(schema: .trend), root: root, skewMs: skewMs, checkpointEvery: checkpointEvery,
                      changesPerMerge: changesPerMerge)
        // A fixed id (as `installationID()` would make one, at random): a schedule replays the same way every run.
        try store.write { try $0.run("INSERT INTO meta(key, value) VALUES('installationID', ?)", [.text("\(name)-\(seed)")]) }
        id = try store.installationID()
    }

    private init(name: String, store: LocalDataStore, root: URL, skewMs: Int, checkpointEvery: Int = 5_000,
                 changesPerMerge: Int = SyncWorker.changesPerMerge) throws {
        self.name = name
        self.store = store
        worker = SyncWorker(store: store, checkpointEvery: checkpointEvery, changesPerMerge: changesPerMerge)
        folder = root.appendingPathComponent(name)
        self.skewMs = skewMs
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        id = try store.read { try $0.storedInstallationID() } ?? ""
    }

    /// Devices named `names` whose copies of the sync folder are one folder, `<root>/shared` (as after the
    /// file-sync engine has delivered everything).
    static func sharing(_ names: [String], seed: Int, root: URL) throws -> [SimulatedDevice] {
        let shared = root.appendingPathComponent("shared")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        return try names.map { name in
            let device = try SimulatedDevice(name: name, seed: seed, root: root, skewMs: 0)
            try FileManager.default.removeItem(at: device.folder)
            try FileManager.default.createSymbolicLink(at: device.folder, withDestinationURL: shared)
            return device
        }
    }

    /// A copy of this device's data directory (`cp -a` to a new machine): the same rows, the same id and key.
    func copied(as name: String, root: URL) throws -> SimulatedDevice {
        let file = root.appendingPathComponent("\(name)-data/trend.sqlite")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try store.read { try $0.execute("VACUUM INTO '\(file.path)'") }
        return try SimulatedDevice(name: name, store: LocalDataStore(location: .file(file), schema: .trend), root: root, skewMs: skewMs)
    }

    /// This installation's id as its database now says (a copy that found itself takes a new one).
    var currentID: String { (try? store.read { try $0.storedInstallationID() }) ?? nil ?? id }

    func clock(_ worldMs: Int) -> Date { Date(timeIntervalSince1970: Double(worldMs + skewMs) / 1000) }

    @discardableResult
    func sync(at worldMs: Int) async throws -> SyncReport {
        try await worker.run(folder: folder, device: name, now: clock(worldMs))
    }

    func change(_ action: String, at worldMs: Int, _ body: (SQLiteConnection) throws -> Void) throws {
        try store.write(journal: JournalEntry(action: action, summary: action, at: clock(worldMs)), body)
    }

    func weigh(id: String, kilograms: Double, at worldMs: Int) throws {
        try change("weigh", at: worldMs) {
            try $0.run("INSERT INTO weight_entries(id, instant, kilograms) VALUES(?, ?, ?)",
                       [.text(id), .double(Double(worldMs / 1000)), .double(kilograms)])
        }
    }

    func edit(id: String, kilograms: Double, note: String?, at worldMs: Int) throws {
        try change("edit", at: worldMs) {
            try $0.run("UPDATE weight_entries SET kilograms = ?, note = ? WHERE id = ?", [.double(kilograms), .optional(note), .text(id)])
        }
    }

    /// `edit ID WEIGHT`: the weight alone.
    func editKilograms(id: String, _ kilograms: Double, at worldMs: Int) throws {
        try change("edit", at: worldMs) { try $0.run("UPDATE weight_entries SET kilograms = ? WHERE id = ?", [.double(kilograms), .text(id)]) }
    }

    /// `edit ID note TEXT`: the note alone.
    func editNote(id: String, _ note: String, at worldMs: Int) throws {
        try change("edit", at: worldMs) { try $0.run("UPDATE weight_entries SET note = ? WHERE id = ?", [.text(note), .text(id)]) }
    }

    func deleteWeighIn(id: String, at worldMs: Int) throws {
        try change("delete", at: worldMs) { try $0.run("DELETE FROM weight_entries WHERE id = ?", [.text(id)]) }
    }

    func addHabit(id: String, name: String, schedule: String = "daily", at worldMs: Int) throws {
        try change("habit", at: worldMs) {
            try $0.run("""
                INSERT INTO habits(id, name, name_key, schedule, kind, target, created_day, archived, position, unit)
                VALUES(?, ?, ?, ?, 'atLeast', 8, 20000, 0, 1, '')
                """, [.text(id), .text(name), .text(name.lowercased()), .text(schedule)])
        }
    }

    func renameHabit(id: String, to name: String, at worldMs: Int) throws {
        try change("habit", at: worldMs) {
            try $0.run("UPDATE habits SET name = ?, name_key = ? WHERE id = ?", [.text(name), .text(name.lowercased()), .text(id)])
        }
    }

    func deleteHabit(id: String, at worldMs: Int) throws {
        try change("habit", at: worldMs) { try $0.run("DELETE FROM habits WHERE id = ?", [.text(id)]) }
    }

    /// `habit done H N` (absolute) or, with `adding`, `habit done H +N`, as `LocalHabitsRepository.setMark` writes them.
    func mark(habit: String, day: Int, amount: Double, adding: Bool, at worldMs: Int) throws {
        try change("habit", at: worldMs) { connection in
            guard try connection.scalarInt("SELECT count(*) FROM habits WHERE id = ?", [.text(habit)]) == 1 else { return }
            let held = try connection.query("SELECT status, value FROM habit_records WHERE habit_id = ? AND day = ?",
                                            [.text(habit), .int(day)]) { ($0.text(0), $0.optionalDouble(1)) }.first
            let adds = adding && (held == nil || held?.0 == "value")
            let value = adds ? (held?.1 ?? 0) + amount : amount
            try connection.run("""
                INSERT INTO habit_records(habit_id, day, status, value) VALUES(?, ?, 'value', ?)
                ON CONFLICT(habit_id, day) DO UPDATE SET status = excluded.status, value = excluded.value
                """, [.text(habit), .int(day), .double(value)])
            if adds { try connection.noteSyncAddition(table: 2, key: [.text(habit), .int(day)], amount: amount) }
        }
    }

    func clearMark(habit: String, day: Int, at worldMs: Int) throws {
        try change("habit", at: worldMs) {
            try $0.run("DELETE FROM habit_records WHERE habit_id = ? AND day = ?", [.text(habit), .int(day)])
        }
    }

    func setSetting(_ key: String, _ value: String, at worldMs: Int) throws {
        try change("setting", at: worldMs) {
            try $0.run("INSERT INTO settings(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                       [.text(key), .text(value)])
        }
    }

    func undo() throws { _ = try store.undoLatestChange() }

    /// What a person sees: every row of the synced tables, as text, sorted.
    func visible() throws -> [String] {
        try store.read { connection in
            var rows = try connection.query("SELECT id, instant, kilograms, ifnull(note, '-') FROM weight_entries") {
                "w \($0.text(0)) \($0.double(1)) \($0.double(2)) \($0.text(3))"
            }
            rows += try connection.query("SELECT id, name FROM habits") { "h \($0.text(0)) \($0.text(1))" }
            rows += try connection.query("SELECT habit_id, day, status, ifnull(value, -1) FROM habit_records") {
                "r \($0.text(0)) \($0.int(1)) \($0.text(2)) \($0.double(3))"
            }
            rows += try connection.query("SELECT key, value FROM settings") { "s \($0.text(0)) \($0.text(1))" }
                .filter { row in SettingsTable.portableKeys.contains { row.hasPrefix("s \($0) ") } }
            return rows.sorted()
        }
    }
}

/// A file-sync engine between the devices' copies of the sync folder, as
/// Syncthing behaves to Trend: files arrive late, in any order, more than
/// once, and a copy may be seen half-written under its own name or as a
/// hidden temporary before it is whole. Each device's own folder is the source of its files.
struct FileSyncEngine {
    var random: SplitMix64

    /// Every file each device ever wrote into its own folder, by path below the sync root (a pruned one is kept here).
    private(set) var written: [String: Data] = [:]

    mutating func roll(_ count: Int) -> Int { Int(random.next() % UInt64(max(1, count))) }
    mutating func chance(_ percent: Int) -> Bool { roll(100) < percent }

    /// Keeps every file `device` has written into its own folder so far, for the reference merge.
    mutating func collect(_ device: SimulatedDevice) throws {
        let own = device.folder.appendingPathComponent("trend/\(device.id)")
        for name in (try? FileManager.default.contentsOfDirectory(atPath: own.path)) ?? [] where !name.hasPrefix(".") {
            written["\(device.id)/\(name)"] = try Data(contentsOf: own.appendingPathComponent(name))
        }
    }

    /// Copies some of `from`'s own files into `to`'s copy; with `everything`, all of them, whole.
    mutating func deliver(from source: SimulatedDevice, to target: SimulatedDevice, everything: Bool) throws {
        let manager = FileManager.default
        let own = source.folder.appendingPathComponent("trend/\(source.id)")
        let names = (try? manager.contentsOfDirectory(atPath: own.path))?.filter { !$0.hasPrefix(".") }.sorted() ?? []
        let copy = target.folder.appendingPathComponent("trend/\(source.id)")
        try manager.createDirectory(at: copy, withIntermediateDirectories: true)
        for name in names {
            let data = try Data(contentsOf: own.appendingPathComponent(name))
            guard everything || chance(50) else { continue }
            let destination = copy.appendingPathComponent(name)
            if !everything, chance(20), data.count > 2 {
                // Seen mid-copy: Syncthing's hidden temporary, or the file cut short under its own name.
                let cut = data.prefix(1 + roll(data.count - 1))
                if chance(50) {
                    try cut.write(to: copy.appendingPathComponent(".syncthing.\(name).tmp"))
                } else {
                    try cut.write(to: destination)
                }
                continue
            }
            try data.write(to: destination)
            try? manager.removeItem(at: copy.appendingPathComponent(".syncthing.\(name).tmp"))
        }
        // A file its owner removed (a pruned segment) goes from the copies too.
        for name in (try? manager.contentsOfDirectory(atPath: copy.path)) ?? [] where !name.hasPrefix(".") && !names.contains(name) {
            if everything || chance(50) { try manager.removeItem(at: copy.appendingPathComponent(name)) }
        }
    }
}
