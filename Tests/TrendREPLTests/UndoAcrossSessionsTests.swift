import Foundation
import Storage
import Testing
import TestSupport

/// Undo and redo across processes, through the built binary: each run is
/// another session, and the journal in the database is what they share.
@Suite struct UndoAcrossSessionsTests {
    func json(_ directory: [String], _ commands: String...) throws -> [[String: Any]] {
        try runTrend(directory + ["--json"] + commands.flatMap { ["-c", $0] }).documents()
    }

    func weights(_ directory: [String]) throws -> [Double] {
        let entries = try #require(try json(directory, "entries all").first?["entries"] as? [[String: Any]])
        return entries.compactMap { $0["kilograms"] as? Double }.sorted()
    }

    @Test func anotherSessionsEditIsWhatUndoTakesBackNeverALostUpdate() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let directory = ["--data-dir", temp.url.path]
        let recorded = try json(directory, "weigh 80.9 2026-06-14 07:00")
        let id = try #require((recorded.first?["entry"] as? [String: Any])?["id"] as? String)
        #expect(try runTrend(directory + ["-c", "edit \(id.prefix(8)) 90"]).status == 0)

        // A third session's undo takes back the edit of the second, not the weigh-in of the first.
        let undone = try #require(try json(directory, "undo").first?["undone"] as? [String: Any])
        #expect(undone["action"] as? String == "edit")
        #expect(try weights(directory) == [80.9])
        let redone = try #require(try json(directory, "redo").first?["redone"] as? [String: Any])
        #expect(redone["action"] as? String == "edit")
        #expect(try weights(directory) == [90])

        // A writer outside the journal (another tool) changes the row: the undo refuses and changes nothing.
        let store = LocalDataStore(directory: temp.url)
        try store.write { try $0.run("UPDATE weight_entries SET kilograms = 91") }
        store.close()
        let refused = try runTrend(directory + ["--json", "-c", "undo"])
        #expect(refused.status == 1)
        let error = try #require(try refused.documents().first?["error"] as? [String: Any])
        #expect(error["code"] as? String == "conflict")
        #expect((error["message"] as? String)?.contains("has changed since") == true)
        #expect(try weights(directory) == [91])

        let history = try #require(try json(directory, "history 5").first?["history"] as? [[String: Any]])
        #expect(history.compactMap { $0["action"] as? String } == ["edit", "weigh"])
        let text = try runTrend(directory + ["-c", "history"])
        #expect(text.standardOutput.contains("edit of \(id.prefix(8)): 80.9 kg at 2026-06-14 07:00 → 90.0 kg at 2026-06-14 07:00"))
    }

    @Test func anImportAndARestoreAreUndoneWholeInLaterSessions() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let directory = ["--data-dir", temp.url.path]
        #expect(try runTrend(directory + ["-c", "weigh 82 2026-06-01 07:00"]).status == 0)
        let csv = temp.url.appendingPathComponent("history.csv")
        try Data("date,weight\n2026-06-01 07:00,82\n2026-06-02 07:00,81.5\n2026-06-03 07:00,81.2\n".utf8).write(to: csv)
        #expect(try runTrend(directory + ["-c", "import \(csv.path)"]).status == 0)
        #expect(try weights(directory) == [81.2, 81.5, 82])
        let undone = try #require(try json(directory, "undo").first?["undone"] as? [String: Any])
        #expect(undone["summary"] as? String == "import of history.csv (2 new weigh-ins)")
        #expect(try weights(directory) == [82], "exactly the rows the import added are gone")

        #expect(try runTrend(directory + ["-c", "backup now", "-c", "weigh 79 2026-06-14 07:00"]).status == 0)
        #expect(try runTrend(directory + ["-c", "restore latest"], input: "y\n").status == 0)
        #expect(try weights(directory) == [82])
        let back = try #require(try json(directory, "undo").first?["undone"] as? [String: Any])
        #expect(back["action"] as? String == "restore")
        #expect(try weights(directory) == [79, 82])

        let nothing = try runTrend(directory + ["--json", "-c", "redo", "-c", "redo"])
        #expect(nothing.status == 1)
        #expect((try nothing.documents().last?["error"] as? [String: Any])?["code"] as? String == "nothing_to_undo")
    }
}
