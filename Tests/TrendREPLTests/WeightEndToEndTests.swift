import Foundation
import Testing
import TestSupport
@testable import TrendREPL
import Vocabulary

/// The weigh-in and progress screens through the built binary.
@Suite struct WeightEndToEndTests {
    static let script = """
    weigh 80 2026-01-01
    weigh 81 2026-01-02
    weigh 79 2026-01-04 07:30 note after a run
    weigh 180 lb 2026-01-04 20:00
    """

    @Test func aScriptOfWeighInsThenProgressAndTodayInJSON() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let directory = ["--data-dir", temp.url.path]
        let recorded = try runTrend(directory + ["--json"], input: Self.script)
        #expect(recorded.status == 0, "\(recorded.standardOutput)\(recorded.standardError)")
        let weighs = try recorded.documents()
        #expect(weighs.count == 4)
        let third = try #require(weighs[2]["entry"] as? [String: Any])
        #expect(third["note"] as? String == "after a run")
        #expect(third["date"] as? String == "2026-01-04T07:30:00Z")
        #expect(weighs[0]["checkIn"] is [String: Any])

        let progress = try #require(try runTrend(directory + ["--json", "-c", "progress all"]).documents().first)
        #expect(progress["range"] as? String == "all")
        let points = try #require(progress["points"] as? [[String: Any]])
        #expect(points.map { $0["date"] as? String } == ["2026-01-01", "2026-01-02", "2026-01-04"])
        let day3 = (79 + 180 * 0.45359237) / 2
        let kilograms = points.compactMap { $0["kilograms"] as? Double }
        #expect(kilograms.count == 3 && abs(kilograms[2] - day3) < 1e-9)
        // Trend by hand: 80, 80.1, then a two-day gap: 80.1 + 0.19·(day3 − 80.1).
        let trend = points.compactMap { $0["smoothedKilograms"] as? Double }
        #expect(trend.count == 3)
        #expect(abs(trend[1] - 80.1) < 1e-9)
        #expect(abs(trend[2] - (80.1 + 0.19 * (day3 - 80.1))) < 1e-9)
        #expect(abs((progress["changeKilograms"] as? Double ?? 0) - (trend[2] - 80)) < 1e-9)
        #expect(progress["averageKilograms"] is Double)
        #expect(progress["minimumKilograms"] as? Double == 80)
        #expect(progress["maximumKilograms"] as? Double == 81)
        #expect(progress["projectedWeeklyChangeKilograms"] is NSNull)
        #expect(progress["projectedGoalDate"] is NSNull)
        #expect(progress["projectionUnavailableReason"] as? String == "no goal")
        #expect(progress["goalKilograms"] is NSNull)
        #expect(progress["commentary"] is String)

        let today = try #require(try runTrend(directory + ["--json", "-c", "today"]).documents().first)
        // The latest weigh-in at its time (the evening one), not the day's mean; the mean is only today's.
        #expect(abs((today["latestKilograms"] as? Double ?? 0) - 180 * 0.45359237) < 1e-9)
        #expect(today["latestAt"] as? String == "2026-01-04T20:00:00Z")
        #expect(today["dayMeanKilograms"] is NSNull)
        #expect(today["toGoalKilograms"] is NSNull && today["bmi"] is NSNull)
        #expect(abs((today["trendKilograms"] as? Double ?? 0) - trend[2]) < 1e-9)
        // Day 3 (the mean of 79 kg and 180 lb) is 0.68 kg below day 2.
        #expect(today["verdict"] as? String == "movingDownward")
        #expect(today["currentStreak"] as? Int == 0)
        let tip = try #require(today["tip"] as? [String: Any])
        #expect(tip["id"] is String && tip["text"] is String && tip["category"] is String)
        #expect(today["weekAhead"] is NSNull || today["weekAhead"] is String)
        #expect((today["date"] as? String)?.count == 10)
    }

    @Test func aMondayCheckInReviewsLastWeekOnceAndAStreakRaisesItsPepTalkOnce() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let directory = ["--data-dir", temp.url.path, "--json"]
        let week = (1...7).map { "weigh \(80 - Double($0) / 10) 2026-06-0\($0) 07:00" }.joined(separator: "\n")
        let weighs = try runTrend(directory, input: week, clock: "2026-06-07 20:00:00").documents()
        let pepTalks = weighs.compactMap { ($0["checkIn"] as? [String: Any])?["pepTalk"] as? [String: Any] }
        #expect(pepTalks.map { $0["event"] as? String } == ["streak7"], "the seventh day in a row, once")
        #expect(pepTalks.first?["id"] is String && pepTalks.first?["text"] is String)

        let monday = try runTrend(directory + ["-c", "today", "-c", "today"], clock: "2026-06-08 08:00:00").documents()
        #expect(monday.count == 2)
        let review = try #require(monday[0]["weekReview"] as? [String: Any])
        #expect(review["start"] as? String == "2026-06-01" && review["end"] as? String == "2026-06-07")
        #expect(review["daysWeighed"] as? Int == 7)
        #expect(review["habitsDone"] as? Int == 0 && review["habitsDue"] as? Int == 0)
        // A week is too short for an honest rate (WeightRate: 8 weighed days over 2 weeks); the review says so.
        #expect(review["weeklyRateKilograms"] is NSNull, "a one-week line is tilted by a weekend")
        #expect((review["trendChangeKilograms"] as? Double ?? 0) < 0)
        #expect(review["bestDay"] as? String == "2026-06-07")
        #expect(review["comparedWithPreviousWeek"] is String)
        #expect(monday[0]["weekAhead"] is String && monday[0]["pepTalk"] is NSNull)
        #expect(monday[1]["weekReview"] is NSNull && monday[1]["weekAhead"] is NSNull, "the first check-in only")
        #expect((monday[0]["tip"] as? [String: Any])?["id"] as? String == (monday[1]["tip"] as? [String: Any])?["id"] as? String)
    }

    @Test func badWeighInsAreExplainedAndChangeNothing() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let directory = ["--data-dir", temp.url.path]
        let bad = try runTrend(directory + ["-c", "weigh 600", "-c", "weigh abc", "-c", "weigh 80 2026-02-30",
                                            "-c", "weigh 80 tomorrow", "-c", "weigh", "-c", "delete zzzz", "-c", "undo"])
        #expect(bad.status == 1)
        let messages = bad.standardError.split(separator: "\n").map(String.init)
        #expect(messages.count == 7)
        #expect(messages[0].contains("outside the accepted 20–500 kg"))
        #expect(messages[1].contains("'abc' is not a weight"))
        #expect(messages[2].contains("'2026-02-30' is not a real date"))
        #expect(messages[3].contains("did not understand 'tomorrow'"))
        #expect(messages[4].contains("needs a weight"))
        #expect(messages[5].contains("no entry has an id starting with 'zzzz'"))
        #expect(messages[6].contains("nothing to undo"))
        let entries = try #require(try runTrend(directory + ["--json", "-c", "entries all"]).documents().first)
        #expect((entries["entries"] as? [Any])?.isEmpty == true)
    }

    @Test func theProgressChartIsDrawnInTheDisplayUnit() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let directory = ["--data-dir", temp.url.path]
        _ = try runTrend(directory + ["-c", "set unit lb"], input: nil)
        _ = try runTrend(directory, input: Self.script + "\ngoal 170 lb\n")
        let run = try runTrend(directory + ["-c", "progress all"], environment: ["COLUMNS": "100"])
        #expect(run.status == 0)
        let lines = run.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.contains("lb └") })
        #expect(lines.contains { $0.range(of: #"[A-Z][a-z]{2}( [0-9]+)? 202[56]"#, options: .regularExpression) != nil }, "'all' names the year:\n\(run.standardOutput)")
        #expect(lines.contains { $0.contains("goal 170.0 lb ↑") }, "a goal beyond the data is marked at the edge, not stretched to")
        let ticks = lines.compactMap { line in line.split(separator: "┤").first.flatMap { Double($0.trimmingCharacters(in: .whitespaces)) } }
        #expect(ticks.count >= 3 && ticks.allSatisfy { $0 == $0.rounded() }, "round ticks in lb: \(ticks)")
        #expect(lines.contains { $0.contains("•") }, "the weights")
        #expect(lines.contains { $0.unicodeScalars.contains { (0x2801...0x28FF).contains($0.value) } }, "the trend")
        #expect(lines.allSatisfy { $0.count <= 100 })
        #expect(run.standardOutput.contains("goal     170.0 lb"))
    }
}

/// `trend status`: one line for a prompt, at most 40 characters.
@Suite struct StatusLineTests {
    @Test func statusIsOneShortLineWithTheTrendTheStreakAndTheHabitsDue() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let directory = ["--data-dir", temp.url.path]
        #expect(try runTrend(directory + ["status"]).standardOutput == "no weigh-ins\n")
        let script = "weigh 80.4 2026-06-13 07:00\nweigh 80.0 2026-06-14 07:00\nweigh 79.5\nhabit add Read every day\nhabit add Walk every day\nhabit done Read\n"
        #expect(try runTrend(directory, input: script).status == 0)
        let line = try runTrend(directory + ["status"])
        #expect(line.status == 0)
        // The trend by hand: 80.4, 80.4 + 0.1 × (80.0 − 80.4) = 80.36, 80.36 + 0.1 × (79.5 − 80.36) = 80.27.
        #expect(line.standardOutput == "80.3 kg ↓ · 3d · 1 due\n")
        #expect(line.standardOutput.dropLast().count <= 40)
        let json = try #require(try runTrend(directory + ["--json", "status"]).documents().first)
        #expect(json["habitsDue"] as? Int == 1 && json["habits"] as? Int == 2 && json["currentStreak"] as? Int == 3)
        #expect(json["verdict"] as? String == "movingDownward")
        #expect(json["line"] as? String == "80.3 kg ↓ · 3d · 1 due")
        #expect(try runTrend(directory + ["status", "now"]).status == 2, "status takes nothing after it")
    }
}

/// `entries` writes a page at a time: the pages join into the same listing.
@Suite struct LongListingTests {
    @Test func entriesAcrossManyPagesInTextAndJSON() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        // 4,500 weigh-ins, one an hour from 2026-01-01: more than two pages of 2,000.
        var csv = "date,weight\n"
        for hour in 0..<4_500 {
            let date = Date(timeIntervalSince1970: 1_767_225_600 + Double(hour) * 3_600)
            csv += ISO8601DateFormatter().string(from: date) + ",\(70 + Double(hour % 100) / 10)\n"
        }
        let file = temp.url.appendingPathComponent("many.csv")
        try csv.write(to: file, atomically: true, encoding: .utf8)
        let directory = ["--data-dir", temp.url.appendingPathComponent("data").path]
        // After the last weigh-in: one dated after the clock is refused as in the future.
        let later = "2026-08-01 08:00:00"
        #expect(try runTrend(directory + ["-c", "import \(file.path)"], clock: later).status == 0)

        let document = try #require(try runTrend(directory + ["--json", "-c", "entries all"], clock: later).documents().first)
        let entries = try #require(document["entries"] as? [[String: Any]])
        #expect(document["range"] as? String == "all")
        #expect(entries.count == 4_500)
        let dates = entries.compactMap { $0["date"] as? String }
        #expect(dates == dates.sorted() && Set(dates).count == 4_500, "oldest first, each once")

        let text = try runTrend(directory + ["-c", "entries all"], clock: later).standardOutput.split(separator: "\n")
        #expect(text.count == 4_502, "a header, every weigh-in, a footer")
        #expect(text.last == "4500 weigh-ins in all time, newest first")
        #expect(text[1].contains("2026-07-07 11:00") && text[4_500].contains("2026-01-01 00:00"), "newest first")

        // A reader that stops early: the listing ends quietly, and the status is still 0.
        let head = try runTrendInShell(directory + ["-c", "entries all"], redirections: "| head -1")
        #expect(head.status == 0 && head.errors.isEmpty)
    }
}

/// Issue 16's WHEN and RANGE words, through the built binary at a fixed clock.
@Suite struct EverydayWordsTests {
    @Test func weighInsOnTheDaysPeopleNameListedByTheRangesTheyType() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let directory = ["--data-dir", temp.url.path, "--json"]
        // Wednesday 2026-06-17, 08:00 UTC.
        let script = """
        weigh 80.1 yesterday 21:00
        weigh 80.2 monday
        weigh 80.3 last fri 07:30
        weigh 80.4 3 days ago
        weigh 80.5 07:15
        weigh 79.9 2026-05-31 07:00
        weigh 81.0 2026-01-15
        """
        #expect(try runTrend(directory, input: script, clock: "2026-06-17 08:00:00").status == 0)
        func dates(_ range: String) throws -> [String] {
            let document = try #require(try runTrend(directory + ["-c", "entries \(range)"], clock: "2026-06-17 08:00:00").documents().first)
            return (document["entries"] as? [[String: Any]] ?? []).compactMap { $0["date"] as? String }
        }
        #expect(try dates("2w") == ["2026-06-12T07:30:00Z", "2026-06-14T12:00:00Z", "2026-06-15T12:00:00Z",
                                    "2026-06-16T21:00:00Z", "2026-06-17T07:15:00Z"])
        #expect(try dates("2026-05") == ["2026-05-31T07:00:00Z"])
        #expect(try dates("2026").count == 7 && dates("2025").isEmpty)
        #expect(try dates("2026-01-01..2026-05-31") == ["2026-01-15T12:00:00Z", "2026-05-31T07:00:00Z"])
        #expect(try dates("2026-06-15..") .count == 3)
        let bad = try runTrend(directory + ["-c", "entries fortnight"], clock: "2026-06-17 08:00:00")
        #expect(bad.status == 1 && bad.standardOutput.contains("is not a RANGE"))
        // progress takes the same RANGE; a span that ended is shown as of its last day.
        let may = try #require(try runTrend(directory + ["-c", "progress 2026-05"], clock: "2026-06-17 08:00:00").documents().first)
        #expect(may["range"] as? String == "2026-05")
        #expect((may["points"] as? [[String: Any]])?.compactMap { $0["date"] as? String } == ["2026-05-31"])
        // export takes it too.
        let file = temp.url.appendingPathComponent("june.csv")
        #expect(try runTrend(directory + ["-c", "export \(file.path) 2026-06-14..2026-06-16"], clock: "2026-06-17 08:00:00").status == 0)
        let rows = try String(contentsOf: file, encoding: .utf8).split(separator: "\r\n").dropFirst()
        #expect(rows.map { $0.split(separator: ",")[1] } == ["2026-06-14T12:00:00Z", "2026-06-15T12:00:00Z", "2026-06-16T21:00:00Z"])
        let future = try runTrend(directory + ["-c", "weigh 80 21:00"], clock: "2026-06-17 08:00:00")
        #expect(future.status == 1 && future.standardOutput.contains("in the future"))
    }

    /// The other WHEN forms (today, yesterday, today HH:MM, a full weekday name, 1 day ago, an ISO
    /// date-time with T) and RANGE forms (Nd, Nm, Ny, all), with summary and progress taking them too.
    @Test func everyOtherWhenAndRangeForm() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let directory = ["--data-dir", temp.url.path, "--json"]
        let clock = "2026-06-17 08:00:00"  // A Wednesday.
        let script = """
        weigh 80.0 today
        weigh 80.1 yesterday
        weigh 80.2 today 06:30
        weigh 80.3 tuesday 05:00
        weigh 80.4 1 day ago 22:00
        weigh 80.5 2026-06-10T06:45
        weigh 80.6 2025-12-31
        weigh 80.7 sunday
        """
        let recorded = try runTrend(directory, input: script, clock: clock)
        #expect(recorded.status == 0, "\(recorded.standardOutput)")
        let dates = try recorded.documents().compactMap { ($0["entry"] as? [String: Any])?["date"] as? String }
        #expect(dates == ["2026-06-17T08:00:00Z", "2026-06-16T12:00:00Z", "2026-06-17T06:30:00Z", "2026-06-16T05:00:00Z",
                          "2026-06-16T22:00:00Z", "2026-06-10T06:45:00Z", "2025-12-31T12:00:00Z", "2026-06-14T12:00:00Z"])
        func count(_ command: String) throws -> Int {
            let document = try #require(try runTrend(directory + ["-c", command], clock: clock).documents().first)
            return (document["entries"] as? [Any])?.count ?? -1
        }
        #expect(try count("entries 2d") == 5)
        #expect(try count("entries 1m") == 7)
        #expect(try count("entries 1y") == 8 && count("entries all") == 8)
        let summary = try #require(try runTrend(directory + ["-c", "summary 1w"], clock: clock).documents().first)
        #expect(summary["weighIns"] as? Int == 6 && (summary["period"] as? [String: Any])?["end"] as? String == "2026-06-17")
        let year = try #require(try runTrend(directory + ["-c", "progress 1y"], clock: clock).documents().first)
        #expect((year["points"] as? [Any])?.count == 5)
    }
}

/// Issue 16: edit a weight, a time or a note; find notes.
@Suite struct EditAndFindTests {
    @Test func editKeepsTheTypedPrecisionAndTheNoteItsQuotesAndFindReadsNotes() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let directory = ["--data-dir", temp.url.path]
        let clock = "2026-06-17 08:00:00"
        #expect(try runTrend(directory + ["-c", "weigh 81.4 2026-06-15 07:00 note gym", "-c", "weigh 81.0 2026-06-16 07:00"],
                             clock: clock).status == 0)
        let listed = try #require(try runTrend(directory + ["--json", "-c", "entries"], clock: clock).documents().first)
        let id = try #require(((listed["entries"] as? [[String: Any]])?.first?["id"] as? String)?.prefix(6))
        let edits = try runTrend(directory + ["-c", "edit \(id) 81.45", "-c", "edit \(id) at yesterday 21:00",
                                              "-c", #"edit \#(id) note after the "long" run"#], clock: clock)
        #expect(edits.status == 0, "\(edits.standardError)")
        #expect(edits.standardOutput.contains("weight 81.4 kg → 81.45 kg"), "\(edits.standardOutput)")
        #expect(edits.standardOutput.contains("time 2026-06-15 07:00 → 2026-06-16 21:00"))
        let entry = try #require(try runTrend(directory + ["--json", "-c", "find long"], clock: clock).documents().first)
        let found = try #require((entry["entries"] as? [[String: Any]])?.first)
        #expect(found["kilograms"] as? Double == 81.45)
        #expect(found["note"] as? String == #"after the "long" run"#)
        #expect(found["date"] as? String == "2026-06-16T21:00:00Z")
        #expect(try runTrend(directory + ["-c", "entries"], clock: clock).standardOutput.contains("81.45 kg"))
        let cleared = try runTrend(directory + ["-c", "edit \(id) no note", "-c", "find long"], clock: clock)
        #expect(cleared.standardOutput.contains("note cleared") && cleared.standardOutput.contains("No note holds 'long'"))
        let refused = try runTrend(directory + ["-c", "edit \(id) 600", "-c", "edit \(id) at tomorrow", "-c", "edit \(id) at 23:00"],
                                   clock: clock)
        #expect(refused.status == 1)
        let after = try #require(try runTrend(directory + ["--json", "-c", "entries"], clock: clock).documents().first)
        #expect((after["entries"] as? [[String: Any]])?.compactMap { $0["kilograms"] as? Double } == [81.0, 81.45],
                "refused edits change nothing")
    }
}

/// Issue 15: summary, a period against the one before, from the Monday review's computations.
@Suite struct SummaryTests {
    @Test func periodsAreThisWeekMonthOrYearOrARangeAgainstTheSameSpanBefore() throws {
        let today = DayNumber.from(year: 2026, month: 6, day: 17)
        func span(_ word: String) throws -> [String] {
            let periods = try #require(ComparedPeriods.named(word, today: today))
            return [periods.current.lowerBound, periods.current.upperBound, periods.previous.lowerBound, periods.previous.upperBound]
                .map(DayNumber.string)
        }
        #expect(try span("week") == ["2026-06-15", "2026-06-17", "2026-06-08", "2026-06-14"])
        #expect(try span("month") == ["2026-06-01", "2026-06-17", "2026-05-01", "2026-05-31"])
        #expect(try span("year") == ["2026-01-01", "2026-06-17", "2025-01-01", "2025-12-31"])
        // A month against the month before, a year against the year before (issue 28, item 7).
        #expect(try span("2026-02") == ["2026-02-01", "2026-02-28", "2026-01-01", "2026-01-31"])
        #expect(try span("2026-03") == ["2026-03-01", "2026-03-31", "2026-02-01", "2026-02-28"])
        #expect(try span("2026-01") == ["2026-01-01", "2026-01-31", "2025-12-01", "2025-12-31"])
        #expect(try span("2025") == ["2025-01-01", "2025-12-31", "2024-01-01", "2024-12-31"])
        #expect(try span("2w") == ["2026-06-04", "2026-06-17", "2026-05-21", "2026-06-03"])
        #expect(ComparedPeriods.named("fortnight", today: today) == nil && ComparedPeriods.named("all", today: today) == nil)
    }

    @Test func theSummaryInJSON() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let directory = ["--data-dir", temp.url.path, "--json"]
        let clock = "2026-06-17 08:00:00"
        let script = """
        habit add Read every day
        weigh 81.0 2026-06-08 07:00
        weigh 80.6 2026-06-10 07:00
        weigh 80.4 2026-06-15 07:00
        weigh 80.2 2026-06-15 19:00
        weigh 80.1 2026-06-16 07:00
        habit done Read 2026-06-15
        habit done Read 2026-06-16
        """
        #expect(try runTrend(directory, input: script, clock: clock).status == 0)
        let summary = try #require(try runTrend(directory + ["-c", "summary"], clock: clock).documents().first)
        #expect((summary["period"] as? [String: Any])?["start"] as? String == "2026-06-15")
        #expect(summary["weighIns"] as? Int == 3 && summary["daysWeighed"] as? Int == 2)
        #expect((summary["lowest"] as? [String: Any])?["kilograms"] as? Double == 80.1)
        #expect((summary["highest"] as? [String: Any])?["date"] as? String == "2026-06-15")
        let previous = try #require(summary["previous"] as? [String: Any])
        #expect(previous["weighIns"] as? Int == 2 && previous["start"] as? String == "2026-06-08")
        let habits = try #require(summary["habits"] as? [[String: Any]])
        #expect(habits.first?["name"] as? String == "Read" && habits.first?["done"] as? Int == 2)
    }
}
