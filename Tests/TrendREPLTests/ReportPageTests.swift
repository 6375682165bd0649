import Foundation
import Testing
import TestSupport
import Vocabulary

/// `export FILE.html` (issue 51, DESIGN §10), opened in Debian's Chromium, headless and without a network:
/// the page is one self-contained file whose every chart is described, whose figures are the screens' own
/// (`today`, `summary`), which renders to a screenshot that is not blank and prints to a few A4 pages.
@Suite struct ReportPageTests {
    /// Six months of weigh-ins in pounds, falling, with a goal, body fat, a waist and three habits.
    func history(in temp: TemporaryDirectory) throws -> String {
        let data = temp.url.appendingPathComponent("data").path
        var csv = "date,weight,unit,note\n"
        var random = SplitMix64(seed: 51)
        for day in 0..<150 where random.next() % 7 != 0 {
            let date = Date(timeIntervalSince1970: 1_768_000_000 + Double(day) * 86_400)  // From January 2026 to June.
            csv += "\(ISO8601DateFormatter().string(from: date)),\(String(format: "%.1f", 195 - Double(day) * 0.1 + Double(random.next() % 20) / 10)),lb,\n"
        }
        let file = temp.url.appendingPathComponent("history.csv")
        try Data(csv.utf8).write(to: file)
        let made = try runTrend(["--data-dir", data, "-c", "set unit lb", "-c", "import \(file.path)", "-c", "goal 175",
                                 "-c", "weigh 180.2 fat 27.5", "-c", "weigh 181.0 yesterday 07:00 fat 27.9", "-c", "measure waist 36.5 in",
                                 "-c", "measure waist 36.8 in yesterday", "-c", "habit add Walk 10k steps 5 times a week",
                                 "-c", "habit add Water 8 glasses", "-c", "habit add Gym mon,wed,fri", "-c", "habit done Walk 10k steps",
                                 "-c", "habit done Water 6", "-c", "habit done Gym yesterday"])
        #expect(made.status == 0, "\(made.standardError)")
        return data
    }

    /// Runs Chromium headless on `arguments`, its output to files (its helpers never hold a pipe of the test's).
    func chromium(_ arguments: [String], in temp: TemporaryDirectory) throws -> (status: Int32, errors: String) {
        let errors = temp.url.appendingPathComponent("chromium.err")
        let quoted = arguments.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let command = "timeout -k 5 90 chromium --headless=new --no-sandbox --disable-gpu --no-first-run --disable-background-networking "
            + "--disable-component-update --enable-logging=stderr --v=0 \(quoted) > /dev/null 2> '\(errors.path)' < /dev/null"
        let run = try runTool("/bin/sh", ["-c", command], environment: ["HOME": temp.url.path, "PATH": "/usr/bin:/bin"])
        return (run.status, (try? String(contentsOf: errors, encoding: .utf8)) ?? "")  // No file: nothing was said.
    }

    @Test func thePageIsSelfContainedItsChartsDescribedAndItsFiguresTheScreens() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let data = try history(in: temp)
        let page = temp.url.appendingPathComponent("report.html")
        let written = try runTrend(["--data-dir", data, "--json", "-c", "set height 178 cm", "-c", "set name Alex <Doe>", "-c", "set born 1984",
                                    "-c", "export \(page.path) 3m"])
        #expect(written.status == 0, "\(written.standardOutput)\(written.standardError)")
        let html = try String(contentsOf: page, encoding: .utf8)
        // Self-contained: no script, nothing fetched (the SVG namespace is a name, not an address; links stay on the page).
        #expect(!html.contains("<script") && !html.contains("src=") && !html.contains("url("))
        #expect(html.components(separatedBy: "href=\"").dropFirst().allSatisfy { $0.hasPrefix("#") }, "a link off the page")
        #expect(html.replacingOccurrences(of: "http://www.w3.org/2000/svg", with: "").range(of: "https?://", options: .regularExpression) == nil)
        // A document, not terminal screens: no <pre>, and no text laid out with runs of spaces.
        let main = try #require(html.components(separatedBy: "<main>").last)
        let text = main.replacingOccurrences(of: "<[^>]+>", with: "\n", options: .regularExpression)
        #expect(!html.contains("<pre") && !text.contains("   "), "space-aligned text")
        // Every chart is an image with a text alternative: the weight's, each habit's strength, the body's.
        let charts = html.components(separatedBy: "<svg role=\"img\" aria-label=\"").count - 1
        #expect(charts >= 1 + 3 + 2, "\(charts) charts")
        for habit in ["Walk 10k steps", "Water", "Gym"] { #expect(html.contains("<h3>\(habit)</h3>")) }
        // The first page: the period, start and end, the change, BMI with the height it used, and the glossary.
        let glance = try #require(main.components(separatedBy: "<section id=\"summary\">").first)
        for words in ["Period", "Start (trend)", "End (trend)", "Change of the trend", "Weekly rate", "BMI", "of the end trend and a height of 1.78 m",
                      "What the words mean", "<dt>Trend</dt>", "<dt>Strength</dt>", "<dt>Covered</dt>",
                      // Who it is about (escaped), the age band in the period's last year (2026), the height the BMI used.
                      "<td>Alex &lt;Doe&gt;, aged 40–49, height 1.78 m</td>"] {
            #expect(glance.contains(words), "the first page lacks '\(words)'")
        }
        // One truth: the period's trend change is the same in the key figures, the chart's caption and progress --json.
        let progress = try #require(try runTrend(["--data-dir", data, "--json", "-c", "progress 3m"]).documents().first)
        let change = try #require(progress["changeKilograms"] as? Double)
        let said = String(format: "%@%.1f lb", change < 0 ? "−" : "+", abs(change) / 0.45359237)
        #expect(glance.contains("<th scope=\"row\">Change of the trend</th><td>\(said)</td>"), "\(said)")
        #expect(glance.contains(" (\(said))"), "the chart's caption says \(said)")
        // Counts agree with their nouns.
        #expect(!html.contains(" 1 days") && !html.contains(" 1 weigh-ins"))
    }

    /// Issue 62, item 3: printed on A4 and Letter (Chromium through its WebDriver, print media at the printable
    /// width), nothing is wider than its box or the page, and a month with five habits is at most four pages.
    @Test(arguments: ["A4", "Letter"])
    func printedNothingIsCutAndAMonthWithFiveHabitsFitsOnFourPages(paper: String) throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let data = try history(in: temp)
        _ = try runTrend(["--data-dir", data, "-c", "habit add Read every day", "-c", "habit add Stretch every day",
                          "-c", "habit done Read", "-c", "habit done Stretch yesterday"])
        let page = temp.url.appendingPathComponent("month.html")
        #expect(try runTrend(["--data-dir", data, "-c", "export \(page.path) 1m"]).status == 0)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/report-layout.py")
        let run = try runTool("/usr/bin/timeout", ["-k", "5", "120", "/usr/bin/python3", script.path, page.path, paper],
                              environment: ["HOME": temp.url.path, "PATH": "/usr/bin:/bin"], mergingErrors: true)
        let result = try #require(try JSONSerialization.jsonObject(with: Data((run.output.split(separator: "\n").last ?? "").utf8)) as? [String: Any],
                                  "\(run.output)")
        #expect((result["overflow"] as? [Any])?.isEmpty == true, "wider than its box: \(result["overflow"] ?? "")")
        let pages = try #require(result["pages"] as? Int)
        #expect((1...4).contains(pages), "\(pages) pages on \(paper)")
    }

    @Test func anEmptyRangeSaysSoAndAPathThatCannotBeWrittenIsRefusedLeavingNothing() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let data = temp.url.appendingPathComponent("data").path
        let page = temp.url.appendingPathComponent("empty.html")
        let empty = try runTrend(["--data-dir", data, "-c", "habit add Read every day", "-c", "export \(page.path) 1w"])
        #expect(empty.status == 0, "\(empty.standardError)")
        #expect(try String(contentsOf: page, encoding: .utf8).contains("No weigh-ins in 1 week"))
        let nowhere = temp.url.appendingPathComponent("no-such-folder/report.html")
        let refused = try runTrend(["--data-dir", data, "-c", "export \(nowhere.path)"])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("no-such-folder") || refused.standardOutput.contains("no-such-folder"), "\(refused.standardError)")
        #expect(!FileManager.default.fileExists(atPath: nowhere.deletingLastPathComponent().path))
    }
}


/// Issue 62, item 1: a habit's calendar is a grid whose months are each named over their own first week: the
/// label over a column is the month its first shown day falls in, said where the month changes, so three months
/// of a habit read Jan, Feb, Mar over the right columns (never "Apr" over the last days of March).
@Suite struct ReportCalendarTests {
    @Test func eachMonthIsNamedOverItsOwnColumns() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let data = temp.url.appendingPathComponent("data").path
        var commands = ["-c", "habit add Walk every day"]
        for day in stride(from: 0, through: 88, by: 3) {
            let date = DayNumber.string(DayNumber.from(year: 2027, month: 1, day: 2) + day)
            commands += ["-c", "weigh \(90 - Double(day) * 0.05) \(date) 07:00", "-c", "habit done Walk \(date)"]
        }
        #expect(try runTrend(["--data-dir", data] + commands, clock: "2027-03-31 20:00:00").status == 0)
        let page = temp.url.appendingPathComponent("quarter.html")
        #expect(try runTrend(["--data-dir", data, "-c", "export \(page.path) 3m"], clock: "2027-03-31 20:00:00").status == 0)
        let html = try String(contentsOf: page, encoding: .utf8)
        let table = try #require(html.components(separatedBy: "<table class=\"calendar\">").dropFirst().first?.components(separatedBy: "</table>").first)
        let header = try #require(table.components(separatedBy: "</thead>").first)
        let labels = header.components(separatedBy: "<th scope=\"col\">").dropFirst(2).map { String($0.prefix { $0 != "<" }) }
        // Each column's days, from the cells' titles (`2027-01-04: done`), row by row.
        let rows = table.components(separatedBy: "<tr><th scope=\"row\">").dropFirst()
        var columns = [[Int]](repeating: [], count: labels.count)
        for row in rows {
            for (index, cell) in row.components(separatedBy: "<td").dropFirst().enumerated() where index < labels.count {
                if let title = cell.components(separatedBy: "title=\"").dropFirst().first, let day = DayNumber.parse(String(title.prefix(10))) {
                    columns[index].append(day)
                }
            }
        }
        let names = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        var previous: String?
        for (label, days) in zip(labels, columns) {
            guard let first = days.min() else { continue }
            let month = names[DayNumber.civil(first).month - 1]
            #expect(label == (month == previous ? "" : month), "a column starting \(DayNumber.string(first)) is labelled '\(label)': \(labels)")
            previous = month
        }
        #expect(labels.filter { !$0.isEmpty } == ["Jan", "Feb", "Mar"], "\(labels)")
    }
}
