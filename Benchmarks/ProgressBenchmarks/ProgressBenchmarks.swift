/// The progress hot path, measured: cold (entries → WeightHistoryData),
/// warm (a range switch on the cached daily series) and append (one new
/// entry, then the snapshot), at 1 k to 1 M entries, beside a C reference of
/// the cold algorithm compiled in the same build. The results must agree.
/// The database case (10 k, 100 k, 1 M) opens a data directory and reads the
/// weigh-ins as `today` does, beside a C floor that only steps the rows.
import Foundation
import Progress
import ProgressReference
import WeightLog

@main
struct ProgressBenchmarks {
    struct Options {
        var sizes = [1_000, 10_000, 100_000, 1_000_000]
        /// The database case runs at these sizes (and at the smoke size).
        var databaseSizes: Set<Int> = [10_000, 100_000, 1_000_000]
        var json = false
        var repetitions = 15
    }

    struct Result {
        let name: String
        let entries: Int
        let nsPerEntry: Double
        let minimumNsPerEntry: Double
        let referenceNsPerEntry: Double?
    }

    static func main() {
        var options = Options()
        var arguments = CommandLine.arguments.dropFirst()
        while let argument = arguments.popFirst() {
            switch argument {
            case "--json": options.json = true
            case "--smoke": options.sizes = [1_000]; options.databaseSizes = [1_000]; options.repetitions = 3
            case "--sizes":
                let list = arguments.popFirst()?.split(separator: ",").compactMap { Int($0) } ?? []
                guard !list.isEmpty else { fail("--sizes needs a list like 1000,10000") }
                options.sizes = list
                options.databaseSizes = Set(list)
            case "--repetitions":
                guard let count = arguments.popFirst().flatMap(Int.init), count > 0 else { fail("--repetitions needs a number") }
                options.repetitions = count
            case "--help", "-h":
                print("usage: ProgressBenchmarks [--json] [--smoke] [--sizes 1000,10000] [--repetitions N]")
                return
            default: fail("unknown option \(argument)")
            }
        }
        let zone = TimeZone(identifier: "America/New_York") ?? .gmt
        var results: [Result] = []
        for size in options.sizes {
            let input = Input.generate(entries: size, seed: 2026, timeZone: zone)
            results += measure(input, repetitions: options.repetitions)
            if options.databaseSizes.contains(size) {
                do {
                    let timings = try DatabaseCase.measure(input, repetitions: max(3, options.repetitions / 3))
                    func perEntry(_ seconds: Double) -> Double { seconds * 1e9 / Double(size) }
                    results.append(Result(name: "database", entries: size, nsPerEntry: perEntry(timings.trend.median),
                                          minimumNsPerEntry: perEntry(timings.trend.minimum),
                                          referenceNsPerEntry: perEntry(timings.floor.median)))
                    results.append(Result(name: "cached", entries: size, nsPerEntry: perEntry(timings.cached.median),
                                          minimumNsPerEntry: perEntry(timings.cached.minimum),
                                          referenceNsPerEntry: perEntry(timings.floor.median)))
                } catch {
                    fail("the database case failed: \(error)")
                }
            }
        }
        let peakMegabytes = peakResidentMegabytes()
        if options.json {
            let items = results.map { result -> String in
                var fields = ["\"name\":\"\(result.name)\"", "\"entries\":\(result.entries)",
                              "\"nsPerEntry\":\(format(result.nsPerEntry))", "\"minimumNsPerEntry\":\(format(result.minimumNsPerEntry))"]
                if let reference = result.referenceNsPerEntry { fields.append("\"referenceNsPerEntry\":\(format(reference))") }
                return "{" + fields.joined(separator: ",") + "}"
            }
            print("{\"results\":[\(items.joined(separator: ","))],\"peakResidentMegabytes\":\(format(peakMegabytes))}")
        } else {
            print("case      entries   ns/entry (median)   ns/entry (min)   C ns/entry   Swift/C")
            print("(cold: C is the same algorithm; database and cached: C is the floor, sqlite3_step over the same rows;")
            print(" cached reads the samples cache a check-in reads after its first)")
            for result in results {
                let reference = result.referenceNsPerEntry.map { String(format: "%10.2f", $0) } ?? String(repeating: " ", count: 10)
                let ratio = result.referenceNsPerEntry.map { String(format: "%7.2f×", result.nsPerEntry / $0) } ?? ""
                print(result.name.padding(toLength: 8, withPad: " ", startingAt: 0) + String(format: " %9d   %17.3f   %14.3f   ", result.entries,
                             result.nsPerEntry, result.minimumNsPerEntry) + reference + "   " + ratio)
            }
            print(String(format: "peak resident memory: %.1f MB", peakMegabytes))
        }
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("ProgressBenchmarks: \(message)\n".utf8))
        exit(2)
    }

    static func format(_ value: Double) -> String { String(format: "%.4f", value) }

    // MARK: Cases

    static func measure(_ input: Input, repetitions: Int) -> [Result] {
        let n = input.entries.count
        let today = input.today
        let days = input.localDays

        // cold: the whole computation from the entries.
        let cold = Harness.run(repetitions: repetitions) {
            blackHole(ProgressCalculator.history(entries: input.entries, localDays: days, today: today, range: .quarter,
                                                 goalKilograms: input.goal))
        }
        let reference = Harness.run(repetitions: repetitions) {
            blackHole(input.reference())
        }
        verify(input)

        // warm: switching range once the daily series is built.
        let series = DailySeries(entries: input.entries, localDays: days)
        let ranges: [ProgressRange] = [.week, .month, .halfYear, .year, .quarter]
        var next = 0
        let warm = Harness.run(repetitions: repetitions, inner: 100) {
            next = (next + 1) % ranges.count
            blackHole(ProgressCalculator.history(series: series, today: today, range: ranges[next], goalKilograms: input.goal))
        }

        // append: a new weigh-in a little later each time, then the snapshot.
        var growing = series
        var instant = input.entries[n - 1].date.timeIntervalSince1970
        let append = Harness.run(repetitions: repetitions, inner: 100) {
            instant += 600
            let day = days.day(of: Date(timeIntervalSince1970: instant))
            _ = growing.append(kilograms: 80, onDay: day)
            blackHole(ProgressCalculator.history(series: growing, today: day, range: .quarter, goalKilograms: input.goal))
        }

        func perEntry(_ seconds: Double) -> Double { seconds * 1e9 / Double(n) }
        return [
            Result(name: "cold", entries: n, nsPerEntry: perEntry(cold.median), minimumNsPerEntry: perEntry(cold.minimum),
                   referenceNsPerEntry: perEntry(reference.median)),
            Result(name: "warm", entries: n, nsPerEntry: perEntry(warm.median), minimumNsPerEntry: perEntry(warm.minimum),
                   referenceNsPerEntry: nil),
            Result(name: "append", entries: n, nsPerEntry: perEntry(append.median), minimumNsPerEntry: perEntry(append.minimum),
                   referenceNsPerEntry: nil),
        ]
    }

    /// The Swift and C results must agree to 1e-9 kg, or the run fails.
    static func verify(_ input: Input) {
        let swift = ProgressCalculator.history(entries: input.entries, localDays: input.localDays, today: input.today,
                                               range: .quarter, goalKilograms: input.goal)
        let c = input.reference()
        var problems: [String] = []
        func check(_ name: String, _ a: Double?, _ b: Double?) {
            switch (a, b) {
            case let (a?, b?) where abs(a - b) <= 1e-9 * max(1, abs(a)): break
            case (nil, nil): break
            default: problems.append("\(name): Swift \(String(describing: a)) C \(String(describing: b))")
            }
        }
        check("points", Double(swift.points.count), Double(c.points))
        check("latest trend", swift.latestTrendKilograms, c.latest_trend)
        check("change", swift.changeKilograms, c.has_change != 0 ? c.change : nil)
        check("average", swift.averageKilograms, c.points > 0 ? c.average : nil)
        check("minimum", swift.minimumKilograms, c.points > 0 ? c.minimum : nil)
        check("maximum", swift.maximumKilograms, c.points > 0 ? c.maximum : nil)
        check("trend sum", swift.points.reduce(0) { $0 + $1.smoothedKilograms }, c.trend_sum)
        check("weekly change", swift.projectedWeeklyChangeKilograms, c.has_slope != 0 ? 7 * c.slope : nil)
        check("goal day", swift.projectedGoalDay.map(Double.init), c.has_projection != 0 ? Double(c.projected_day) : nil)
        if !problems.isEmpty {
            fail("Swift and C disagree at \(input.entries.count) entries:\n  " + problems.joined(separator: "\n  "))
        }
    }

    static func peakResidentMegabytes() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_maxrss) / 1024
    }
}

/// Warm-up, repeated timed runs, median and minimum.
enum Harness {
    struct Timing {
        let median: Double
        let minimum: Double
    }

    /// Times `body` `repetitions` times after two warm-up runs; each timing is
    /// `inner` calls divided by `inner`, for operations too quick to time alone.
    static func run(repetitions: Int, inner: Int = 1, _ body: () -> Void) -> Timing {
        for _ in 0..<2 { body() }
        let clock = ContinuousClock()
        var samples: [Double] = []
        for _ in 0..<repetitions {
            let start = clock.now
            for _ in 0..<inner { body() }
            let elapsed = start.duration(to: clock.now)
            let (seconds, attoseconds) = elapsed.components
            samples.append((Double(seconds) + Double(attoseconds) * 1e-18) / Double(inner))
        }
        samples.sort()
        return Timing(median: samples[samples.count / 2], minimum: samples[0])
    }
}

/// Keeps a value alive past the optimiser: it cannot see through a
/// non-inlined function built without optimisation.
@inline(never)
@_optimize(none)
func blackHole<T>(_ value: T) {
    _ = value
}
