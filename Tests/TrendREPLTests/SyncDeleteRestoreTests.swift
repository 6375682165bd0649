import Foundation
import Testing
import TestSupport

/// Issue 59, item 2: `delete-all-data` and `restore` on one device of many. This device alone leaves the sync and the
/// others keep everything; everywhere, the others delete, say so once, and `undo` on any of them brings it all
/// back; a restore on a reinstalled device brings the snapshot's rows back and keeps every newer row of the others.
@Suite struct SyncDeleteRestoreTests {
    /// A sync folder and two devices that have seen each other: the laptop weighed 80, the desktop 81 and has Read.
    func devices(in temp: TemporaryDirectory) throws -> (sync: URL, laptop: String, desktop: String) {
        let sync = temp.url.appendingPathComponent("Sync")
        try FileManager.default.createDirectory(at: sync, withIntermediateDirectories: true)
        let laptop = temp.url.appendingPathComponent("laptop").path, desktop = temp.url.appendingPathComponent("desktop").path
        _ = try runTrend(["--data-dir", laptop, "-c", "set sync-folder \(sync.path)", "-c", "set device-name laptop", "-c", "weigh 80"])
        try joinSync(desktop, from: laptop, folder: sync)
        _ = try runTrend(["--data-dir", desktop, "-c", "set sync-folder \(sync.path)", "-c", "set device-name desktop", "-c", "weigh 81",
                          "-c", "habit add Read"])
        _ = try runTrend(["--data-dir", laptop, "-c", "sync now"])
        return (sync, laptop, desktop)
    }

    func weights(_ data: String) throws -> [Double] {
        let shown = try runTrend(["--data-dir", data, "--json", "-c", "entries"])
        return try #require(try shown.documents().first?["entries"] as? [[String: Any]]).compactMap { $0["kilograms"] as? Double }.sorted()
    }

    @Test func deletingOnThisDeviceAloneLeavesTheSyncAndTheOthersKeepEverything() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let (_, laptop, desktop) = try devices(in: temp)
        let asked = try runTrend(["--data-dir", laptop, "-c", "delete-all-data"])
        #expect(asked.status == 0, "\(asked.standardError)")
        #expect(asked.standardOutput.contains("it left the sync"), "\(asked.standardOutput)")
        #expect(try weights(laptop).isEmpty)
        let settings = try runTrend(["--data-dir", laptop, "--json", "-c", "settings"])
        #expect(try settings.documents().first?["syncFolder"] is NSNull)
        let peer = try runTrend(["--data-dir", desktop, "-c", "sync now"])
        #expect(peer.standardOutput.contains("laptop left the sync on"), "\(peer.standardOutput)")
        #expect(try weights(desktop) == [80, 81])
        let again = try runTrend(["--data-dir", desktop, "-c", "sync now"])
        #expect(!again.standardOutput.contains("left the sync"), "said once: \(again.standardOutput)")
    }

    @Test func deletingEverywhereReachesThePeerWhichSaysSoOnceAndItsUndoBringsEverythingBack() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let (_, laptop, desktop) = try devices(in: temp)
        let deleted = try runTrend(["--data-dir", desktop, "--json", "-c", "delete-all-data everywhere"])
        #expect(deleted.status == 0, "\(deleted.standardError)")
        #expect((try deleted.documents().first?["reach"] as? String) == "everywhere", "\(deleted.standardOutput)")
        let heard = try runTrend(["--data-dir", laptop, "-c", "sync now"])
        #expect(heard.standardOutput.contains("desktop deleted all data on"), "\(heard.standardOutput)")
        #expect(try weights(laptop).isEmpty)
        let again = try runTrend(["--data-dir", laptop, "-c", "sync now"])
        #expect(!again.standardOutput.contains("deleted all data"), "said once: \(again.standardOutput)")
        let undone = try runTrend(["--data-dir", laptop, "-c", "undo"])
        #expect(undone.standardOutput.contains("Undone: desktop deleted all data"), "\(undone.standardOutput)")
        #expect(try weights(laptop) == [80, 81])
        _ = try runTrend(["--data-dir", desktop, "-c", "sync now"])
        #expect(try weights(desktop) == [80, 81])
    }

    @Test func aRestoreOnAReinstalledDeviceKeepsEveryNewerRowOfTheOthers() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let (sync, laptop, desktop) = try devices(in: temp)
        let snapshot = temp.url.appendingPathComponent("laptop-snapshot.json")
        _ = try runTrend(["--data-dir", laptop, "-c", "backup now"])
        try FileManager.default.copyItem(at: URL(fileURLWithPath: laptop).appendingPathComponent("Backups/Latest.json"), to: snapshot)
        // Later, on the desktop: a newer weigh-in. The laptop is reinstalled and joins again.
        _ = try runTrend(["--data-dir", desktop, "-c", "weigh 79.5"], clock: "2026-06-16 07:00:00")
        try FileManager.default.removeItem(atPath: laptop)
        // Reinstalled, it is a new installation: it joins again with a code.
        try joinSync(laptop, from: desktop, folder: sync, clock: "2026-06-16 08:00:00")
        _ = try runTrend(["--data-dir", laptop, "-c", "set device-name laptop"], clock: "2026-06-16 08:00:00")
        let restored = try runTrend(["--data-dir", laptop, "-c", "restore \(snapshot.path)"], clock: "2026-06-16 08:01:00")
        #expect(restored.status == 0, "\(restored.standardError)")
        _ = try runTrend(["--data-dir", desktop, "-c", "sync now"], clock: "2026-06-16 08:02:00")
        #expect(try weights(laptop) == [79.5, 80, 81])
        #expect(try weights(desktop) == [79.5, 80, 81])
    }
}
