import Foundation
import Testing
@testable import Habits

/// What a suite replaying Loop Habit Tracker's own expectations (iSoron/uhabits jvmTest) needs: habits
/// whose marks are given in days before `today`, as Loop's tests write them, and their scores newest first.
protocol LoopReplay {
    var today: Int { get }
}

extension LoopReplay {
    func habit(_ schedule: HabitSchedule, _ kind: HabitKind = .yesNo, daysAgo marks: [Int: HabitMark]) -> Habit {
        Habit(name: "h", schedule: schedule, kind: kind, createdDay: today - (marks.keys.max() ?? 0),
              marks: Dictionary(uniqueKeysWithValues: marks.map { (today - $0.key, $0.value) }))
    }

    /// Scores newest first, as Loop's `checkScoreValues` reads them.
    func scores(_ habit: Habit) -> [Double] { HabitStatistics(habit: habit, today: today).strengths().reversed() }
    func strength(_ habit: Habit) -> Double { scores(habit).first ?? 0 }

    /// Loop checks scores to 1e-6; a day past the walk's start is 0.
    func expect(_ actual: [Double], _ expected: [Double], sourceLocation: SourceLocation = #_sourceLocation) {
        for (index, wanted) in expected.enumerated() {
            let got = index < actual.count ? actual[index] : 0
            #expect(abs(got - wanted) < 1e-6, "day −\(index): \(got) vs \(wanted)", sourceLocation: sourceLocation)
        }
    }
}
