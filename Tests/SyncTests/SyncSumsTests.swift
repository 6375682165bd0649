import AppCore
import Foundation
@testable import Habits
@testable import Sync
import Testing

/// Issue 59, item 3: a synced `+N` is checked as `habit done` checks it, and honest additions that sum past one
/// command's bound are kept, on every device, and accepted by what checks a snapshot's rows.
@Suite("Sync sums")
struct SyncSumsTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("trend-sync-sums-\(UUID().uuidString)")
    let minute = 60_000
    let start = 1_800_000_000_000

    func pair() throws -> (SimulatedDevice, SimulatedDevice) {
        let devices = try SimulatedDevice.sharing(["laptop", "desktop"], seed: 7, root: root)
        return (devices[0], devices[1])
    }

    @Test func aPeersAdditionOutsideTheBoundIsLeftOutAndNamedAndTheRestApplies() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let (laptop, desktop) = try pair()
        try laptop.addHabit(id: "water", name: "Water", at: start)
        try laptop.mark(habit: "water", day: 20_800, amount: 3, adding: true, at: start + minute)
        try laptop.mark(habit: "water", day: 20_801, amount: 1e308, adding: true, at: start + 2 * minute)
        try await laptop.sync(at: start + 3 * minute)
        var report = try await desktop.sync(at: start + 4 * minute)
        #expect(report.leftOut == 1, "\(report)")
        #expect(report.problems.contains { $0.contains("a habit day holds a value outside") }, "\(report.problems)")
        // Added to a day the peer has: the addition itself is named.
        try laptop.mark(habit: "water", day: 20_800, amount: 1e308, adding: true, at: start + 5 * minute)
        try await laptop.sync(at: start + 6 * minute)
        report = try await desktop.sync(at: start + 7 * minute)
        #expect(report.leftOut == 1, "\(report)")
        #expect(report.problems.contains { $0.contains("adds 1e+308, outside 0–1000000") }, "\(report.problems)")
        let rows = try desktop.visible()
        #expect(rows.contains("r water 20800 value 3.0"), "\(rows)")
        #expect(!rows.contains { $0.hasPrefix("r water 20801") }, "\(rows)")
    }

    @Test func honestAdditionsFromTwoDevicesSumPastOneCommandsBoundAndAreKept() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let (laptop, desktop) = try pair()
        try laptop.addHabit(id: "steps", name: "Steps", at: start)
        try await laptop.sync(at: start + minute)
        try await desktop.sync(at: start + 2 * minute)
        // Both offline: each adds the most one command may.
        try laptop.mark(habit: "steps", day: 20_800, amount: 600_000, adding: true, at: start + 3 * minute)
        try desktop.mark(habit: "steps", day: 20_800, amount: 600_000, adding: true, at: start + 3 * minute)
        try await laptop.sync(at: start + 4 * minute)
        let report = try await desktop.sync(at: start + 5 * minute)
        try await laptop.sync(at: start + 6 * minute)
        #expect(report.leftOut == 0, "\(report.problems)")
        for device in [laptop, desktop] {
            let rows = try device.visible()
            #expect(rows.contains("r steps 20800 value 1200000.0"), "\(device.name): \(rows)")
        }
        // What a snapshot's (and sync's) row check says of the merged day: it is kept.
        let record = HabitsTable.RecordRow(habitID: "steps", day: 20_800, status: "value", value: 1_200_000, note: nil)
        #expect(HabitsTable.problem(record, habits: ["steps"]) == nil)
        let beyond = HabitsTable.RecordRow(habitID: "steps", day: 20_800, status: "value", value: 1e308, note: nil)
        #expect(HabitsTable.problem(beyond, habits: ["steps"]) != nil)
    }
}
