import Testing
@testable import Insights

/// An insight in words (`Insight.sentence`), as `insights`, the check-in and the report all say it: the size to two
/// decimals in the person's unit, its direction, its interval and what it was counted over.
@Suite struct InsightSentenceTests {
    let estimate = Statistics.Estimate(value: -0.18, lower: -0.31, upper: -0.05, pValue: 0.01)

    @Test func aNextMorningInKilogramsAndPounds() {
        let insight = Insight(kind: .nextMorning, habit: "Run", weekday: nil, estimate: estimate, count: 40, otherCount: 120)
        #expect(insight.sentence(unit: .kilograms) == "On mornings after Run, you weighed 0.18 kg less (−0.31 kg to −0.05 kg; 40 mornings against 120).")
        #expect(insight.sentence(unit: .pounds).hasPrefix("On mornings after Run, you weighed 0.40 lb less"))
    }

    @Test func aWeekdayIsNamedInThePlural() {
        let insight = Insight(kind: .weekday, habit: nil, weekday: 0, estimate: estimate, count: 52, otherCount: 0)
        #expect(insight.sentence(unit: .kilograms).hasPrefix("Mondays: 0.18 kg below the line"))
    }
}
