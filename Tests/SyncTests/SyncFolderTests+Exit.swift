import Foundation
import Testing
@testable import Sync

/// The sync at exit sends this run's changes; a run that changed nothing leaves the folder alone
/// (the next launch reads the others' changes).
extension SyncFolderTests {
    @Test @MainActor func theSyncAtExitRunsOnlyWhenThisRunHasSomethingToSend() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let (a, b, shared) = try pair(11)
        let clock = start
        let feature = SyncFeature(storage: b.store, folder: { shared.path }, deviceName: { "desktop" },
                                  currentDate: { Date(timeIntervalSince1970: Double(clock) / 1000) }, onChange: {})
        try await feature.syncNow()
        try a.weigh(id: "w1", kilograms: 82.4, at: start)
        try await a.sync(at: start)

        // Nothing of its own to send: the laptop's weigh-in waits for the next launch.
        await feature.sendIfChanged()
        #expect(feature.failure == nil)
        #expect(try !b.visible().contains { $0.hasPrefix("w w1 ") })

        // A change of its own: it goes out, and the laptop's comes in with the same sync.
        try b.weigh(id: "w2", kilograms: 80.1, at: start + minute)
        await feature.sendIfChanged()
        #expect(feature.failure == nil)
        #expect(feature.last?.sent == 1)
        #expect(try b.visible().contains { $0.hasPrefix("w w1 ") })
    }
}
