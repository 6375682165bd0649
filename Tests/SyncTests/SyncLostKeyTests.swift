import AppCore
import Cryptography
import Foundation
@testable import Sync
import Testing

/// Issue 59, item 4: an installation that can no longer sign as the key its peers pinned (its key removed, or
/// replaced by a database restored by hand) takes a new id and key, sends its unsent changes again, says so
/// once, and every peer receives them.
@Suite("Sync, a lost key")
struct SyncLostKeyTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("trend-sync-lost-key-\(UUID().uuidString)")
    let minute = 60_000
    let start = 1_800_000_000_000

    func pair() throws -> (SimulatedDevice, SimulatedDevice) {
        let devices = try SimulatedDevice.sharing(["laptop", "desktop"], seed: 11, root: root)
        return (devices[0], devices[1])
    }

    @Test(arguments: ["removed", "replaced"])
    func anInstallationWhoseKeyIsLostForksAndEveryPeerReceivesItsChanges(_ how: String) async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let (laptop, desktop) = try pair()
        try laptop.weigh(id: "w1", kilograms: 82.4, at: start)
        try await laptop.sync(at: start + minute)
        try await desktop.sync(at: start + 2 * minute)
        try laptop.store.write {
            if how == "removed" {
                try $0.run("DELETE FROM meta WHERE key = 'sync.key'")
            } else {
                try $0.run("UPDATE meta SET value = ? WHERE key = 'sync.key'", [.text(Hex.string(try Ed25519.newSeed()))])
            }
        }
        try laptop.weigh(id: "w2", kilograms: 82.1, at: start + 3 * minute)
        let forked = try await laptop.sync(at: start + 4 * minute)
        #expect(forked.notes.count == 1, "\(forked.notes)")
        #expect(forked.notes.first?.contains("can no longer sign as the key") == true, "\(forked.notes)")
        #expect(laptop.currentID != laptop.id)
        let received = try await desktop.sync(at: start + 5 * minute)
        #expect(received.problems.isEmpty, "\(received.problems)")
        #expect(try desktop.visible() == laptop.visible())
        #expect(try desktop.visible().contains { $0.hasPrefix("w w2 ") })
        // Said once: the next syncs fork no more.
        try laptop.weigh(id: "w3", kilograms: 81.9, at: start + 6 * minute)
        let again = try await laptop.sync(at: start + 7 * minute)
        #expect(again.notes.isEmpty, "\(again.notes)")
        let last = try await desktop.sync(at: start + 8 * minute)
        #expect(last.problems.isEmpty, "\(last.problems)")
        #expect(try desktop.visible() == laptop.visible())
    }
}
