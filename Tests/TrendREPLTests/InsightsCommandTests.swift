import CommandLanguage
import Foundation
import Testing
import TestSupport
@testable import TrendREPL

/// `insights` at the prompt and for a script: nothing claimed without data,
/// every JSON key there, ranges in words, bad words refused.
@MainActor
@Suite struct InsightsCommandTests {
    @Test func aNewLogClaimsNothingAndSaysWhatIsMissing() async throws {
        let session = ReplSession(app: makeTestApp(clock: TestClock(date("2026-06-15 08:00"))).app, json: false, style: .plain, isInteractive: false)
        let empty = await session.execute("insights")
        #expect(empty.succeeded && empty.text.contains("Nothing to look at yet"), "\(empty.text)")
        for day in 1...14 { _ = await session.execute("weigh \(80 - Double(day) * 0.1) 2026-06-\(String(format: "%02d", day)) 07:00") }
        _ = await session.execute("habit add Read every day")
        _ = await session.execute("habit done Read yesterday")
        let early = await session.execute("insights")
        #expect(early.succeeded && early.text.contains("Read cannot be tested yet (next morning: ") && early.text.contains("weekly: "), "\(early.text)")
        #expect(early.text.contains("not proof of a cause"))
    }

    @Test func theJSONDocumentAndTheWordsItTakes() async throws {
        let session = ReplSession(app: makeTestApp(clock: TestClock(date("2026-06-15 08:00"))).app, json: true, style: .plain, isInteractive: false)
        let result = await session.execute("insights last year all")
        #expect(result.succeeded)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.text.utf8)) as? [String: Any])
        #expect(Set(document.keys) == ["range", "tested", "insights", "notEnoughData", "falseDiscoveryRate"])
        #expect(document["range"] as? String == "2025" && document["falseDiscoveryRate"] as? Double == 0.1)
        for line in ["insights fortnight", "insights 1y 2y"] {
            let refused = await session.execute(line)
            #expect(!refused.succeeded && refused.text.contains("insights:"), "\(line)")
        }
    }

    /// Issue 30, item 2: `progress RANGE with HABIT` marks the habit's done days under the chart, and names them for a script.
    @Test func progressWithAHabitMarksItsDays() async throws {
        let clock = TestClock(date("2026-06-15 08:00"))
        let app = makeTestApp(clock: clock).app
        let text = ReplSession(app: app, json: false, style: TerminalStyle(colors: false, width: 80), isInteractive: false)
        for day in 1...14 { _ = await text.execute("weigh \(80 - Double(day) * 0.1) 2026-06-\(String(format: "%02d", day)) 07:00") }
        _ = await text.execute("habit add Gym 3/week")
        for day in ["2026-06-03", "2026-06-08", "2026-06-12"] { _ = await text.execute("habit done Gym \(day)") }
        let chart = await text.execute("progress 2w with Gym")
        let lines = chart.text.split(separator: "\n").map(String.init)
        let marks = try #require(lines.first { $0.contains("▮") && !$0.contains("done") })
        #expect(marks.filter { $0 == "▮" }.count == 3, "\(chart.text)")
        #expect(lines.contains { $0.contains("▮ Gym done") })
        let json = ReplSession(app: app, json: true, style: .plain, isInteractive: false)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(await json.execute("progress 2w with gym").text.utf8)) as? [String: Any])
        let habit = try #require(document["habit"] as? [String: Any])
        #expect(habit["name"] as? String == "Gym" && habit["days"] as? [String] == ["2026-06-03", "2026-06-08", "2026-06-12"])
        let plain = try #require(try JSONSerialization.jsonObject(with: Data(await json.execute("progress 2w").text.utf8)) as? [String: Any])
        #expect(plain["habit"] is NSNull)
        let unknown = await text.execute("progress 2w with Nope")
        #expect(!unknown.succeeded && unknown.text.contains("no habit named 'Nope'"))
    }
}
