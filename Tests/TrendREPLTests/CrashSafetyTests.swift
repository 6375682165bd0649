import Backup
import Foundation
import Storage
import Testing
import TestSupport

/// Kills a real `trend` process at many moments of a restore and checks the
/// database is whole and either as before or as after — never between.
@Suite(.serialized) struct CrashSafetyTests {
    static func content(weights count: Int, base: Double) -> StoredContent {
        StoredContent(weights: (0..<count).map { index in
            StoredContent.Weight(id: String(format: "w%07d-%.0f", index, base), instant: 1_700_000_000 + Double(index) * 3_600,
                                 kilograms: base + Double(index % 50) / 10, note: nil)
        })
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

        func start() throws -> Process {
            try LocalDataStore(directory: data).replaceContent(with: before)
            let process = Process()
            process.executableURL = trendExecutable()
            process.arguments = ["--data-dir", data.path, "-c", "restore \(snapshotFile.path)"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }
        // One undisturbed run measures how long a restore takes on this machine.
        let clock = ContinuousClock()
        let began = clock.now
        let full = try start()
        full.waitUntilExit()
        let duration = began.duration(to: clock.now)
        #expect(full.terminationStatus == 0)
        #expect(try LocalDataStore(directory: data).readContent().weights.count == incoming.weights.count)

        var outcomes: [String: Int] = [:]
        // Spread the kills over the whole restore: reading, validating, the copy, the transaction, the refresh.
        for (attempt, fraction) in [0.02, 0.2, 0.4, 0.55, 0.7, 0.8, 0.88, 0.94, 0.98, 1.1].enumerated() {
            let process = try start()
            let (seconds, attoseconds) = (duration * fraction).components
            usleep(UInt32(Double(seconds) * 1_000_000 + Double(attoseconds) / 1e12))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()

            let store = LocalDataStore(directory: data)
            let check = try store.read { try $0.query("PRAGMA integrity_check") { $0.text(0) } }
            #expect(check == ["ok"], "attempt \(attempt)")
            let count = try store.readContent().weights.count
            #expect(count == before.weights.count || count == incoming.weights.count, "attempt \(attempt): \(count) weights")
            let killed = process.terminationReason == .uncaughtSignal
            outcomes[(killed ? "killed-" : "finished-") + (count == before.weights.count ? "before" : "after"), default: 0] += 1
        }
        print("crash-safety outcomes:", outcomes.sorted { $0.key < $1.key })
        // At least one kill must have landed while the restore was still under way.
        #expect(outcomes.keys.contains { $0.hasPrefix("killed") }, "\(outcomes)")
    }
}
