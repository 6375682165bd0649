import AppCore
import Cryptography
import Foundation
import Storage
import Testing
import TestSupport
import WeightLog
@testable import Backup

/// A snapshot is written from the rows as they are read (`SnapshotWriter`):
/// the file must be the bytes `RecoverySnapshot.encoded()` gives for the same
/// content, whatever the chunk borders, and a row a restore would refuse
/// must keep the last snapshot in place.
@MainActor
@Suite struct StreamedSnapshotTests {
    let temp = TemporaryDirectory()

    /// The pinned content of `RecoverySnapshotTests` (escapes, habits with
    /// days, settings, the tip deck) with enough weigh-ins to span many chunks.
    nonisolated static var content: SnapshotContent { content(extra: 3_000) }

    nonisolated static func content(extra: Int) -> SnapshotContent {
        var content = RecoverySnapshotTests.content
        let many = (0..<extra).map { index -> WeightEntry in
            let instant: Double = 1_600_000_000 + Double(index) * 86_400
            let kilograms: Double = 70 + Double(index % 97) / 10
            let bodyFat: Double? = index % 5 == 0 ? 20 + Double(index % 9) / 4 : nil
            return WeightEntry(id: String(format: "w%05d", index), date: Date(timeIntervalSince1970: instant), kilograms: kilograms,
                               note: index % 7 == 0 ? "note \(index)" : nil, bodyFatPercent: bodyFat)
        }
        content.set(WeightTable.Part(entries: content.weights + many), for: "weights")
        return content
    }

    /// Weigh-ins are read a batch at a time (`WeightTable.snapshotBatch`): the
    /// pinned content alone (two), with enough to end a batch exactly, and past it.
    @Test(arguments: [0, 2_048 - 2, 3_000])
    func aStreamedSnapshotIsTheBytesOfItsEncoding(extra: Int) throws {
        defer { temp.remove() }
        let store = LocalDataStore(directory: temp.url.appendingPathComponent("data"))
        try store.replaceContent(with: Self.content(extra: extra))
        let stored = try store.readContent()
        if extra == 3_000 { #expect(stored.canonical().count > 2 * SnapshotStream.chunkSize, "the content spans several chunks") }
        let createdAt = Date(timeIntervalSince1970: 1_800_000_000.25)
        let folder = try SafeFolder.open(temp.url, ["out"], create: true)
        let file = try folder.pending("Latest.json")
        let written = try store.readConsistently { connection in
            try SnapshotWriter.write(.trend, in: connection, checkingRows: true, createdAt: createdAt, installationID: "install",
                                     appVersion: "1.2.3", to: file)
        }
        try file.commit()
        let bytes = try Data(contentsOf: temp.url.appendingPathComponent("out/Latest.json"))
        let expected = try RecoverySnapshot(content: stored, createdAt: createdAt, installationID: "install", appVersion: "1.2.3")
        #expect(bytes == expected.encoded())
        #expect(written.contentHash == expected.contentHash)
        #expect(written.fileHash == (try ContentHash.sha256(bytes)))
        #expect(written.size == bytes.count)
        #expect(written.rowCounts["weights"] == stored.weights.count && written.rowCounts["habits"] == stored.habits.count)
        let back = try RecoverySnapshot.decode(bytes, name: "streamed", schema: .trend)
        #expect(back.content == stored)
    }

    @Test func aRowARestoreWouldRefuseKeepsTheLastSnapshot() async throws {
        defer { temp.remove() }
        let directory = temp.url.appendingPathComponent("data")
        let g = makeTestApp(store: LocalDataStore(directory: directory), clock: TestClock(date("2026-06-10 08:00")), directory: directory)
        try await g.app.weightEntryFeature.record(kilograms: 80)
        _ = try await g.app.backupFeature.backupNow()
        let latest = directory.appendingPathComponent("Backups/Latest.json")
        let before = try Data(contentsOf: latest)
        // Another program writes a weigh-in dated 1850: the table takes it, a restore would not.
        try g.store.write { connection in
            _ = try connection.run("INSERT INTO weight_entries(id, instant, kilograms) VALUES('old', -3786825600, 81)")
        }
        await #expect(throws: BackupFileError.refusedContent("weight 1 has a date outside 1900–2200")) {
            try await g.app.backupFeature.backupNow()
        }
        #expect(try Data(contentsOf: latest) == before, "Latest is the last good snapshot")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: latest.deletingLastPathComponent().path)
            .filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty, "the refused snapshot's temporary file is gone")
        // The copy kept before deleting everything takes the rows as they are, the refused one too.
        let name = try #require(try await g.app.backupFeature.deleteAllData())
        let copy = try Data(contentsOf: directory.appendingPathComponent("Backups/Before-restore/\(name).json"))
        #expect(String(decoding: copy, as: UTF8.self).contains(#""id":"old","instant":-3786825600"#))
    }
}

/// `backup list` reads a snapshot in one pass (`SnapshotScanner`): the same
/// counts and header a full decode gives, wherever the chunk borders fall,
/// and a refusal for anything that is not one whole snapshot.
@Suite struct SnapshotSummaryTests {
    let temp = TemporaryDirectory()

    static func encoded(_ content: SnapshotContent) throws -> Data {
        try RecoverySnapshot(content: content, createdAt: Date(timeIntervalSince1970: 1_800_000_000.25), installationID: "install",
                             appVersion: "1.2.3").encoded()
    }

    func summary(of data: Data, name: String = "s.json") throws -> SnapshotSummary {
        try data.write(to: temp.url.appendingPathComponent(name))
        return try SnapshotSummary.read(.named(temp.url.appendingPathComponent(name)), name: name)
    }

    @Test func theSummaryIsWhatAFullDecodeSaysWhereverChunksEnd() throws {
        defer { temp.remove() }
        let data = try Self.encoded(StreamedSnapshotTests.content)
        let decoded = try RecoverySnapshot.decode(data, name: "s", schema: .trend)
        for chunk in [1, 7, 4_096, data.count] {
            var scanner = try SnapshotScanner()
            try data.withUnsafeBytes { bytes in
                var start = 0
                while start < bytes.count {
                    try scanner.scan(UnsafeRawBufferPointer(rebasing: bytes[start..<min(start + chunk, bytes.count)]))
                    start += chunk
                }
            }
            #expect(!scanner.failed)
            #expect(try scanner.contentHash() == decoded.contentHash, "chunks of \(chunk)")
            #expect(scanner.counts == ["weights": decoded.weighIns, "habits": decoded.habits, "habitRecords": 2, "settings": 1])
        }
        let summary = try summary(of: data)
        #expect(summary.contentHash == decoded.contentHash && summary.contentHashAsWritten == decoded.contentHash)
        #expect(summary.installationID == "install" && summary.appVersion == "1.2.3" && summary.formatVersion == RecoverySnapshot.formatVersion)
        #expect(summary.createdAt == decoded.createdAt)
        #expect(summary.counts["weights"] == 3_002, "the pinned two and the 3,000 added")
    }

    @Test func anythingButOneWholeSnapshotIsRefused() throws {
        defer { temp.remove() }
        let data = try Self.encoded(RecoverySnapshotTests.content)
        #expect(throws: SnapshotError.notASnapshot("cut.json")) { try summary(of: data.prefix(data.count - 40), name: "cut.json") }
        #expect(throws: SnapshotError.notASnapshot("more.json")) { try summary(of: data + Data("{}".utf8), name: "more.json") }
        #expect(throws: SnapshotError.notASnapshot("array.json")) { try summary(of: Data("[1,2]".utf8), name: "array.json") }
        let noContent = Data(#"{"appVersion":"1","contentHash":"x","createdAt":"2026-01-01T00:00:00Z","formatVersion":3,"installationID":"i"}"#.utf8)
        #expect(throws: SnapshotError.notASnapshot("bare.json")) { try summary(of: noContent, name: "bare.json") }
        var newer = String(decoding: data, as: UTF8.self)
        newer = newer.replacingOccurrences(of: "\"formatVersion\":\(RecoverySnapshot.formatVersion)", with: "\"formatVersion\":99")
        #expect(throws: SnapshotError.newerFormat("new.json", version: 99)) { try summary(of: Data(newer.utf8), name: "new.json") }
        // A note that looks like the end of the array and the start of another counts as the one weigh-in it is.
        let tricky = SnapshotContent.of(weights: [WeightEntry(id: "t", date: Date(timeIntervalSince1970: 1_700_000_000), kilograms: 80,
                                                              note: #"],"weights":[{"id":"x"},"#)])
        #expect(try summary(of: Self.encoded(tricky)).counts["weights"] == 1)
    }

    @MainActor
    @Test func theListingTrustsTheHashAsWrittenAndReadsAReindentedFileWhole() async throws {
        defer { temp.remove() }
        let directory = temp.url.appendingPathComponent("data")
        let g = makeTestApp(store: LocalDataStore(directory: directory), clock: TestClock(date("2026-06-10 08:00")), directory: directory)
        try await g.app.weightEntryFeature.record(kilograms: 80)
        _ = try await g.app.weightEntryFeature.record(kilograms: 79.5, when: .yesterday)
        _ = try await g.app.backupFeature.backupNow()
        let weekly = try #require(try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("Backups/Weekly").path).first)
        let weeklyURL = directory.appendingPathComponent("Backups/Weekly/\(weekly)")
        // The weekly copy re-indented by an editor (a new file: the copy was a hard link to Latest).
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: weeklyURL))
        try FileManager.default.removeItem(at: weeklyURL)
        try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys]).write(to: weeklyURL)
        // Previous with one weight changed and its hash left as it was.
        let latestURL = directory.appendingPathComponent("Backups/Latest.json")
        let tampered = String(decoding: try Data(contentsOf: latestURL), as: UTF8.self).replacingOccurrences(of: "\"kilograms\":80.0", with: "\"kilograms\":90.0")
        try Data(tampered.utf8).write(to: directory.appendingPathComponent("Backups/Previous.json"))
        let (listings, unreadable) = try await g.app.backupFeature.listings()
        #expect(listings.map(\.name) == ["latest", "weekly " + weekly.dropLast(5)])
        #expect(listings.map(\.entries) == [2, 2])
        #expect(unreadable == ["previous"])
    }
}
