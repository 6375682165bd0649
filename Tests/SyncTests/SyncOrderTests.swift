import Foundation
import Storage
@testable import Sync
import Testing

/// The changes of one moment go out in the order their rows were met (a large
/// import: its rows' order), not in a dictionary's: a device joining writes
/// them in that order, so a history imported in time order lands in time
/// order there, its pages and index entries one after another.
@Suite struct SyncOrderTests {
    /// At the first sync every row is read from its table; later, the rows a change touched from the journal.
    @Test(arguments: [true, false])
    func oneChangesRowsGoOutInTheOrderTheyWereMade(firstSync: Bool) async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("trend-sync-order-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let device = try SimulatedDevice(name: "laptop", seed: 3, root: root, skewMs: 0)
        let start = 1_800_000_000_000
        if !firstSync {
            try device.weigh(id: "zz-first", kilograms: 81, at: start - 5_000_000)
            try await device.sync(at: start - 4_000_000)
        }
        // Ids whose own order is neither the rows' order nor any dictionary's.
        let ids = (0..<600).map { String(format: "w%03d-%d", ($0 * 7_919) % 600, $0) }
        try device.change("import", at: start) { connection in
            for (index, id) in ids.enumerated() {
                try connection.run("INSERT INTO weight_entries(id, instant, kilograms) VALUES(?, ?, ?)",
                                   [.text(id), .double(Double(start / 1000 - 600 + index)), .double(80)])
            }
        }
        try await device.sync(at: start + 1_000)
        let own = device.folder.appendingPathComponent("trend/\(device.id)")
        let names = try FileManager.default.contentsOfDirectory(atPath: own.path).filter { !$0.hasPrefix("checkpoint-") }.sorted {
            (SyncSegment.range(ofName: $0)?.first ?? 0) < (SyncSegment.range(ofName: $1)?.first ?? 0)
        }
        var sent: [String] = []
        for name in names {
            let data = try Data(contentsOf: own.appendingPathComponent(name))
            let segment = try SyncSegment.parse(data, name: name, installation: device.id)
            sent += segment.changes.filter { $0.table == "weight_entries" }.compactMap { if case let .text(id) = $0.key[0] { id } else { nil } }
        }
        #expect(sent.filter { $0 != "zz-first" } == ids)
    }

    /// A device's settings that stay on it (its sync folder, its name) are never written to the sync folder, at the
    /// first sync, when every row of the settings table is sent, nor later; the portable ones are.
    @Test(arguments: [true, false])
    func settingsThatStayOnADeviceNeverReachTheSyncFolder(firstSync: Bool) async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("trend-sync-local-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let device = try SimulatedDevice(name: "laptop", seed: 5, root: root, skewMs: 0)
        let start = 1_800_000_000_000
        if !firstSync { try await device.sync(at: start - 4_000_000) }
        try device.setSetting("unit", "lb", at: start)
        try device.setSetting("syncFolder", "/home/someone/private/Sync", at: start + 1)
        try device.setSetting("deviceName", "someone's laptop", at: start + 2)
        try await device.sync(at: start + 1_000)
        let own = device.folder.appendingPathComponent("trend/\(device.id)")
        var written = ""
        for name in try FileManager.default.contentsOfDirectory(atPath: own.path) {
            written += try String(contentsOf: own.appendingPathComponent(name), encoding: .utf8)
        }
        #expect(written.contains(#""c.key":"unit""#))
        #expect(!written.contains("private/Sync") && !written.contains("someone's laptop"))
    }

    /// A checkpoint's lines go to the file as they are made, under a header that counts them first. When the lines
    /// made are not as many as counted (a kept `+N` another program garbled), no checkpoint is written, the sync
    /// goes on, and the next sync tries again; once the count holds, the checkpoint holds every row.
    @Test func aCheckpointWhoseLinesAreNotAsCountedIsLeftForTheNextSync() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("trend-sync-checkpoint-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let device = try SimulatedDevice(name: "laptop", seed: 6, root: root, skewMs: 0, checkpointEvery: 3)
        let start = 1_800_000_000_000
        for index in 0..<4 { try device.weigh(id: "w\(index)", kilograms: 80 + Double(index), at: start + index) }
        try device.store.write { connection in
            try connection.run("""
                INSERT INTO sync_adds(table_code, k0, k1, ms, counter, origin, amount, image)
                SELECT code, 'habit', 20000, 1, 0, 'elsewhere', 1, 'not a line' FROM (SELECT ? AS code)
                """, [.int(try #require(device.store.schema.synced.values.first { $0.additive != nil }).table.code)])
        }
        let own = device.folder.appendingPathComponent("trend/\(device.id)")
        func checkpoints() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: own.path).filter { $0.hasPrefix("checkpoint-") } }
        try await device.sync(at: start + 1_000)
        #expect(try checkpoints().isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: own.path).allSatisfy { !$0.hasPrefix(".") }, "no temporary left")
        try device.store.write { try $0.run("DELETE FROM sync_adds WHERE origin = 'elsewhere'") }
        try await device.sync(at: start + 2_000)
        let name = try #require(try checkpoints().first)
        let checkpoint = try SyncSegment.parse(try Data(contentsOf: own.appendingPathComponent(name)), name: name, installation: device.id)
        #expect(Set(checkpoint.changes.filter { $0.table == "weight_entries" }.map(\.key)) == Set((0..<4).map { [SQLValue.text("w\($0)")] }))
    }
}
