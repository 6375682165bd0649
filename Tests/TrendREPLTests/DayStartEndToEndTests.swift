import Foundation
import Testing
import TestSupport

/// Issue 28, item 2: `set day-starts-at 04:00` holds for every way in from
/// the first command. Before, at 02:30 `trend -c "habit done Read"` marked
/// Tuesday and `habits` showed Tuesday, until a command loaded the settings.
@Suite struct DayStartEndToEndTests {
    /// A Tuesday at 02:30 UTC: with days starting at 04:00 it is still Monday's habit day.
    let night = "2026-03-24 02:30:00"

    func dataDirectory(_ temp: TemporaryDirectory) throws -> [String] {
        let directory = ["--data-dir", temp.url.appendingPathComponent("data").path]
        let setup = try runTrend(directory + ["-c", "habit add Read daily", "-c", "set day-starts-at 04:00", "-c", "set unit lb"],
                                 clock: "2026-03-23 12:00:00")
        #expect(setup.status == 0, "\(setup.standardError)")
        return directory
    }

    /// The days `habit show` reports as done, as dates.
    func doneDays(_ directory: [String]) throws -> [String] {
        let run = try runTrend(directory + ["--json", "-c", "habit show Read"], clock: night)
        let document = try #require(try run.documents().first)
        let days = try #require(document["days"] as? [[String: Any]])
        return days.filter { $0["status"] as? String == "done" }.compactMap { $0["date"] as? String }
    }

    @Test func aMarkMadeWithDashCLandsOnTheHabitDay() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let directory = try dataDirectory(temp)
        let run = try runTrend(directory + ["-c", "habit done Read", "-c", "habits"], clock: night)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("Habits, Mon 23 Mar 2026"), "\(run.standardOutput)")
        #expect(try doneDays(directory) == ["2026-03-23"])
    }

    @Test func aMarkMadeInAScriptLandsOnTheHabitDay() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let directory = try dataDirectory(temp)
        let run = try runTrend(directory + ["--json"], input: "habit done Read\nhabits\n", clock: night)
        #expect(run.status == 0, "\(run.standardError)")
        let documents = try run.documents()
        #expect(documents.last?["date"] as? String == "2026-03-23", "\(run.standardOutput)")
        #expect(try doneDays(directory) == ["2026-03-23"])
    }

    @Test func statusCountsTheHabitDayAndTheUnitHoldsFromTheFirstCommand() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let directory = try dataDirectory(temp)
        // Monday's mark, made on Monday: at 02:30 on Tuesday Monday's habit day is still open, and done.
        #expect(try runTrend(directory + ["-c", "habit done Read"], clock: "2026-03-23 20:00:00").status == 0)
        let status = try runTrend(directory + ["-c", "status"], clock: night)
        #expect(status.standardOutput.contains("habits done"), "\(status.standardOutput)")
        // The unit is the person's from the first command too: 80 typed is 80 lb.
        let weigh = try runTrend(directory + ["--json", "-c", "weigh 180"], clock: night)
        let entry = try #require(try weigh.documents().first?["entry"] as? [String: Any])
        let kilograms = try #require(entry["kilograms"] as? Double)
        #expect(abs(kilograms - 180 * 0.45359237) < 1e-9, "\(weigh.standardOutput)")
    }

    /// Issue 48, item 4: marks made after midnight, before a later day start moves the day back, are not stranded:
    /// `set day-starts-at` names them with the commands that move them, `habit undo` reaches their day, and a late
    /// weigh-in typed after midnight goes on the evening before with `last night`.
    @Test func aLaterDayStartStrandsNoMark() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let directory = ["--data-dir", temp.url.appendingPathComponent("data").path]
        let marked = try runTrend(directory + ["-c", "habit add Water every day target 8", "-c", "habit done Water +3"], clock: "2026-12-19 00:35:00")
        #expect(marked.status == 0, "\(marked.standardError)")
        let moved = try runTrend(directory + ["-c", "set day-starts-at 04:00"], clock: "2026-12-19 00:40:00")
        #expect(moved.standardOutput.contains("Marks made after midnight now fall on the day to come: Water on Sat 19 Dec"), "\(moved.standardOutput)")
        #expect(moved.standardOutput.contains("'habit undo Water 2026-12-19'"), "\(moved.standardOutput)")
        let undone = try runTrend(directory + ["-c", "habit undo Water 2026-12-19", "-c", "habit done Water +3", "--json", "-c", "habits"],
                                  clock: "2026-12-19 00:41:00")
        #expect(undone.status == 0, "\(undone.standardError)")
        let late = try runTrend(directory + ["--json", "-c", "weigh 82.4 last night"], clock: "2026-12-19 00:45:00")
        let entry = try #require(try late.documents().first?["entry"] as? [String: Any])
        #expect((entry["date"] as? String)?.hasPrefix("2026-12-18T23:59") == true, "\(entry)")
    }
}
