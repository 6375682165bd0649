@testable import Habits
import Testing

/// The grammar of a habit's plan lives beside the schedule and kind it makes (`HabitPlan`), outside the presentation target.
@Suite struct HabitPlanTests {
    @Test func aPlanIsReadAsPeopleTypeIt() throws {
        #expect(try HabitPlan.parse(["every", "day"]) == HabitPlan(schedule: .daily, kind: .yesNo, unit: ""))
        #expect(try HabitPlan.parse(["3/week"]) == HabitPlan(schedule: .timesPerWeek(3), kind: .yesNo, unit: ""))
        #expect(try HabitPlan.parse(["every", "day", "target", "8", "glasses"]) == HabitPlan(schedule: .daily, kind: .atLeast(8), unit: "glasses"))
        #expect(try HabitPlan.parse(["daily", "at", "most", "2"]) == HabitPlan(schedule: .daily, kind: .atMost(2), unit: ""))
        #expect(try HabitPlan.parse(["every", "day", "8", "Glasses"]) == HabitPlan(schedule: .daily, kind: .atLeast(8), unit: "Glasses"))
        #expect(try HabitPlan.parse(["mon,wed,fri"]).schedule == .weekdays([0, 2, 4]))
    }

    @Test func whatIsNotAPlanSaysWhichWord() {
        #expect(throws: HabitPlan.Problem.needsNumber(marker: "at most")) { try HabitPlan.parse(["daily", "at", "most"]) }
        #expect(throws: HabitPlan.Problem.unreadableSchedule(word: "funday")) { try HabitPlan.parse(["every", "funday"]) }
        #expect(HabitPlan.looksLikeSchedule("3/week") && HabitPlan.looksLikeSchedule("every") && !HabitPlan.looksLikeSchedule("Read"))
    }
}
