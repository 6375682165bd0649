import Testing
@testable import Habits

/// `habit add` needs no quotes (issue 48): the name is the words before the first word from which the rest
/// reads as a schedule and a target; a schedule's own word is never taken into a name.
@Suite struct HabitPlanNamedTests {
    func named(_ line: String) throws -> (String, HabitPlan) {
        try HabitPlan.named(line.split(separator: " ").map(String.init))
    }

    @Test func aNameOfSeveralWordsWithDigitsEndsWhereTheScheduleBegins() throws {
        let (walk, walkPlan) = try named("Walk 10k steps 5 times a week")
        #expect(walk == "Walk 10k steps")
        #expect(walkPlan.schedule == .timesPerWeek(5))
        let (snacks, snacksPlan) = try named("No snacks after 8pm every day")
        #expect(snacks == "No snacks after 8pm")
        #expect(snacksPlan.schedule == .daily)
        let (water, waterPlan) = try named("Water 8 glasses")
        #expect(water == "Water")
        #expect(waterPlan.kind == .atLeast(8) && waterPlan.unit == "glasses")
        let (gym, gymPlan) = try named("Gym mon,wed,fri")
        #expect(gym == "Gym" && gymPlan.schedule == .weekdays([0, 2, 4]))
        #expect(try named("Café sans sucre").0 == "Café sans sucre")
        #expect(try named("Drink water at least 8 glasses").0 == "Drink water")
    }

    @Test func aTypoInAScheduleIsRefusedNotMadeAName() {
        #expect(throws: HabitPlan.Problem.self) { try named("Read every dya") }
        #expect(throws: HabitPlan.Problem.self) { try named("Gym 3/week extra") }
    }
}
