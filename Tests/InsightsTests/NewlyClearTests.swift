import Foundation
import Testing
import Vocabulary
@testable import Insights

/// Issue 30, item 2: the Monday review may name one association that holds now and did not a week ago.
@MainActor
@Suite struct NewlyClearTests {
    /// 90 mornings of noise around a steady 80 kg; Drinks on ten days five apart, the tenth 3 days ago,
    /// each followed by a morning 1 kg heavier: ten mornings now, nine a week ago (too few to test).
    func input(drinksDays: Int = 10) -> InsightsInput {
        var random = SplitMix64(seed: 42)
        func noise() -> Double { (Double(random.next() >> 11) / Double(1 << 53) - 0.5) * 0.6 }
        let today = DayNumber.from(year: 2026, month: 6, day: 15)
        let drinks = Set((0..<drinksDays).map { today - 3 - 5 * (drinksDays - 1 - $0) })
        let weighIns = (0..<90).map { back -> InsightsInput.WeighIn in
            let day = today - 89 + back
            return InsightsInput.WeighIn(day: day, minute: 420, kilograms: 80 + noise() + (drinks.contains(day - 1) ? 1 : 0))
        }
        return InsightsInput(weighIns: weighIns, habits: [InsightsInput.Habit(name: "Drinks", firstDay: today - 89, doneDays: drinks, weeklyQuota: 2)],
                             today: today)
    }

    @Test func anAssociationThatBecameClearThisWeekIsNamed() async throws {
        let fresh = try await InsightsFeature { input() }.newlyClear()
        #expect(fresh?.kind == .nextMorning && fresh?.habit == "Drinks", "\(String(describing: fresh))")
        // One that held a week ago already is not news.
        let old = try await InsightsFeature { input(drinksDays: 14) }.newlyClear()
        #expect(old == nil, "\(String(describing: old))")
    }
}
