import Foundation
import Storage
import Testing
import TestSupport
import TextFormats
@testable import WeightLog
import Vocabulary

/// A snapshot writes each weigh-in's text straight from its row
/// (`WeightEntry.writeCanonical(_:row:)`), without making the entry. It must
/// write what the entry's way writes, byte for byte, for every row a table can
/// hold: snapshots are hashed, and a restore of identical content is known by
/// its hash.
@Suite struct CanonicalRowTests {
    @Test func aRowIsWrittenAsItsEntryIsWritten() throws {
        let store = LocalDataStore.inMemory()
        try store.write { connection in
            try connection.execute("""
                PRAGMA ignore_check_constraints = ON;
                INSERT INTO weight_entries (id, instant, kilograms, note, body_fat, typed_unit) VALUES
                  ('plain', 1700000000, 80.4, NULL, NULL, NULL),
                  ('fraction', 1700000000.123456789, 80.45, '', 21.5, 'lb'),
                  ('accents', 1700086400.5, 79.9, 'naïve café ✓ 🏃', NULL, 'st'),
                  ('escapes', 1700172800, 81, 'say "hi" \\ then' || char(10) || char(9) || char(1) || ' done', 19.25, 'kg'),
                  ('not utf-8', 1700259200, 82.1, CAST(X'6361fe66c3' AS TEXT), NULL, NULL),
                  ('nul inside', 1700345600, 82.2, CAST(X'61620063' AS TEXT), NULL, NULL),
                  ('unknown unit', 1700432000, 82.3, 'x', NULL, 'zz'),
                  ('number as note', 1700518400, 82.4, 42, NULL, NULL),
                  ('huge', 1e15, 499.987654321, NULL, 1e-7, NULL),
                  ('before 1970', -1234567.25, 60, NULL, NULL, NULL),
                  ('near 1970', 12345.678, 61, NULL, NULL, NULL),
                  ('', 1700604800, 70, NULL, NULL, NULL),
                  (printf('%.65c', 'x'), 1700604801, 70, NULL, NULL, NULL),
                  (printf('%.64c', 'é'), 1700604802, 70, printf('%.300c', 'é'), NULL, NULL),
                  ('long note', 1700604803, 70, printf('%.501c', 'n'), NULL, NULL),
                  ('light', 1700604804, 19.9, NULL, NULL, NULL),
                  ('lean', 1700604805, 70, NULL, 0.5, NULL);
                PRAGMA ignore_check_constraints = OFF;
                """)
        }
        let (direct, byEntry, count) = try store.read { connection in
            let statement = try connection.prepare(WeightTable.selectAll)
            var direct: [[UInt8]] = [], byEntry: [[UInt8]] = []
            while try statement.step() {
                var row = CanonicalJSON(), entry = CanonicalJSON(), copied = CanonicalJSON()
                WeightEntry.writeCanonical(&row, row: statement)
                WeightEntry.writeCanonical(&entry, WeightEntry.read(statement))
                // The same row copied out (`CopiedRows`, as a snapshot's writing thread reads it) writes the same.
                var copy = CopiedRows(columns: WeightField.cells, reservingRows: 1)
                copy.append(statement)
                copy.forEach { WeightEntry.writeCanonical(&copied, row: $0) }
                #expect(copied.bytes == row.bytes)
                direct.append(row.bytes)
                byEntry.append(entry.bytes)
            }
            return (direct, byEntry, direct.count)
        }
        #expect(count == 17)
        // A row's check, read part by part, says what the entry's check says, to the word.
        let verdicts = try store.read { connection in
            let statement = try connection.prepare(WeightTable.selectAll)
            var verdicts: [(row: String, entry: String)] = []
            var index = 0
            while try statement.step() {
                func verdict(_ check: () throws -> Void) -> String {
                    do { try check(); return "accepted" } catch { return "\(error)" }
                }
                var copy = CopiedRows(columns: WeightField.cells, reservingRows: 1)
                copy.append(statement)
                var copied = ""
                copy.forEach { row in copied = verdict { try WeightTable.check(row: row, index: index) } }
                verdicts.append((verdict { try WeightTable.check(row: statement, index: index) },
                                 verdict { try WeightTable.check(entryOf: statement, index: index) }))
                #expect(copied == verdicts.last?.row)
                index += 1
            }
            return verdicts
        }
        #expect(verdicts.count == 17)
        for verdict in verdicts { #expect(verdict.row == verdict.entry) }
        #expect(verdicts.filter { $0.row == "accepted" }.count == 11, "\(verdicts.map(\.row))")
        for (row, entry) in zip(direct, byEntry) {
            #expect(String(decoding: row, as: UTF8.self) == String(decoding: entry, as: UTF8.self))
            #expect(row == entry)
        }
    }

    /// The member as a snapshot writes it, unchecked (straight from the rows) and checked (through entries), is
    /// the same text, across batches (`,` between every two rows, none after the last).
    @Test func theMemberIsTheSameTextEitherWay() throws {
        let store = LocalDataStore.inMemory()
        try store.write { connection in
            for index in 0..<(WeightTable.snapshotBatch * 2 + 7) {
                try WeightTable.insert(WeightEntry(id: String(format: "w%05d", index), date: Date(timeIntervalSince1970: 1.7e9 + Double(index) * 3_600.5),
                                                   kilograms: 70 + Double(index % 300) / 10, note: index % 9 == 0 ? "ré \(index)" : nil,
                                                   bodyFatPercent: index % 4 == 0 ? 20.5 : nil, typedUnit: index % 5 == 0 ? .pounds : nil), in: connection)
            }
        }
        let written = try store.read { connection in
            try [false, true].map { checking in
                var bytes: [UInt8] = []
                let stream = SnapshotStream { bytes.append(contentsOf: $0) }
                for member in try WeightTable().members(in: connection, checkingRows: checking) { try member.write(stream) }
                try stream.flush()
                return (bytes, stream.rowCounts)
            }
        }
        #expect(written[0].0.count > 100_000 && written[0].0 == written[1].0)
        #expect(written[0].1 == ["weights": WeightTable.snapshotBatch * 2 + 7] && written[1].1 == written[0].1)
        let parsed = try JSONSerialization.jsonObject(with: Data(written[0].0)) as? [Any]
        #expect(parsed?.count == WeightTable.snapshotBatch * 2 + 7)
    }

    /// The rows a snapshot copies come in `selectAll`'s order however they were written: in time order (read
    /// as they lie), shuffled, with instants shared (the id decides), and past the limit of rows out of order.
    @Test(arguments: [0, 1, 2])
    func copiedRowsComeInTheIndexOrder(layout: Int) throws {
        let store = LocalDataStore.inMemory()
        var generator = SplitMix64(seed: UInt64(layout + 7))
        var order = Array(0..<5_000)
        if layout > 0 { order.shuffle(using: &generator) }
        try store.write { connection in
            for index in order {
                // Every third instant is shared by two rows, so the id breaks the tie.
                try WeightTable.insert(WeightEntry(id: String(format: "w%05d", 9_999 - index), date: Date(timeIntervalSince1970: 1.7e9 + Double(index / 3 * 3) * 600),
                                                   kilograms: 70 + Double(index % 90) / 10), in: connection)
            }
        }
        let (expected, copied) = try store.read { connection in
            let expected = try connection.query(WeightTable.selectAll) { $0.text(0) }
            var copied: [String] = []
            try WeightTable.forEachCopiedBatch(of: 700, in: connection, outOfOrderLimit: layout == 2 ? 10 : WeightTable.maximumOutOfOrder) { rows in
                rows.forEach { copied.append($0.text(0)) }
            }
            return (expected, copied)
        }
        #expect(expected.count == 5_000)
        #expect(copied == expected)
    }
}
