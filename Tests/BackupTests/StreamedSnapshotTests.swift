import AppCore
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
    static var content: SnapshotContent {
        var content = RecoverySnapshotTests.content
        let many = (0..<3_000).map { index -> WeightEntry in
            let instant: Double = 1_600_000_000 + Double(index) * 86_400
            let kilograms: Double = 70 + Double(index % 97) / 10
            let bodyFat: Double? = index % 5 == 0 ? 20 + Double(index % 9) / 4 : nil
            return WeightEntry(id: String(format: "w%05d", index), date: Date(timeIntervalSince1970: instant), kilograms: kilograms,
                               note: index % 7 == 0 ? "note \(index)" : nil, bodyFatPercent: bodyFat)
        }
        content.set(WeightTable.Part(entries: content.weights + many), for: "weights")
        return content
    }

    @Test func aStreamedSnapshotIsTheBytesOfItsEncoding() throws {
        defer { temp.remove() }
        let store = LocalDataStore(directory: temp.url.appendingPathComponent("data"))
        try store.replaceContent(with: Self.content)
        let stored = try store.readContent()
        #expect(stored.canonical().count > 2 * SnapshotStream.chunkSize, "the content spans several chunks")
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
        let name = try await g.app.backupFeature.deleteAllData()
        let copy = try Data(contentsOf: directory.appendingPathComponent("Backups/Before-restore/\(name).json"))
        #expect(String(decoding: copy, as: UTF8.self).contains(#""id":"old","instant":-3786825600"#))
    }
}
