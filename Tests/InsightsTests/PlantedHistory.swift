import Foundation
import Insights
import Vocabulary

/// A seeded, realistic history with effects planted at known sizes, as
/// issue 30 describes it: a loss of 0.5 kg a week in diet phases of 16
/// weeks between as many of maintenance, daily noise of σ 0.5 kg,
/// a weekend bump (Saturday +0.2, Sunday +0.4, Monday +0.3 kg), one day in
/// ten not weighed, a week's holiday every 4 months that ends 1 kg heavier,
/// and habits done at everyday rates:
///
/// - Drinks on 25 % of weekdays and 50 % of Fridays and Saturdays: the next
///   morning is `drinks` kg heavier (water, gone a day later);
/// - Gym 0 to 5 times a week: a week of 3 or more sessions drifts `gym` kg more;
/// - Read, Walk, Water and Floss, done at their own rates, with no effect at all.
struct PlantedHistory {
    var drinks = 0.4
    var gym = -0.2
    var weekendBump = true
    var eveningGain: Double? = 0.9
    var days = 3_650

    /// The first day: Monday 5 January 2015.
    let start = DayNumber.from(year: 2015, month: 1, day: 5)

    func input(seed: UInt64) -> InsightsInput {
        var random = SplitMix64(seed: seed)
        func uniform() -> Double { Double(random.next() >> 11) / Double(1 << 53) }
        func normal() -> Double { (-2 * log(max(uniform(), 1e-300))).squareRoot() * cos(2 * .pi * uniform()) }
        var level = 95.0
        var done: [String: Set<Int>] = ["Drinks": [], "Gym": [], "Read": [], "Walk": [], "Water": [], "Floss": []]
        // In a fixed order: the draws must not follow a dictionary's.
        let rates: [(String, Double)] = [("Read", 0.6), ("Walk", 0.45), ("Water", 0.8), ("Floss", 0.3)]
        var gymWeek = false
        var weighIns: [InsightsInput.WeighIn] = []
        for offset in 0..<days {
            let day = start + offset
            let weekday = DayNumber.weekdayFromMonday(day)
            if weekday == 0 {
                let sessions = (0..<5).filter { _ in uniform() < 0.5 }.count
                var chosen = Set<Int>()
                while chosen.count < sessions { chosen.insert(Int(uniform() * 7)) }
                for session in chosen { done["Gym"]!.insert(day + session) }
                gymWeek = sessions >= 3
            }
            if uniform() < (weekday >= 4 && weekday <= 5 ? 0.5 : 0.25) { done["Drinks"]!.insert(day) }
            for (name, rate) in rates where uniform() < rate { done[name]!.insert(day) }
            // Diet phases of 16 weeks at −0.5 kg a week between phases of maintenance, drawn back toward 85 kg
            // (0.5 % of the distance a day), so ten years stay within a body's range.
            let dieting = (offset / 112) % 2 == 0
            level += (dieting ? -0.5 / 7 : 0) + (gymWeek ? gym / 7 : 0) - 0.005 * (level - 85)
            let holiday = offset % 120 >= 113
            if offset % 120 == 119 { level += 1 }
            guard !holiday, uniform() >= 0.1 else { continue }
            var morning = level + 0.5 * normal()
            if weekendBump { morning += [0.3, 0, 0, 0, 0, 0.2, 0.4][weekday] }
            if done["Drinks"]!.contains(day - 1) { morning += drinks }
            weighIns.append(InsightsInput.WeighIn(day: day, minute: 7 * 60 + Int(uniform() * 60), kilograms: morning))
            if let eveningGain, uniform() < 0.2 {
                weighIns.append(InsightsInput.WeighIn(day: day, minute: 21 * 60, kilograms: morning + eveningGain + 0.4 * normal()))
            }
        }
        let quotas = ["Gym": 3, "Drinks": 2, "Read": 5, "Walk": 3, "Water": 5, "Floss": 2]
        return InsightsInput(weighIns: weighIns,
                             habits: done.keys.sorted().map { InsightsInput.Habit(name: $0, firstDay: start, doneDays: done[$0]!, weeklyQuota: quotas[$0]!) },
                             today: start + days - 1)
    }
}
