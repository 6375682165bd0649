import AppCore
import Foundation
import Progress
import ProgressReference
import Storage
import WeightLog

/// The database case: what `today` and `progress` pay before the computation
/// — opening the data directory's database and reading every weigh-in — then
/// the 3-month snapshot, as they compute it. Beside it, the floor: C that
/// opens the same file and steps through the same rows with `sqlite3_step`,
/// summing them.
enum DatabaseCase {
    struct Timings {
        /// Reading the index, as the first check-in after a change does.
        let trend: Harness.Timing
        /// Reading the cached samples (`weight_samples_cache`), as every other check-in does.
        let cached: Harness.Timing
        let floor: Harness.Timing
    }

    /// A data directory holding `input`'s weigh-ins, written once per run.
    static func directory(for input: Input) throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("trend-bench-\(input.entries.count)-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.removeItem(at: directory)  // A leftover of an interrupted run; recreated below.
        let store = LocalDataStore(directory: directory, schema: .trend)
        try store.write { try WeightTable().replace(with: WeightTable.Part(entries: input.entries), in: $0) }
        try store.checkpoint()
        store.close()
        return directory
    }

    static func measure(_ input: Input, repetitions: Int) throws -> Timings {
        let directory = try directory(for: input)
        defer { try? FileManager.default.removeItem(at: directory) }  // Temporary; the next run starts afresh anyway.
        let path = directory.appendingPathComponent(LocalDataStore.fileName).path

        func snapshot(cached: Bool = false) throws -> WeightHistoryData {
            let store = LocalDataStore(directory: directory, schema: .trend)
            defer { store.close() }
            let samples = try store.read { connection in
                try cached ? WeightTable.cachedSamples(in: connection) ?? WeightSamples() : WeightTable.samples(in: connection)
            }
            let series = DailySeries(sortedSeconds: samples.seconds, kilograms: samples.kilograms, localDays: input.localDays)
            return ProgressCalculator.history(series: series, today: input.today, range: .quarter, goalKilograms: input.goal)
        }
        // What was read must be what was written, and give the in-memory result.
        let read = try snapshot()
        let direct = ProgressCalculator.history(entries: input.entries, localDays: input.localDays, today: input.today,
                                                range: .quarter, goalKilograms: input.goal)
        guard read.latestTrendKilograms == direct.latestTrendKilograms, read.points.count == direct.points.count else {
            ProgressBenchmarks.fail("the database case read back other numbers than it wrote")
        }
        var failed = false
        let trend = Harness.run(repetitions: repetitions) {
            do { blackHole(try snapshot()) } catch { failed = true }
        }
        let store = LocalDataStore(directory: directory, schema: .trend)
        try store.write { try WeightTable.cacheSamples(try WeightTable.samples(in: $0), in: $0) }
        store.close()
        guard try snapshot(cached: true).latestTrendKilograms == direct.latestTrendKilograms else {
            ProgressBenchmarks.fail("the database case read other numbers from the cache than it wrote")
        }
        let cached = Harness.run(repetitions: repetitions) {
            do { blackHole(try snapshot(cached: true)) } catch { failed = true }
        }
        var rows = 0
        let floor = Harness.run(repetitions: repetitions) {
            var instants = 0.0, kilograms = 0.0, count = 0
            if pr_sqlite_floor(path, &instants, &kilograms, &count) != 0 { failed = true }
            rows = count
            blackHole(instants + kilograms)
        }
        if failed || rows != input.entries.count { ProgressBenchmarks.fail("the database case could not read \(path)") }
        return Timings(trend: trend, cached: cached, floor: floor)
    }
}
