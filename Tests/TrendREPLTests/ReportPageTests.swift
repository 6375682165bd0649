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
        let written = try runTrend(["--data-dir", data, "--json", "-c", "export \(page.path)"])
        #expect(written.status == 0, "\(written.standardOutput)\(written.standardError)")
        let html = try String(contentsOf: page, encoding: .utf8)
        // Self-contained: no script, nothing fetched (the SVG namespace is a name, not an address).
        #expect(!html.contains("<script") && !html.contains("src=") && !html.contains("href=") && !html.contains("url("))
        #expect(html.replacingOccurrences(of: "http://www.w3.org/2000/svg", with: "").range(of: "https?://", options: .regularExpression) == nil)
        // Every chart is an image with a text alternative; the weight's, each habit's two, the body's.
        let charts = html.components(separatedBy: "<svg role=\"img\" aria-label=\"").count - 1
        #expect(charts >= 1 + 2 * 3 + 2, "\(charts) charts")
        for habit in ["Walk 10k steps", "Water", "Gym"] { #expect(html.contains("<h3>\(habit)</h3>")) }
        // The trend as `today` gives it, in pounds.
        let today = try #require(try runTrend(["--data-dir", data, "--json", "-c", "today"]).documents().first)
        let trend = try #require(today["trendKilograms"] as? Double)
        #expect(html.contains("trend    \(String(format: "%.1f", trend / 0.45359237)) lb"), "trend \(trend)")
        // The summary as `summary 3m` prints it, line for line.
        let summary = try runTrend(["--data-dir", data, "-c", "summary 3m"]).standardOutput.trimmingCharacters(in: .newlines)
        let escaped = summary.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
        #expect(html.contains(escaped), "the summary's text")

        // In Chromium: the DOM holds the charts, a screenshot is not blank, the PDF is 1–8 A4 pages, no console error.
        let dom = try chromium(["--dump-dom", page.absoluteString], in: temp)
        #expect(dom.status == 0, "\(dom.errors)")
        let shot = temp.url.appendingPathComponent("shot.png"), blankShot = temp.url.appendingPathComponent("blank.png")
        let blank = temp.url.appendingPathComponent("blank.html")
        try Data("<!DOCTYPE html><html><body></body></html>".utf8).write(to: blank)
        _ = try chromium(["--window-size=900,2400", "--hide-scrollbars", "--screenshot=\(shot.path)", page.absoluteString], in: temp)
        _ = try chromium(["--window-size=900,2400", "--hide-scrollbars", "--screenshot=\(blankShot.path)", blank.absoluteString], in: temp)
        let shotSize = (try? Data(contentsOf: shot).count) ?? 0, blankSize = (try? Data(contentsOf: blankShot).count) ?? 0
        #expect(shotSize > 8 * blankSize && shotSize > 50_000, "screenshot \(shotSize) bytes, a blank page's \(blankSize)")
        let pdf = temp.url.appendingPathComponent("report.pdf")
        let printed = try chromium(["--no-pdf-header-footer", "--print-to-pdf=\(pdf.path)", page.absoluteString], in: temp)
        let bytes = String(decoding: (try? Data(contentsOf: pdf)) ?? Data(), as: UTF8.self)
        let pages = bytes.components(separatedBy: "/Type /Page\n").count - 1 + bytes.components(separatedBy: "/Type /Page/").count - 1
            + bytes.components(separatedBy: "/Type/Page/").count - 1 + bytes.components(separatedBy: "/Type /Page>").count - 1
        #expect((1...8).contains(pages), "\(pages) pages\n\(printed.errors.suffix(2000))")
        #expect(!printed.errors.contains("Uncaught") && !printed.errors.contains(":CONSOLE"), "\(printed.errors.suffix(2000))")
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

