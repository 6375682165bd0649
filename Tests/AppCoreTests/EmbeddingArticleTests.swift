import DailyTips
import Foundation
import Storage
import Testing
import TestSupport
@testable import AppCore

// The code of Docs/Trend.docc/EmbeddingAppCore.md, compiled here; the test below checks the article still reads so.

@MainActor
func makeApp(at directory: URL) -> AppModel {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "Europe/Berlin") ?? .gmt
    let environment = AppEnvironment(
        dataDirectory: directory,
        store: LocalDataStore(directory: directory, schema: .trend),  // or .inMemory(schema: .trend)
        currentDate: { .now },  // a test passes a clock it moves
        calendar: calendar,
        tipSeed: 42,
        tipCatalogue: { TipCatalogue.shipped },
        appVersion: AppModel.version,
        backupDebounce: .seconds(3),
        backupSleep: { try await Task.sleep(for: $0) }  // a test passes a timer it advances
    )
    return AppModel.assemble(environment)
}

@MainActor
@Suite struct EmbeddingArticleTests {
    /// Issue 27, item 9: the article's code compiles (this file) and runs, and the article holds this file's code.
    @Test func theArticlesCodeCompilesRunsAndIsTheArticles() async throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let directory = temp.url

        let app = makeApp(at: directory)
        app.applicationDidFinishLaunching()
        try await app.weightEntryFeature.record(kilograms: 82.4)
        let history = try await app.progressFeature.selectProgressRange(.month)
        print(history.projectedWeeklyChangeKilograms ?? 0)
        await app.applicationWillTerminate()   // the backup check before you exit

        #expect(history.points.count == 1)
        let article = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Docs/Trend.docc/EmbeddingAppCore.md"), encoding: .utf8)
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let blocks = article.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        #expect(blocks.count == 2)
        for block in blocks {
            let code = block.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("import ") && !$0.isEmpty }
            let body = code.map { $0.trimmingCharacters(in: .whitespaces) }
            let lines = source.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            let found = lines.indices.contains { start in Array(lines.dropFirst(start).prefix(body.count)) == body }
            #expect(found, "the article's code is not this file's:\n\(block)")
        }
    }
}
