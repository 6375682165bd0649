import Foundation
import ProgressReference
import Vocabulary
import WeightLog

/// A deterministic, realistic history: 1–3 weigh-ins a day at random
/// times, now and then a gap of up to 10 days, a slow drift with noise, in a
/// time zone with daylight saving.
struct Input {
    let entries: [WeightEntry]
    let instants: [Double]
    let kilograms: [Double]
    let localDays: LocalDays
    let today: Int
    let goal: Double?

    static func generate(entries count: Int, seed: UInt64, timeZone: TimeZone) -> Input {
        var random = SplitMix64(seed: seed)
        // Long histories run past 2200, so the zone's table covers the span generated.
        let startDay = DayNumber.from(year: 1990, month: 1, day: 1)
        let approximateDays = count / 2 + count / 10 + 10
        let localDays = LocalDays(timeZone: timeZone, from: Date(timeIntervalSince1970: Double(startDay) * 86_400),
                                  to: Date(timeIntervalSince1970: Double(startDay + approximateDays * 2) * 86_400))
        var entries: [WeightEntry] = []
        entries.reserveCapacity(count)
        var day = startDay
        var weight = 90.0
        while entries.count < count {
            if random.next() % 10 == 0 { day += Int(random.next() % 10) + 1 }
            let perDay = Int(random.next() % 3) + 1
            var minutes = (6 * 60 + Int(random.next() % 120)) * 60
            for _ in 0..<perDay where entries.count < count {
                let instant = localDays.instant(localSeconds: Double(day) * 86_400 + Double(minutes))
                weight += (Double(random.next() % 1_000) / 1_000 - 0.52) * 0.3
                weight = min(max(weight, 50), 150)
                entries.append(WeightEntry(id: String(entries.count), date: instant,
                                           kilograms: weight + Double(random.next() % 100) / 100))
                minutes += 3_600 * (Int(random.next() % 6) + 1)
            }
            day += 1
        }
        entries.sort { $0.date < $1.date }
        let today = localDays.day(of: entries[entries.count - 1].date)
        return Input(entries: entries, instants: entries.map(\.date.timeIntervalSince1970), kilograms: entries.map(\.kilograms),
                     localDays: localDays, today: today, goal: (entries.last?.kilograms ?? 80) - 5)
    }

    /// The C reference on the same arrays and the same time zone table.
    func reference() -> pr_result {
        let n = instants.count
        var days = [Int](repeating: 0, count: n)
        var means = [Double](repeating: 0, count: n)
        var smoothed = [Double](repeating: 0, count: n)
        var result = pr_result()
        instants.withUnsafeBufferPointer { instants in
            kilograms.withUnsafeBufferPointer { kilograms in
                localDays.transitions.withUnsafeBufferPointer { transitions in
                    localDays.offsets.withUnsafeBufferPointer { offsets in
                        days.withUnsafeMutableBufferPointer { days in
                            means.withUnsafeMutableBufferPointer { means in
                                smoothed.withUnsafeMutableBufferPointer { smoothed in
                                    pr_compute(instants.baseAddress, kilograms.baseAddress, n,
                                               transitions.baseAddress, offsets.baseAddress, transitions.count,
                                               today, 90, goal == nil ? 0 : 1, goal ?? 0, WeightGoal.atGoalKilograms,
                                               days.baseAddress, means.baseAddress, smoothed.baseAddress, &result)
                                }
                            }
                        }
                    }
                }
            }
        }
        return result
    }
}
