import Backup
import Foundation
import Storage
import Testing
import TestSupport
import WeightLog

/// Kills a real `trend` process at many moments of a restore and checks the
/// database is whole and either as before or as after — never between.
@Suite(.serialized) struct CrashSafetyTests {
    static func content(weights count: Int, base: Double) -> SnapshotContent {
        let weights = (0..<count).map { index in
            WeightEntry(id: String(format: "w%07d-%.0f", index, base),
                        date: Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 3_600),
                        kilograms: base + Double(index % 50) / 10)
        }
        return .of(weights: weights)
    }

    @Test func aRestoreKilledAtAnyMomentLeavesTheDatabaseBeforeOrAfter() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let data = temp.url.appendingPathComponent("data")
        let before = Self.content(weights: 50, base: 70)
        let incoming = Self.content(weights: 60_000, base: 80)
        let snapshotFile = temp.url.appendingPathComponent("big.json")
        try RecoverySnapshot(content: incoming, createdAt: Date(timeIntervalSince1970: 1_800_000_000),
                             installationID: "crash-test", appVersion: "test").encoded().write(to: snapshotFile)

        let outcomes = try ReliabilityTests.killAtManyMoments(
            data: data, arguments: ["-c", "restore \(snapshotFile.path)"],
            fractions: [0.02, 0.2, 0.4, 0.55, 0.7, 0.8, 0.88, 0.94, 0.98, 1.1],
            reset: { try LocalDataStore(directory: data).replaceContent(with: before) },
            check: { attempt in
                let count = try LocalDataStore(directory: data).readContent().weights.count
                if attempt < 0 {
                    #expect(count == incoming.weights.count, "an undisturbed restore restores")
                } else {
                    #expect(count == before.weights.count || count == incoming.weights.count, "attempt \(attempt): \(count) weights")
                }
            })
        // At least one kill must have landed while the restore was still under way.
        #expect(outcomes["killed", default: 0] >= 1, "\(outcomes)")
    }
}
