import Foundation
import Testing
import TestSupport

/// The habit screens through the built binary, in JSON.
@Suite struct HabitsEndToEndTests {
    /// Issue 28, item 5: `status` reaches "habits done" with an at-most habit: a limit asks nothing of the
    /// day (before, it stayed "1 due" whatever was logged).
    @Test func statusCountsNoLimitAsDue() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let directory = ["--data-dir", temp.url.path]
        let setup = try runTrend(directory + ["-c", "weigh 80", "-c", "habit add Drinks every day at-most 2", "-c", "habit add Read every day"])
        #expect(setup.status == 0, "\(setup.standardError)")
        #expect(try runTrend(directory + ["-c", "status"]).standardOutput.contains("1 due"), "Read is still to do")
        #expect(try runTrend(directory + ["-c", "habit done Read", "-c", "status"]).standardOutput.contains("habits done"))
        #expect(try runTrend(directory + ["-c", "habit done Drinks 1", "-c", "status"]).standardOutput.contains("habits done"))
    }

    /// Issue 48, items 3 and 9: an answered no is not due (`status`, `habits`, its JSON), and down a pipe,
    /// where nothing wraps, a long name is given whole.
    @Test func anAnsweredNoIsNotDueAndAPipeCutsNoName() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let directory = ["--data-dir", temp.url.path]
        let name = "No snacks after 8pm, not even a biscuit"
        let run = try runTrend(directory + ["-c", "habit add \(name) every day", "-c", "habit add Gym every day", "-c", "habit no Gym",
                                            "-c", "habits", "-c", "status"])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("  ○ \(name)  "), "the whole name, due:\n\(run.standardOutput)")
        #expect(run.standardOutput.contains("✗ Gym"), "Gym answered no:\n\(run.standardOutput)")
        #expect(run.standardOutput.contains("1 due"), "only the snacks habit is due:\n\(run.standardOutput)")
        let json = try runTrend(directory + ["--json", "-c", "habits"]).documents()
        let gym = (json.first?["habits"] as? [[String: Any]])?.first { $0["name"] as? String == "Gym" }
        #expect(gym?["dueToday"] as? Bool == false && gym?["status"] as? String == "no")
    }

    @Test func habitsAreAddedMarkedAndListedInJSON() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let directory = ["--data-dir", temp.url.path, "--json"]
        let script = """
        habit add Read every day
        habit add "Drink water" every day target 8
        habit add Gym 3/week
        habit add Drinks every day at-most 2
        habit done Read yesterday
        habit done Read
        habit done "drink water" 6
        habit done Drinks 1
        habit skip Gym
        """
        let setup = try runTrend(directory, input: script)
        #expect(setup.status == 0, "\(setup.standardOutput)")
        #expect(setup.lines.count == 9)

        let list = try #require(try runTrend(directory + ["-c", "habits"]).documents().first)
        #expect((list["date"] as? String)?.count == 10)
        let habits = try #require(list["habits"] as? [[String: Any]])
        #expect(habits.map { $0["name"] as? String } == ["Read", "Drink water", "Gym", "Drinks"])
        let read = habits[0]
        #expect(read["schedule"] as? String == "every day")
        #expect(read["kind"] as? String == "yesNo")
        #expect(read["dueToday"] as? Bool == true)
        #expect(read["doneToday"] as? Bool == true)
        #expect(read["currentStreak"] as? Int == 2)
        #expect(read["bestStreak"] as? Int == 2)
        let strength = try #require(read["strength"] as? Double)
        let m = pow(0.5, 1.0 / 13)
        #expect(abs(strength - (1 - m * m)) < 1e-12)
        let water = habits[1]
        #expect(water["kind"] as? String == "atLeast")
        #expect(water["target"] as? Double == 8)
        #expect(water["doneToday"] as? Bool == false)
        #expect(water["todayValue"] as? Double == 6)
        #expect(habits[2]["skippedToday"] as? Bool == true)
        // Loop's isCompletedToday (models/Habit.kt since 303020a8): an at-most day is never complete while it
        // lasts; its status says it is within its limit.
        #expect(habits[3]["doneToday"] as? Bool == false)
        #expect(habits[3]["status"] as? String == "withinLimit")
        #expect(habits[2]["status"] as? String == "skipped")
        #expect(read["status"] as? String == "done")
    }

    /// Issue 32, item 12: a folder export onto a file says so (it said "A file with the same name already exists").
    @Test func aFolderExportOntoAFileSaysItIsNotAFolder() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let file = temp.url.appendingPathComponent("notes")
        try Data("mine".utf8).write(to: file)
        let run = try runTrend(["--data-dir", temp.url.appendingPathComponent("data").path, "-c", "habit add Read every day",
                                "-c", "habit export \(file.path)"])
        #expect(run.status == 1)
        #expect(run.standardError.contains("cannot write \(file.path): it is there and is not a folder"), "\(run.standardError)")
        #expect(try String(contentsOf: file, encoding: .utf8) == "mine")
    }

    @Test func habitMistakesAreExplainedWithCodes() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let directory = ["--data-dir", temp.url.path, "--json"]
        let run = try runTrend(directory, input: """
        habit add Read every day
        habit add read daily
        habit add Gym 9/week
        habit done Raed
        habit done Read nan
        habit frobnicate
        habit add "Unclosed
        """)
        #expect(run.status == 1)
        let codes = try run.documents().map { ($0["error"] as? [String: Any])?["code"] as? String }
        #expect(codes == [nil, "duplicate", "usage", "not_found", "usage", "usage", "usage"])
    }

    @Test func namesNeedNoQuotesAndSchedulesReadAsSpoken() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let directory = ["--data-dir", temp.url.path, "--json"]
        let run = try runTrend(directory, input: """
        habit add Push ups 3 times a week
        habit add Drink water at least 8
        habit add Morning walk
        habit add Gym mon-fri
        habit add Floss every 3 days
        habit add Read every funday
        """)
        #expect(run.status == 1)
        let documents = try run.documents()
        let names = documents.compactMap { ($0["habit"] as? [String: Any])?["name"] as? String }
        #expect(names == ["Push ups", "Drink water", "Morning walk", "Gym", "Floss"])
        let schedules = documents.compactMap { ($0["habit"] as? [String: Any])?["schedule"] as? String }
        #expect(schedules == ["3/week", "every day", "every day", "mon,tue,wed,thu,fri", "every 3 days"])
        // The schedule word that was not understood is named, and nothing is added.
        let error = try #require(documents.last?["error"] as? [String: Any])
        #expect((error["message"] as? String)?.contains("'funday'") == true)
        let list = try #require(try runTrend(directory + ["-c", "habits"]).documents().first)
        #expect((list["habits"] as? [[String: Any]])?.count == 5)
    }

    @Test func unitsAndEditsKeepTheDaysAndRecomputeTheNumbers() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let directory = ["--data-dir", temp.url.path, "--json"]
        let run = try runTrend(directory, input: """
        habit add Water 8 glasses
        habit done Water 5
        habit done Water +4
        habit edit Water target 10
        habit edit Water schedule 5 times a week
        habit edit Water unit cups
        habit add Read every day
        habit edit Read target 3
        habit edit Nothing target 3
        """)
        #expect(run.status == 1)
        let documents = try run.documents()
        let water = documents.compactMap { $0["habit"] as? [String: Any] }
        #expect(water.first?["unit"] as? String == "glasses" && water.first?["target"] as? Double == 8)
        // 5 then +4 is 9: met at 8, not at 10 once the target changes.
        #expect(water[2]["status"] as? String == "done" && water[2]["todayValue"] as? Double == 9)
        #expect(water[3]["status"] as? String == "partly" && water[3]["target"] as? Double == 10)
        #expect(water[4]["schedule"] as? String == "5/week" && water[4]["todayValue"] as? Double == 9)
        #expect(water[5]["unit"] as? String == "cups")
        let codes = documents.compactMap { ($0["error"] as? [String: Any])?["code"] as? String }
        #expect(codes == ["invalid_habit", "not_found"])
        // Units survive a snapshot and its restore.
        _ = try runTrend(directory + ["-c", "backup now"])
        let restored = try runTrend(directory + ["-c", "restore latest"], input: "y\n")
        #expect(restored.status == 0, "\(restored.standardOutput)")
        let list = try #require(try runTrend(directory + ["-c", "habits"]).documents().first?["habits"] as? [[String: Any]])
        #expect(list.first?["unit"] as? String == "cups")
    }
}
