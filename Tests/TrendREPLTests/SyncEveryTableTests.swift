import AppCore
import Foundation
import Storage
import Testing
import TestSupport

/// Issue 59, item 5: every table that travels travels. One device changes a row of each (weigh-ins, measurements,
/// habits, their days, their reminder times, the reminders sent, the portable settings, the tip deck), and the
/// other applies every one of them, none "refused by the database".
@Suite struct SyncEveryTableTests {
    @Test func aChangeToEveryTableThatTravelsAppliesOnThePeer() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let sync = temp.url.appendingPathComponent("Sync")
        try FileManager.default.createDirectory(at: sync, withIntermediateDirectories: true)
        let laptop = temp.url.appendingPathComponent("laptop"), desktop = temp.url.appendingPathComponent("desktop")
        _ = try runTrend(["--data-dir", desktop.path, "-c", "set sync-folder \(sync.path)", "-c", "set device-name desktop"])
        // A reminder is recorded as sent once a desktop took it: a session bus with a notification server.
        let bus = try SessionBus()
        defer { bus.stop() }
        try joinSync(laptop.path, from: desktop.path, folder: sync)
        let made = try runTrend(["--data-dir", laptop.path, "-c", "set sync-folder \(sync.path)", "-c", "set device-name laptop",
                                 "-c", "weigh 82.4", "-c", "measure waist 91 cm", "-c", "goal 75", "-c", "tip",
                                 "-c", "habit add Read", "-c", "habit remind Read at 00:01", "-c", "remind", "-c", "habit done Read",
                                 "-c", "sync now"], environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        #expect(made.status == 0, "\(made.standardError)")
        let received = try runTrend(["--data-dir", desktop.path, "-c", "sync now"])
        #expect(received.status == 0, "\(received.standardError)")
        #expect(!received.standardOutput.contains("refused"), "\(received.standardOutput)")
        let tables = DatabaseSchema.trend.synced.values.map(\.table.name).sorted()
        let sent = try rowCounts(of: tables, in: laptop)
        for table in tables { #expect(sent[table, default: 0] > 0, "the laptop changed no row of \(table): add one to this test") }
        #expect(try rowCounts(of: tables, in: desktop) == sent)
    }

    /// How many rows each table holds in the data directory `directory`.
    func rowCounts(of tables: [String], in directory: URL) throws -> [String: Int] {
        let store = LocalDataStore(directory: directory, schema: .trend)
        return try store.read { connection in
            var counts: [String: Int] = [:]
            for table in tables { counts[table] = try connection.scalarInt("SELECT count(*) FROM \(table)") ?? 0 }
            return counts
        }
    }
}
