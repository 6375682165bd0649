import Foundation
import Testing
import TestSupport

/// Issue 28, item 11: a setting given the value it has is no change (`goal 80` at 80 was recorded in the
/// history, and undo took back nothing), and `set` confirms in one line instead of printing every setting.
@Suite struct SettingsEndToEndTests {
    @Test func aSettingGivenItsValueIsNoChangeAndSetConfirmsInOneLine() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let directory = ["--data-dir", temp.url.path]
        #expect(try runTrend(directory + ["-c", "weigh 82", "-c", "goal 80", "-c", "set unit lb"]).status == 0)
        let again = try runTrend(directory + ["-c", "goal 80 kg", "-c", "set unit lb", "-c", "set day-starts-at 04:00"])
        #expect(again.lines.count == 3, "\(again.standardOutput)")
        #expect(again.lines[1] == "Unit: lb. (It already was; nothing changed.)")
        #expect(again.lines[2] == "Days start at 04:00; habit marks before it count for the day before.")
        let history = try #require(try runTrend(directory + ["--json", "-c", "history"]).documents().first?["history"] as? [[String: Any]])
        #expect(history.compactMap { $0["action"] as? String } == ["setting", "setting", "goal", "weigh"], "\(history)")
    }
}
