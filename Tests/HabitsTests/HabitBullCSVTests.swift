import Foundation
import Testing
import TestSupport
@testable import Habits
import Vocabulary

/// HabitBull's CSV export, through Loop's own test files (iSoron/uhabits `uhabits-core/assets/test/habitbull*.csv`,
/// copied unchanged to Tests/Fixtures/loop) and the expectations of Loop's `ImportTest.testHabitBullCSV` 1–4.
@Suite struct HabitBullCSVTests {
    let today = DayNumber.from(year: 2026, month: 6, day: 10)

    func read(_ name: String) throws -> LoopBackup {
        let url = fixtureURL("loop/\(name)")
        #expect(HabitBullCSV.isOne(url))
        return try HabitBullCSV.read(url, today: today)
    }

    func day(_ year: Int, _ month: Int, _ day: Int) -> Int { DayNumber.from(year: year, month: month, day: day) }

    /// testHabitBullCSV: four habits, "Breed dragons" daily, done 18 and 19 March 2016 (with the note "text"), not the 20th.
    @Test func theFirstFile() throws {
        let file = try read("habitbull.csv")
        #expect(file.habits.count == 4)
        let dragons = file.habits[0]
        #expect(dragons.name == "Breed dragons" && dragons.schedule == .daily && dragons.kind == .yesNo)
        #expect(dragons.marks[day(2016, 3, 18)] == .done && dragons.marks[day(2016, 3, 19)] == .done && dragons.marks[day(2016, 3, 20)] == nil)
        #expect(dragons.notes[day(2016, 3, 18)] == "text")
        #expect(file.problems.isEmpty)
    }

    /// testHabitBullCSV2: six habits in US dates; "H3" (third) done 11 April and 7 May 2019, not done 14 June
    /// with the note "Habit 3 notes". HabitBull's -2150000000 is no count: those two rows are left out, their habits kept.
    @Test func theSecondFileInUSDates() throws {
        let file = try read("habitbull2.csv")
        #expect(file.habits.count == 6)
        let h3 = file.habits[2]
        #expect(h3.name == "H3" && h3.kind == .yesNo)
        #expect(h3.marks[day(2019, 4, 11)] == .done && h3.marks[day(2019, 5, 7)] == .done && h3.marks[day(2019, 6, 14)] == .no)
        #expect(h3.notes[day(2019, 4, 11)] == "text" && h3.notes[day(2019, 6, 14)] == "Habit 3 notes")
        #expect(file.problems.count == 2 && file.problems.allSatisfy { $0.contains("'-2150000000' is not a count") })
    }

    /// testHabitBullCSV3: "Pushups" counts (30 on 1 September 2021, 100 on 8 January 2022); "run" is yes or no.
    @Test func aHabitWithCountsIsNumeric() throws {
        let file = try read("habitbull3.csv")
        #expect(file.habits.map(\.name) == ["Pushups", "run"])
        #expect(file.habits[0].kind.isNumeric)
        #expect(file.habits[0].marks[day(2021, 9, 1)] == .value(30) && file.habits[0].marks[day(2022, 1, 8)] == .value(100))
        #expect(file.habits[1].kind == .yesNo)
        #expect([day(2022, 1, 3), day(2022, 1, 18), day(2022, 1, 19)].allSatisfy { file.habits[1].marks[$0] == .done })
        #expect(file.assumptions.count == 1 && file.assumptions[0].hasPrefix("'Pushups': a number a day"))
    }

    /// testHabitBullCSV4: "Caffeine", 80 on 21 and 22 November 2022.
    @Test func theFourthFile() throws {
        let file = try read("habitbull4.csv")
        #expect(file.habits.map(\.name) == ["Caffeine"] && file.habits[0].kind == .atLeast(80))
        #expect(file.habits[0].marks == [day(2022, 11, 21): .value(80), day(2022, 11, 22): .value(80)])
    }

    /// Not HabitBull's: Loop's Checkmarks.csv and a weight file are left to their own readers.
    @Test func otherFilesAreNotTakenForIt() {
        #expect(!HabitBullCSV.isOne(fixtureURL("loop/csv-v2.2/Checkmarks.csv")))
        #expect(!HabitBullCSV.isOne(fixtureURL("loop/loop-backup.db")))
        #expect(HabitBullCSV.day("2/29/2021") == nil && HabitBullCSV.day("2/29/2020") == day(2020, 2, 29) && HabitBullCSV.day("13/1/2020") == nil)
    }
}
