import AppCore
import Cryptography
import Foundation
import Storage
import Testing
import TestSupport
@testable import Backup
@testable import WeightLog

/// A large snapshot's weigh-ins stay in the file (`StreamedMember`): read
/// that way, a snapshot must say and restore exactly what reading it whole
/// does — the same rows, the same refusals — and a file changed between the
/// check and the restore must change nothing.
@Suite struct StreamedRestoreTests {
    let temp = TemporaryDirectory()

    /// Writes a snapshot of `content` and reads it both ways: whole, and with every weigh-in left in the file.
    func bothWays(_ content: SnapshotContent, skippingInvalid: Bool = false) throws -> (whole: RecoverySnapshot, streamed: RecoverySnapshot, file: URL) {
        let url = temp.url.appendingPathComponent("s.json")
        try RecoverySnapshot(content: content, createdAt: Date(timeIntervalSince1970: 1_800_000_000), installationID: "i", appVersion: "t")
            .encoded().write(to: url)
        let whole = try RecoverySnapshot.decode(Data(contentsOf: url), name: "s", schema: .trend, skippingInvalid: skippingInvalid)
        let streamed = try RecoverySnapshot.read(.named(url), name: "s", schema: .trend, skippingInvalid: skippingInvalid, streamingFrom: 1)
        #expect(streamed.content.part("weights", as: WeightTable.Part.self)?.streamed != nil, "the weigh-ins stayed in the file")
        return (whole, streamed, url)
    }

    func restored(_ snapshot: RecoverySnapshot, merging: Bool = false, into store: LocalDataStore = .inMemory()) throws -> SnapshotContent {
        try store.write { connection in
            if merging { _ = try SnapshotSchema.trend.merge(snapshot.content, in: connection) } else {
                try SnapshotSchema.trend.replace(with: snapshot.content, in: connection)
            }
        }
        return try store.readContent()
    }

    @Test func aStreamedSnapshotSaysAndRestoresWhatAWholeOneDoes() throws {
        defer { temp.remove() }
        let (whole, streamed, _) = try bothWays(StreamedSnapshotTests.content)
        #expect(streamed.weighIns == whole.weighIns && streamed.weighIns == 3_002)
        #expect(streamed.content.dateSpan(of: "weights") == whole.content.dateSpan(of: "weights"))
        #expect(streamed.contentHash == whole.contentHash && streamed.createdAt == whole.createdAt)
        let restoredWhole = try restored(whole), restoredStreamed = try restored(streamed)
        #expect(restoredStreamed.weights == restoredWhole.weights)
        #expect(restoredStreamed == restoredWhole, "habits, settings and the tip deck too")
        // Merging into a store that holds some of the weigh-ins adds the others once.
        let store = LocalDataStore.inMemory()
        try store.replaceContent(with: SnapshotContent.of(weights: Array(StreamedSnapshotTests.content.weights.prefix(100))))
        #expect(try restored(streamed, merging: true, into: store).weights.count == 3_002)
        // A re-encoding (only a re-indented file needs one) reads the rows again and hashes as written.
        #expect(try streamed.content.canonicalBytes().withUnsafeBytes { try ContentHash.sha256($0) } == whole.contentHash)
    }

    @Test func rowsARestoreRefusesAreRefusedTheSameWay() throws {
        defer { temp.remove() }
        var weights = StreamedSnapshotTests.content.weights
        weights[5].date = Date(timeIntervalSince1970: -3_786_825_600)  // 1850
        let twin = weights[2_000]
        weights[2_000] = WeightEntry(id: weights[10].id, date: twin.date, kilograms: twin.kilograms, note: twin.note)
        weights[2_500].kilograms = 900
        var content = StreamedSnapshotTests.content
        content.set(WeightTable.Part(entries: weights), for: "weights")
        let url = temp.url.appendingPathComponent("bad.json")
        try RecoverySnapshot(content: content, createdAt: Date(timeIntervalSince1970: 1_800_000_000), installationID: "i", appVersion: "t")
            .encoded().write(to: url)
        let strictWhole = #expect(throws: SnapshotError.self) { try RecoverySnapshot.decode(Data(contentsOf: url), name: "s", schema: .trend) }
        let strictStreamed = #expect(throws: SnapshotError.self) {
            try RecoverySnapshot.read(.named(url), name: "s", schema: .trend, skippingInvalid: false, streamingFrom: 1)
        }
        #expect(strictStreamed == strictWhole)
        let (whole, streamed, _) = try bothWays(content, skippingInvalid: true)
        #expect(streamed.dropped == whole.dropped && streamed.dropped.count == 3)
        #expect(streamed.weighIns == 2_999 && whole.weighIns == 2_999)
        #expect(try restored(streamed).weights == (try restored(whole)).weights)
    }

    /// A row without a member it must have, in a file whose hash was made to match: refused both ways alike.
    @Test func aRowMissingAMemberIsRefusedBothWays() throws {
        defer { temp.remove() }
        let url = temp.url.appendingPathComponent("s.json")
        let original = try RecoverySnapshot(content: StreamedSnapshotTests.content, createdAt: Date(timeIntervalSince1970: 1_800_000_000),
                                            installationID: "i", appVersion: "t")
        var text = String(decoding: original.encoded(), as: UTF8.self)
        let cut = text.replacingOccurrences(of: #","kilograms":70.6}"#, with: "}")
        #expect(cut != text, "some weigh-ins lost their weight")
        text = cut
        let rehashed = try SnapshotSummary.of(Data(text.utf8), name: "s").contentHashAsWritten
        try Data(text.replacingOccurrences(of: original.contentHash, with: rehashed).utf8).write(to: url)
        #expect(throws: SnapshotError.notASnapshot("s")) { _ = try RecoverySnapshot.decode(Data(contentsOf: url), name: "s", schema: .trend) }
        #expect(throws: SnapshotError.notASnapshot("s")) {
            _ = try RecoverySnapshot.read(.named(url), name: "s", schema: .trend, skippingInvalid: false, streamingFrom: 1)
        }
    }

    @Test func aFileChangedAfterItsCheckChangesNothing() throws {
        defer { temp.remove() }
        let (_, streamed, url) = try bothWays(StreamedSnapshotTests.content)
        let store = LocalDataStore.inMemory()
        try store.replaceContent(with: SnapshotContent.of(weights: Array(StreamedSnapshotTests.content.weights.prefix(3))))
        let before = try store.readContent()
        // One weight edited in place, the file's length unchanged.
        var text = try String(contentsOf: url, encoding: .utf8)
        let range = try #require(text.range(of: "\"kilograms\":75.0"))
        text.replaceSubrange(range, with: "\"kilograms\":76.0")
        try Data(text.utf8).write(to: url)
        #expect(throws: SnapshotValueError.self) { _ = try restored(streamed, into: store) }
        #expect(try store.readContent() == before)
        // Cut short: the same.
        try Data(text.utf8.prefix(text.utf8.count / 2)).write(to: url)
        #expect(throws: (any Error).self) { _ = try restored(streamed, into: store) }
        #expect(try store.readContent() == before)
    }

    /// Through the feature, at the size where weigh-ins stay in the file by default.
    @MainActor
    @Test func aLargeSnapshotIsRestoredThroughTheFeature() async throws {
        defer { temp.remove() }
        let directory = temp.url.appendingPathComponent("data")
        let g = makeTestApp(store: LocalDataStore(directory: directory), clock: TestClock(date("2026-06-10 08:00")), directory: directory)
        let count = 20_000
        try g.store.write { connection in
            var insert = BatchedInsert("INSERT INTO weight_entries(id, instant, kilograms, note)", columns: 4, in: connection)
            for index in 0..<count {
                try insert.add([.text(String(format: "w%06d", index)), .double(1_600_000_000 + Double(index) * 3_600),
                                .double(70 + Double(index % 100) / 10), .optional(index % 9 == 0 ? "run, then \"rest\"" : nil)])
            }
            try insert.finish()
        }
        _ = try await g.app.backupFeature.backupNow()
        let written = try g.store.readContent()
        let size = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent("Backups/Latest.json").path)[.size] as? Int
        #expect((size ?? 0) > RecoverySnapshot.streamingThreshold)
        _ = try await g.app.backupFeature.deleteAllData()
        #expect(try g.store.readContent().weights.isEmpty)
        let plan = try await g.app.backupFeature.prepareRestore(from: .latest)
        #expect(plan.snapshot.weighIns == count && plan.incomingFirst == written.weights.first?.date)
        let result = try await g.app.backupFeature.restore(plan)
        #expect(result.entries == count)
        #expect(try g.store.readContent().weights == written.weights)
    }
}
