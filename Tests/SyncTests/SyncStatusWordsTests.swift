import AppCore
import Foundation
@testable import Sync
import Testing

/// Issue 59, item 6: what `sync` and `history` say stays readable and true: a sync from many devices is counted,
/// not listed, and a file past a gap (a bogus range) is not counted as changes waiting.
@Suite("Sync status words")
struct SyncStatusWordsTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("trend-sync-words-\(UUID().uuidString)")
    let start = 1_800_000_000_000

    /// One weigh-in from `peer`, in a file of format 1 (as Trend wrote before 0.3), under `peer`'s folder.
    func plantWeighIn(of peer: String, named name: String = "1-1.jsonl", first: Int = 1, in shared: URL) throws {
        let folder = shared.appendingPathComponent("trend/\(peer)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let header = #"{"trend-sync":1,"installation":"\#(peer)","device":"\#(peer)","first":\#(first),"last":\#(first),"count":1,"at":0}"#
        let line = #"{"t":"weight_entries","k0":"w-\#(peer)","ms":\#(start),"n":0,"o":"\#(peer)","op":"set","c.id":"w-\#(peer)","c.instant":1800000000.0,"c.kilograms":80.5}"#
        try Data((header + "\n" + line + "\n").utf8).write(to: folder.appendingPathComponent(name))
    }

    @Test func aSyncFromManyDevicesIsCountedNotListedInHistory() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let shared = root.appendingPathComponent("shared")
        let laptop = try SimulatedDevice.sharing(["laptop"], seed: 3, root: root)[0]
        for n in 0..<400 { try plantWeighIn(of: "d\(n)", in: shared) }
        let report = try await laptop.sync(at: start + 60_000)
        #expect(report.received == 400)
        #expect(SyncReport.sentence(from: report.from) == "400 devices")
        let history = try laptop.store.journalChanges(limit: 1).map(\.summary)
        #expect(history == ["sync: 400 changes from 400 devices"], "\(history)")
        #expect(SyncReport.sentence(from: ["laptop", "desktop"]) == "laptop and desktop")
    }

    @Test func aFilePastAGapIsNotCountedAsChangesWaiting() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let shared = root.appendingPathComponent("shared")
        let laptop = try SimulatedDevice.sharing(["laptop"], seed: 3, root: root)[0]
        try plantWeighIn(of: "phone", in: shared)
        // A bogus range far past the device's own changes: nothing can fill the gap before it.
        try Data("garbage\n".utf8).write(to: shared.appendingPathComponent("trend/phone/40000-49999.jsonl"))
        let report = try await laptop.sync(at: start + 60_000)
        let phone = try #require(report.devices.first { $0.installation == "phone" })
        #expect(phone.applied == 1)
        #expect(phone.behind == 0, "\(phone)")
        // Once the gap is filled by real files, what follows counts again.
        #expect(SyncFile.reach(from: 1, through: [SyncFile(name: "2-5.jsonl", first: 2, last: 5, checkpoint: false),
                                                 SyncFile(name: "7-9.jsonl", first: 7, last: 9, checkpoint: false)]) == 5)
    }
}
