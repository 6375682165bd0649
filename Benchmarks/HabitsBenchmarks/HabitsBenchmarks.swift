import AppCore
import Foundation
import Habits
import Insights
import Storage

/// Issue 13's cost case: 50 habits with a century of daily history (Loop
/// users bring years of it). Times loading every habit from SQLite and the
/// numbers `habits` shows (computed entries, strength, streaks, today), with
/// the reference measured in the same run: a bare SQLite scan of the same
/// rows, the floor any loader pays.
///
///     swift run -c release HabitsBenchmarks [--smoke] [--habits N] [--years N]
@main
struct HabitsBenchmarks {
    static func main() throws {
        var habitCount = 50, years = 100, repetitions = 5
        var arguments = CommandLine.arguments.dropFirst()
        while let argument = arguments.popFirst() {
            switch argument {
            case "--smoke": (habitCount, years, repetitions) = (3, 2, 1)
            case "--habits": habitCount = arguments.popFirst().flatMap { Int($0) } ?? habitCount
            case "--years": years = arguments.popFirst().flatMap { Int($0) } ?? years
            default:
                print("usage: HabitsBenchmarks [--smoke] [--habits N] [--years N]")
                exit(2)
            }
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trend-habits-bench-\(getpid())")
        defer { try? FileManager.default.removeItem(at: directory) }  // A temporary folder; nothing to report if it lingers.
        let store = LocalDataStore(directory: directory, schema: .trend)
        let today = 20_000, days = years * 365
        // Every kind and schedule Loop has, with done, skipped and no days and gaps.
        let schedules: [HabitSchedule] = [.daily, .timesPerWeek(3), .timesPerDays(times: 2, days: 10), .weekdays([0, 2, 4])]
        let kinds: [HabitKind] = [.yesNo, .yesNo, .atLeast(8), .atMost(2)]
        try store.write { connection in
            for index in 0..<habitCount {
                var marks: [Int: HabitMark] = [:]
                let kind = kinds[index % kinds.count]
                for offset in 0..<days where (offset * 7 + index) % 5 != 0 {
                    let day = today - offset
                    switch kind {
                    case .yesNo: marks[day] = offset % 11 == 0 ? .skipped : (offset % 13 == 0 ? .no : .done)
                    case .atLeast, .atMost: marks[day] = .value(Double((offset * 31 + index) % 12))
                    }
                }
                let habit = Habit(name: "Habit \(index)", schedule: schedules[index % schedules.count], kind: kind,
                                  createdDay: today - days + 1, marks: marks)
                try HabitsTable.insert(habit, in: connection)
            }
        }
        let rows = habitCount * days * 4 / 5
        print("HabitsBenchmarks: \(habitCount) habits, \(years) years, about \(rows) stored days; seconds, median (min) of \(repetitions)")

        let scan = try time(repetitions) {
            _ = try store.read { try $0.query("SELECT habit_id, day, status, value FROM habit_records") { _ in () } }.count
        }
        var loaded: [Habit] = []
        let load = try time(repetitions) { loaded = try store.read { try HabitsTable.allHabits(in: $0) } }
        var checksum = 0.0
        let numbers = try time(repetitions) {
            checksum = 0
            for habit in loaded {
                let statistics = HabitStatistics(habit: habit, today: today)
                let computed = statistics.computedEntries()
                let streaks = statistics.streaks(computed: computed)
                checksum += (statistics.strengths(computed: computed).last ?? 0) + Double(statistics.currentStreak(streaks: streaks))
                _ = statistics.todayStatus(computed: computed)
            }
        }
        print("  reference: SQLite scan of the rows  \(scan)")
        print("  load every habit                    \(load)")
        print("  habits' numbers (strength, streaks) \(numbers)")
        print("  load + numbers vs scan              \(String(format: "%.1f", (load.median + numbers.median) / max(scan.median, 1e-9)))x  (checksum \(String(format: "%.3f", checksum)))")
        try insights(years: min(years, 10), repetitions: repetitions)
    }

    /// Issue 30's case: `insights` over ten years of daily weigh-ins and 20
    /// habits (target: 50 ms), beside its floor, one pass that groups the same
    /// weigh-ins by day (what any reader of them pays).
    static func insights(years: Int, repetitions: Int) throws {
        let days = years * 365, first = 16_000
        var weighIns: [InsightsInput.WeighIn] = []
        for offset in 0..<days where offset % 10 != 3 {
            let wobble = Double((offset * 37) % 100) / 100 - 0.5
            weighIns.append(InsightsInput.WeighIn(day: first + offset, minute: 420 + offset % 60, kilograms: 90 - Double(offset) * 0.001 + wobble))
        }
        let habits = (0..<20).map { index in
            InsightsInput.Habit(name: "Habit \(index)", firstDay: first,
                                doneDays: Set((0..<days).filter { (($0 &* 2_654_435_761 &+ index &* 40_503) >> 9) % 10 < 4 }.map { first + $0 }),
                                weeklyQuota: 3)
        }
        let input = InsightsInput(weighIns: weighIns, habits: habits, today: first + days - 1)
        var groups = 0
        let floor = try time(repetitions) { groups = Dictionary(grouping: input.weighIns, by: \.day).count }
        var tested = 0
        let report = try time(repetitions) { tested = InsightsCalculator.report(input).tested.count }
        print("InsightsBenchmarks: \(years) years, \(weighIns.count) weigh-ins, \(habits.count) habits; seconds, median (min) of \(repetitions)")
        print("  reference: weigh-ins grouped by day \(floor)  (\(groups) days)")
        print("  insights report                     \(report)  (\(tested) tests; target 0.050)")
        print("  insights vs grouping                \(String(format: "%.1f", report.median / max(floor.median, 1e-9)))x")
    }

    struct Timing: CustomStringConvertible {
        let median: Double, minimum: Double
        var description: String { String(format: "%.3f (%.3f)", median, minimum) }
    }

    static func time(_ repetitions: Int, _ body: () throws -> Void) throws -> Timing {
        try body()
        let clock = ContinuousClock()
        var samples: [Double] = []
        for _ in 0..<repetitions {
            let start = clock.now
            try body()
            let (seconds, attoseconds) = start.duration(to: clock.now).components
            samples.append(Double(seconds) + Double(attoseconds) * 1e-18)
        }
        samples.sort()
        return Timing(median: samples[samples.count / 2], minimum: samples[0])
    }
}
