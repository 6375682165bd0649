import Foundation
import Testing
import TestSupport

/// Every command that takes a weight reads it in the person's unit, in a
/// one-shot `-c` run and in a script on standard input alike, where nothing
/// is loaded ahead of the command.
@Suite struct UnitEndToEndTests {
    static let pound = 0.45359237

    @Test(arguments: [("kg", "80", 80.0), ("lb", "176", 176 * pound), ("st", "12", 12 * 14 * pound)])
    func weightsAreTypedInTheUnitOfTheSettings(unit: String, typed: String, kilograms: Double) throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let data = temp.url.appendingPathComponent("data")
        #expect(try runTrend(["--data-dir", data.path, "-c", "set unit \(unit)"]).status == 0)
        for script in [false, true] {
            let commands = ["goal \(typed)", "weigh \(typed)"]
            let run = script
                ? try runTrend(["--data-dir", data.path, "--json"], input: commands.joined(separator: "\n") + "\n")
                : try runTrend(["--data-dir", data.path, "--json"] + commands.flatMap { ["-c", $0] })
            let documents = try run.documents()
            #expect(run.status == 0, "\(run.standardError)")
            let goal = try #require(documents.first?["goalKilograms"] as? Double)
            #expect(abs(goal - kilograms) < 1e-9, "goal in \(unit), \(script ? "script" : "-c")")
            let entry = try #require(documents.last?["entry"] as? [String: Any])
            #expect(abs((entry["kilograms"] as? Double ?? 0) - kilograms) < 1e-9, "weigh in \(unit)")
            let id = try #require(entry["id"] as? String)
            let edited = try runTrend(["--data-dir", data.path, "--json", "-c", "edit \(id.prefix(8)) \(typed)"])
            #expect(edited.status == 0, "\(edited.standardError)")
        }
    }
}
