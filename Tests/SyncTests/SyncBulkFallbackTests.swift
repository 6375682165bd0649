import Foundation
import Storage
import Testing
@testable import Sync
import AppCore

/// A batch the database refuses in bulk is rolled back whole and merged one change at a time: its inserts
/// are `OR FAIL`, which leaves the rows before the failing one in place, so the batch's savepoint is what
/// takes them back (with the insert triggers it paused).
@Suite struct SyncBulkFallbackTests {
    /// A weigh-in another device sends, as its segment line would carry it.
    func change(_ index: Int, kilograms: Double) -> SyncChange {
        let id = String(format: "w%05d", index)
        let image = RowImage(["id": .text(id), "instant": .double(1_780_000_000 + Double(index) * 3_600), "kilograms": .double(kilograms),
                              "note": .null, "body_fat": .null, "typed_unit": .null])
        return SyncChange(table: "weight_entries", key: [.text(id)], clock: SyncClock(ms: 1_790_000_000_000 + index, counter: 0, origin: "there"),
                          operation: .set(image))
    }

    @Test(arguments: [50, 2_000])  // 2,000 fresh rows pause the table's insert triggers; 50 do not.
    func aBatchTheDatabaseRefusesIsMergedOneChangeAtATime(count: Int) throws {
        let store = LocalDataStore.inMemory(schema: .trend)
        let ledger = SyncLedger(installation: "here", tables: store.schema.synced)
        let table = try #require(ledger.byName["weight_entries"])
        let triggers = "SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'weight_entries'"
        let clash = count * 3 / 4
        let (before, notes, written) = try store.write { connection -> (Int, [String], Set<Int>??) in
            let before = try connection.scalarInt(triggers) ?? 0
            // A row this device holds without a version (none of its rows has one): the batch's insert of the same id fails
            // three quarters of the way through.
            try connection.run("INSERT INTO weight_entries(id, instant, kilograms) VALUES(?, 1780000000, 70)", [.text(String(format: "w%05d", clash))])
            var applied = SyncLedger.Applied()
            try SyncWorker.apply((0..<count).map { change($0, kilograms: 80 + Double($0 % 10) / 10) }, ready: [], device: "laptop",
                                 ledger: ledger, in: connection, applied: &applied)
            return (before, applied.notes, ledger.prepared.written[table.table.code])
        }
        #expect(notes.isEmpty, "\(notes)")
        // Merged one by one, the table's versions are no longer only those bulk merges wrote: every key is looked up from then on.
        #expect(written == .some(nil))
        let (rows, versions, clashing, after) = try store.read { connection in
            (try connection.scalarInt("SELECT count(*) FROM weight_entries") ?? 0,
             try connection.scalarInt("SELECT count(*) FROM sync_rows WHERE table_code = ?", [.int(table.table.code)]) ?? 0,
             try connection.scalarText("SELECT CAST(kilograms AS TEXT) FROM weight_entries WHERE id = ?", [.text(String(format: "w%05d", clash))]),
             try connection.scalarInt(triggers) ?? 0)
        }
        #expect(rows == count && versions == count)
        // The row held here had no version: the other device's change is the newest it knows.
        #expect(clashing.flatMap(Double.init) == 80 + Double(clash % 10) / 10)
        #expect(before > 0 && after == before, "the insert triggers paused for the bulk insert are back")
    }
}
