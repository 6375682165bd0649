import Foundation
import Testing
import TestSupport
import Vocabulary
@testable import TrendREPL

/// Issue 28, item 3: six weeks lived as a new user lives them (weigh-ins in kg, lb and stones, missed days,
/// a late-night and a just-after-midnight weigh-in, a slip taken back, five habits of every kind), and on
/// every day every screen that states a figure states the same one: the trend, the streak, the verdict and
/// the rate behind it, the Monday review against `summary` of the same week, each habit's streak on
/// `habits`, `habit show`, `summary` and `status`.
@MainActor
@Suite struct SixWeeksConsistencyTests {
    /// What is typed on day `day` (0 is Monday 2 March 2026), at a time of that day, and the habit marks.
    static func plan(day: Int) -> (time: String, commands: [String]) {
        let weights = ["82.4", "181.2 lb", "82.1", "", "81.9", "12st 12lb", "82.3", "81.8", "", "", "81.6", "179.5 lb",
                       "81.7", "81.4", "81.5", "81.2", "", "81.3", "81.0", "12st 10lb", "81.1", "80.9", "80.8", "",
                       "81.0", "80.7", "80.8", "80.9", "80.8", "80.9", "80.7", "", "80.8", "80.9", "80.8", "80.6",
                       "80.5", "80.4", "", "80.3", "80.1", "80.2"]
        // A weigh-in late at night, one just after midnight (it counts for the new day), the rest in the morning.
        let time = day == 9 ? "23:50" : (day == 20 ? "00:10" : "07:\(String(format: "%02d", 5 + day % 40))")
        var commands: [String] = []
        if !weights[day].isEmpty { commands.append("weigh \(weights[day])") }
        if day == 0 {
            commands += ["goal 76", "habit add Read every day", "habit add \"Drink water\" every day at-least 8 glasses",
                         "habit add Gym 3/week", "habit add Drinks every day at-most 2", "habit add Piano mon,wed,fri"]
        }
        if day == 12 { commands += ["weigh 817", "delete last"] }  // A slip: 817 kg is refused; nothing to take back but the last.
        if day % 3 != 2 { commands.append("habit done Read") }
        commands.append("habit done \"Drink water\" \(day % 4 == 0 ? 6 : 9)")
        if day % 7 == 1 || day % 7 == 3 || day % 7 == 5 { commands.append("habit done Gym") }
        if day % 5 == 0 { commands.append("habit done Drinks \(day % 10 == 0 ? 3 : 1)") }
        if day % 7 == 0 || day % 7 == 4 { commands.append("habit done Piano") }
        return (time, commands)
    }

    @Test func everyScreenStatesTheSameFiguresOnEveryDay() async throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let clock = TestClock(date("2026-03-02 07:00", zone: "Europe/London"))
        let graph = makeTestApp(clock: clock, calendar: calendar(zone: "Europe/London"), directory: temp.url)
        let json = ReplSession(app: graph.app, json: true, style: .plain, isInteractive: false)
        func document(_ line: String) async throws -> [String: Any] {
            let result = await json.execute(line)
            return try #require(try JSONSerialization.jsonObject(with: Data(result.text.utf8)) as? [String: Any], "\(line): \(result.text)")
        }
        let start = DayNumber.from(year: 2026, month: 3, day: 2)
        var reviews = 0, resets = 0, rates = 0
        for day in 0..<42 {
            let (time, commands) = Self.plan(day: day)
            clock.now = date("\(DayNumber.string(start + day)) \(time)", zone: "Europe/London")
            await graph.app.applicationSignificantTimeChange()
            // The first check-in of a Monday (the weigh-in's, or `today`'s) carries last week's review.
            var review: [String: Any]?
            for command in commands {
                let answer = try? JSONSerialization.jsonObject(with: Data((await json.execute(command)).text.utf8)) as? [String: Any]
                review = review ?? ((answer?["checkIn"] as? [String: Any])?["weekReview"] as? [String: Any])
            }
            let label = "day \(day) (\(DayNumber.string(start + day)))"

            let today = try await document("today"), status = try await document("status"), streak = try await document("streak")
            let progress = try await document("progress all")
            // One trend, one streak, one verdict.
            #expect(today["trendKilograms"] as? Double == status["trendKilograms"] as? Double, "\(label)")
            #expect(today["trendKilograms"] as? Double == progress["latestTrendKilograms"] as? Double, "\(label)")
            #expect(today["currentStreak"] as? Int == status["currentStreak"] as? Int, "\(label)")
            #expect(today["currentStreak"] as? Int == streak["currentStreak"] as? Int, "\(label)")
            #expect(today["verdict"] as? String == status["verdict"] as? String, "\(label)")
            // A rate, its calories and a goal date, or the reason for none: never both, never neither.
            let rate = progress["projectedWeeklyChangeKilograms"] as? Double
            #expect((rate == nil) == (progress["rateUnavailableReason"] is String), "\(label)")
            if let rate {
                rates += 1
                #expect(abs((progress["energyBalanceKilocaloriesPerDay"] as? Double ?? .nan) - rate / 7 * 7_700) < 1e-6, "\(label)")
            } else {
                #expect(progress["projectedGoalDate"] is NSNull, "\(label): no goal date without a rate")
            }
            // A reset is a fortnight the summary rates as flat: the same rule, the same figure.
            if today["verdict"] as? String == "timeForReset" {
                resets += 1
                let fortnight = try await document("summary \(DayNumber.string(start + day - 13))..\(DayNumber.string(start + day))")
                let flat = try #require(fortnight["weeklyRateKilograms"] as? Double, "\(label): a reset with no rate")
                #expect(-flat <= 0.1, "\(label): reset while the summary's rate is \(flat)")
            }
            // The Monday review is the summary of last week.
            if let review = review ?? today["weekReview"] as? [String: Any], let from = review["start"] as? String, let to = review["end"] as? String {
                reviews += 1
                let summary = try await document("summary \(from)..\(to)")
                #expect(review["daysWeighed"] as? Int == summary["daysWeighed"] as? Int, "\(label)")
                #expect(review["trendChangeKilograms"] as? Double == summary["trendChangeKilograms"] as? Double, "\(label)")
                #expect(review["weeklyRateKilograms"] as? Double == summary["weeklyRateKilograms"] as? Double, "\(label)")
            }
            // Each habit: the same streak and the same "due" on every screen.
            let habits = try #require((try await document("habits"))["habits"] as? [[String: Any]])
            let week = try await document("summary week")
            let weekHabits = week["habits"] as? [[String: Any]] ?? []
            var due = 0
            for habit in habits {
                let name = try #require(habit["name"] as? String)
                let shown = try #require((try await document("habit show \"\(name)\""))["habit"] as? [String: Any])
                #expect(shown["currentStreak"] as? Int == habit["currentStreak"] as? Int, "\(label) \(name)")
                #expect(shown["strength"] as? Double == habit["strength"] as? Double, "\(label) \(name)")
                #expect(weekHabits.first { $0["name"] as? String == name }?["currentStreak"] as? Int == habit["currentStreak"] as? Int, "\(label) \(name)")
                // Still due: scheduled today and not done; a limit is never due (there is nothing to do for it).
                if habit["dueToday"] as? Bool == true, habit["doneToday"] as? Bool != true, habit["kind"] as? String != "atMost" { due += 1 }
            }
            #expect(status["habitsDue"] as? Int == due, "\(label): status says \(status["habitsDue"] ?? "nil") due, habits \(due)")
        }
        // The six weeks saw each of these, or the comparisons above proved nothing.
        #expect(reviews == 5, "a review on each Monday after the first")
        #expect(resets > 0 && rates > 0, "resets \(resets), days with a rate \(rates)")
    }
}
