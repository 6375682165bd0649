import CommandLanguage
import Foundation
import Testing
import TestSupport
import TextFormats
@testable import TrendREPL
import Vocabulary

/// Issue 63: what the eight weeks in Berlin found, each held by a test built for it.
@Suite struct EightWeeksTests {
    /// Item 9: a cell a spreadsheet would run is written with a leading `'` (OWASP's advice), and Trend's own import
    /// reads it back as it was.
    @Test func aFormulaInANoteIsGuardedInTheCSVAndReadBackAsItWas() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let data = temp.url.appendingPathComponent("data").path, again = temp.url.appendingPathComponent("again").path
        let file = temp.url.appendingPathComponent("weights.csv")
        let note = #"=HYPERLINK("http://example.invalid","click")"#
        _ = try runTrend(["--data-dir", data, "-c", "weigh 82.4 note \(note)", "-c", "weigh 82.1 yesterday note @SUM(1)",
                          "-c", "export \(file.path)"])
        let written = try String(contentsOf: file, encoding: .utf8)
        #expect(written.contains(#""'=HYPERLINK(""http://example.invalid"",""click"")""#), "\(written)")
        #expect(written.contains("'@SUM(1)"), "\(written)")
        #expect(!written.contains(",=") && !written.contains(",@"), "\(written)")
        let imported = try runTrend(["--data-dir", again, "--json", "-c", "import \(file.path)", "-c", "entries"])
        let entries = try #require(try imported.documents().last?["entries"] as? [[String: Any]])
        #expect(Set(entries.compactMap { $0["note"] as? String }) == [note, "@SUM(1)"])
        #expect(CSVTable.isFormula("-5.2") == false && CSVTable.isFormula("=1+2") && CSVTable.isFormula("-"))
    }

    /// Item 6: `habit done` on a day already done says so and changes nothing: no second entry in the history.
    @Test func markingADayDoneTwiceSaysSoAndChangesNothing() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let data = temp.url.appendingPathComponent("data").path
        let run = try runTrend(["--data-dir", data, "-c", "habit add Meditate", "-c", "habit done Meditate", "-c", "habit done Meditate",
                                "-c", "habit add Water 8 glasses", "-c", "habit done Water +2", "-c", "habit done Water +2"])
        #expect(run.standardOutput.contains("'Meditate' was already done today; nothing changed."), "\(run.standardOutput)")
        #expect(run.standardOutput.contains("'Water': 4 today (+2)"), "\(run.standardOutput)")
        let history = try runTrend(["--data-dir", data, "--json", "-c", "history 20"])
        let changes = try #require(try history.documents().first?["history"] as? [[String: Any]])
        #expect(changes.filter { ($0["summary"] as? String)?.contains("Meditate") == true }.count == 2, "\(changes)")
        let json = try runTrend(["--data-dir", data, "--json", "-c", "habit done Meditate"])
        #expect(try json.documents().first?["unchanged"] as? Bool == true)
    }

    /// Item 3: a time the clocks skipped is refused, naming the first minute after the gap; one the fall-back
    /// night holds twice is taken at its first occurrence, and says so. Both nights, in Berlin and New York.
    @Test(arguments: [("Europe/Berlin", WhenInput.dayTime(year: 2027, month: 3, day: 28, hour: 2, minute: 30),
                       WhenInput.dayTime(year: 2027, month: 10, day: 31, hour: 2, minute: 30), "+02:00"),
                      ("America/New_York", WhenInput.dayTime(year: 2027, month: 3, day: 14, hour: 2, minute: 30),
                       WhenInput.dayTime(year: 2027, month: 11, day: 7, hour: 1, minute: 30), "-04:00")])
    func timesAcrossBothDaylightSavingNights(_ zone: String, _ gap: WhenInput, _ repeated: WhenInput, _ firstOffset: String) throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: zone))
        let now = try #require(ISO8601DateFormatter().date(from: "2027-12-01T12:00:00Z"))
        #expect(throws: WhenInputError.self) { try gap.resolve(now: now, calendar: calendar) }
        do {
            _ = try gap.resolve(now: now, calendar: calendar)
        } catch {
            #expect(error.description.contains("the first minute after the gap is 03:00"), "\(error)")
        }
        let instant = try repeated.resolve(now: now, calendar: calendar)
        let shown = ISO8601DateFormatter.string(from: instant, timeZone: calendar.timeZone, formatOptions: [.withInternetDateTime])
        #expect(shown.hasSuffix(firstOffset), "\(shown)")
        #expect(WhenInput.repeatedTimeNote(instant, calendar: calendar)?.contains("taken as the first") == true)
        #expect(WhenInput.repeatedTimeNote(instant.addingTimeInterval(-7_200), calendar: calendar) == nil)
    }

    /// Item 4: a day without a weigh-in is blank in the sparkline, never a low bar.
    @Test func aTripIsAGapInTheSparklineNotTheLowestBar() throws {
        let line = try #require(TodayViewModel.sparkline([82.0, 81.8, nil, nil, nil, 81.2, 81.0]))
        #expect(line == "█▇   ▂▁", "\(line)")
    }

    /// Item 9: a temporary file of an export that was killed (its process ended) goes at the next export to that
    /// folder; another program's hidden file stays.
    @Test func aKilledExportsTemporaryFileGoesAtTheNextExport() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let data = temp.url.appendingPathComponent("data").path
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        let stale = temp.url.appendingPathComponent(".report.html.trend-\(ended.processIdentifier)-0a1b2c3d.tmp")
        let other = temp.url.appendingPathComponent(".notes.txt.tmp")
        try Data("health data".utf8).write(to: stale)
        try Data("someone else's".utf8).write(to: other)
        let run = try runTrend(["--data-dir", data, "-c", "weigh 82.4", "-c", "export \(temp.url.appendingPathComponent("weights.csv").path)"])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(!FileManager.default.fileExists(atPath: stale.path))
        #expect(FileManager.default.fileExists(atPath: other.path))
    }
}

/// Issue 63, item 7: `progress 3m` on seven weeks of data shows the seven weeks and says so; the x ticks are evenly
/// spaced in days, and no month that has a column goes without a tick, at 50 columns as at 100.
@MainActor
@Suite struct RangesThatFitTheDataTests {
    @Test(arguments: [50, 100])
    func aRangeLongerThanTheHistoryShowsTheHistoryWithEvenTicks(width: Int) async throws {
        let graph = makeTestApp(clock: TestClock(date("2027-02-28 08:00")), calendar: calendar(zone: "Europe/Berlin"))
        let session = ReplSession(app: graph.app, json: false, style: TerminalStyle(colors: false, width: width), isInteractive: false)
        let first = DayNumber.from(year: 2027, month: 1, day: 10)
        for day in first...DayNumber.from(year: 2027, month: 2, day: 28) {
            let civil = DayNumber.civil(day)
            _ = await session.execute("weigh \(104 - Double(day - first) * 0.04) \(String(format: "%04d-%02d-%02d", civil.year, civil.month, civil.day)) 07:00")
        }
        let shown = await session.execute("progress 3m")
        #expect(shown.succeeded && shown.text.hasPrefix("Progress, since your first weigh-in, 7 weeks"), "\(shown.text)")
        #expect(shown.text.contains("since your first weigh-in, 7 weeks, the right way") || shown.text.contains("since your first weigh-in, 7 weeks, away"),
                "\(shown.text)")
        #expect(!shown.text.contains("over 3 months") && !shown.text.contains("Nov") && !shown.text.contains("Dec"), "\(shown.text)")
        // The ticks: their columns are evenly spaced, and their labels name January and February.
        let lines = shown.text.split(separator: "\n").map(String.init)
        let axis = try #require(lines.first { $0.contains("└") })
        let columns = axis.enumerated().filter { $0.element == "┬" }.map(\.offset)
        let gaps = zip(columns.dropFirst(), columns).map { $0 - $1 }
        #expect(columns.count >= 2 && (gaps.max() ?? 0) - (gaps.min() ?? 0) <= 1, "uneven ticks: \(columns) in\n\(shown.text)")
        let labels = try #require(lines.firstIndex(of: axis).map { lines[$0 + 1] })
        #expect(labels.contains("Jan") && labels.contains("Feb"), "\(shown.text)")
        let json = ReplSession(app: graph.app, json: true, style: .plain, isInteractive: false)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(await json.execute("progress 3m").text.utf8)) as? [String: Any])
        #expect(document["shownSince"] as? String == "2027-01-10")
    }
}

/// Issue 63, item 2: the words are true on day one. A new user's first three days, with no goal, through every
/// screen: nothing toward a goal, no rate before there is one, no change of the trend from a single weigh-in, and
/// nothing that is not a number where a number stands.
@MainActor
@Suite struct FirstThreeDaysTests {
    static let screens = ["today", "progress", "progress 1w", "progress all", "summary", "summary month", "streak", "status", "habits",
                          "habit show Walk", "insights", "tip", "entries", "history", "settings", "backup status", "sync", "measurements"]

    @Test func everyScreenOfTheFirstThreeDaysSaysOnlyWhatIsTrue() async throws {
        let clock = TestClock(date("2027-01-10 07:30"))
        let graph = makeTestApp(clock: clock, calendar: calendar(zone: "Europe/Berlin"))
        let session = ReplSession(app: graph.app, json: false, style: TerminalStyle(colors: false, width: 100), isInteractive: false)
        for (day, weight) in [(10, "103.9"), (11, "103.5"), (12, "104.1")] {
            clock.now = date("2027-01-\(day) 07:30")
            let weighed = await session.execute("weigh \(weight)")
            #expect(weighed.succeeded, "\(weighed.text)")
            if day == 10 {
                _ = await session.execute("habit add Walk every day")
                _ = await session.execute("habit done Walk")
            }
            for screen in ["weigh"] + Self.screens {
                let shown = screen == "weigh" ? weighed : await session.execute(screen)
                let text = shown.text
                #expect(shown.succeeded, "day \(day), \(screen): \(text)")
                for claim in ["★", "toward your goal", "At this rate", "reach your goal", "at goal", "kg a week", "NaN", "inf kg"] {
                    #expect(!text.contains(claim), "day \(day), \(screen) says '\(claim)' with no goal and no rate:\n\(text)")
                }
                if day == 10, screen.hasPrefix("summary") {
                    #expect(!text.contains("±0.0 kg"), "a first weigh-in alone has no trend change to tell:\n\(text)")
                }
            }
        }
    }
}
