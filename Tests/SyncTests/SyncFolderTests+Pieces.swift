import Foundation
import Testing
@testable import Sync

/// A file holding more changes than one merge takes (a checkpoint of a long history) is read and merged a piece at
/// a time, so it is never held whole; what its pieces did stands only once the whole file is read as its header
/// says, and is undone otherwise (DESIGN §8: never half-applied).
extension SyncFolderTests {
    /// A device that wrote 25 weigh-ins in one segment, and one that merges four changes at a time, over one folder.
    func writerAndPieceReader() async throws -> (writer: SimulatedDevice, reader: SimulatedDevice, segment: URL) {
        let shared = root.appendingPathComponent("shared")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        let writer = try SimulatedDevice(name: "laptop", seed: 7, root: root, skewMs: 0, checkpointEvery: 1_000)
        let reader = try SimulatedDevice(name: "desktop", seed: 7, root: root, skewMs: 0, changesPerMerge: 4)
        for device in [writer, reader] {
            try FileManager.default.removeItem(at: device.folder)
            try FileManager.default.createSymbolicLink(at: device.folder, withDestinationURL: shared)
        }
        for index in 0..<25 {
            try writer.weigh(id: "w\(index)", kilograms: 70 + Double(index) / 10, at: start + index * minute)
        }
        try await writer.sync(at: start + 30 * minute)
        return (writer, reader, shared.appendingPathComponent("trend/\(writer.id)/1-25.jsonl"))
    }

    func appliedThrough(_ device: SimulatedDevice) throws -> Int {
        try device.store.read { try $0.scalarInt("SELECT ifnull(max(applied), 0) FROM sync_peers") ?? 0 }
    }

    @Test func aFileLargerThanAMergeIsMergedInPiecesAsIfWhole() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let (writer, reader, segment) = try await writerAndPieceReader()
        #expect(FileManager.default.fileExists(atPath: segment.path))
        let report = try await reader.sync(at: start + 40 * minute)
        #expect(report.received == 25)
        #expect(report.problems.isEmpty)
        #expect(try reader.visible() == writer.visible())
        #expect(try appliedThrough(reader) == 25)
    }

    @Test func aFileFoundBrokenPastItsFirstPiecesLeavesNothingOfItApplied() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let (writer, reader, segment) = try await writerAndPieceReader()
        let whole = try Data(contentsOf: segment)
        var lines = String(decoding: whole, as: UTF8.self).split(separator: "\n").map(String.init)

        // The last change is not one: six pieces of four were merged before it was read, and its signature fails.
        lines[25] = #"{"t":1}"#
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: segment)
        var report = try await reader.sync(at: start + 40 * minute)
        #expect(report.received == 0)
        #expect(report.problems.contains { $0.contains("does not match its signature") })
        #expect(try reader.visible().isEmpty, "nothing of the file stands")
        #expect(try appliedThrough(reader) == 0)

        // Cut short, as a copy still arriving: the pieces before the cut were merged, and are undone.
        try whole.prefix(whole.count - 10).write(to: segment)
        report = try await reader.sync(at: start + 41 * minute)
        #expect(report.received == 0)
        #expect(report.problems.contains { $0.contains("cut short") })
        #expect(try reader.visible().isEmpty)

        // A line too many for its header.
        try Data((String(decoding: whole, as: UTF8.self) + String(decoding: whole, as: UTF8.self).split(separator: "\n")[1] + "\n").utf8)
            .write(to: segment)
        report = try await reader.sync(at: start + 42 * minute)
        #expect(report.received == 0)
        #expect(report.problems.contains { $0.contains("line 1") })
        #expect(try reader.visible().isEmpty)

        // Whole again: it is read, in pieces, at the next sync.
        try whole.write(to: segment)
        report = try await reader.sync(at: start + 43 * minute)
        #expect(report.received == 25)
        #expect(report.problems.isEmpty)
        #expect(try reader.visible() == writer.visible())
    }
}
