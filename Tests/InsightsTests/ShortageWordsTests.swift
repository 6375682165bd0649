import Foundation
import Testing
import Vocabulary
@testable import Insights

/// Issue 63, item 5: a test that cannot be run says the actual reason, in counts that never pass their totals.
/// Each case is a history built for it: mornings weighed every day of 12 weeks (a Monday start), noise around 80 kg.
@Suite struct ShortageWordsTests {
    let first = DayNumber.from(year: 2026, month: 3, day: 2)  // A Monday.

    func report(done: (Int) -> Bool, weeks: Int = 12) -> InsightsReport {
        var random = SplitMix64(seed: 7)
        let days = (0..<(weeks * 7)).map { first + $0 }
        let weighIns = days.map { InsightsInput.WeighIn(day: $0, minute: 420, kilograms: 80 + Double(random.next() % 100) / 250) }
        let habit = InsightsInput.Habit(name: "Run", firstDay: first, doneDays: Set(days.filter { done($0 - first) }), weeklyQuota: 3)
        return InsightsCalculator.report(InsightsInput(weighIns: weighIns, habits: [habit], today: days.last ?? first), patterns: false)
    }

    func shortage(_ report: InsightsReport, _ kind: Insight.Kind) -> InsightShortage? { report.shortages.first { $0.kind == kind } }

    /// The "mornings 11 of 10" of the eight weeks: both sides have enough, yet the test cannot run, because the
    /// habit's days (Mondays) and the others never share a weekday. It says so, not a count against itself.
    @Test func enoughOnBothSidesButNoSharedWeekdaySaysSo() throws {
        let found = try #require(shortage(report { $0 % 7 == 0 }, .nextMorning))
        #expect(found.reason == .notComparable && found.with >= found.need && found.without >= found.need)
        #expect(found.explanation.contains("never fall twice on one weekday") && !found.explanation.contains(" of \(found.need)"), "\(found.explanation)")
    }

    /// Done every day but a few: every counted morning (after a day without it) had it. The reason is that, not "done
    /// on every morning", which the calendar's missed days would belie.
    @Test func doneOnEveryCountedDaySaysWhichDaysCount() throws {
        let found = try #require(shortage(report { ![10, 30, 50].contains($0) }, .nextMorning))
        #expect(found.reason == .neverWithout && found.with == 3 && found.without == 0)
        #expect(found.explanation.contains("every weighed day that followed a day without it"), "\(found.explanation)")
    }

    /// Too few on one side: both counts, and what is needed, each no more than its own total.
    @Test func tooFewGivesBothCountsAndWhatIsNeeded() throws {
        let found = try #require(shortage(report(done: { [3, 10, 17, 24, 40, 60].contains($0) }, weeks: 12), .nextMorning))
        #expect(found.reason == .tooFew)
        #expect(found.explanation.hasPrefix("\(found.with) weighed days with it and \(found.without) without"), "\(found.explanation)")
        let weekly = try #require(shortage(report(done: { [3, 10, 17, 24, 40, 60].contains($0) }, weeks: 12), .weekly))
        #expect(weekly.reason == .neverWith && weekly.explanation == "no weighed week (4 mornings or more) has met its quota yet")
    }

    @Test func nothingWeighedYetSaysWhatIsNeeded() {
        let none = InsightsCalculator.report(InsightsInput(weighIns: [], habits: [InsightsInput.Habit(name: "Run", firstDay: first, doneDays: [], weeklyQuota: 3)],
                                                           today: first), patterns: false)
        #expect(none.shortages.map(\.explanation) == [
            "no weighed day to count yet; 10 with it and 10 without, each after a day without it, are needed",
            "no weighed week (4 mornings or more) yet; 8 that meet its quota and 8 that do not are needed",
        ])
    }
}
