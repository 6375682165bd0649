import Foundation
import Testing
import TestSupport

/// Runs the built `trend` as a user or a script would.
@Suite struct EndToEndTests {
    @Test func commandsRunWithDashCAndExitZero() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let run = try runTrend(["--data-dir", temp.url.path, "-c", "set unit lb", "-c", "settings"])
        #expect(run.status == 0)
        #expect(run.standardOutput.contains("unit            lb"))
        #expect(!run.standardOutput.contains("\u{1B}["))
    }

    @Test func jsonPrintsOneDocumentPerCommand() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let run = try runTrend(["--json", "--data-dir", temp.url.path, "-c", "set unit st", "-c", "settings"])
        #expect(run.status == 0)
        let documents = try run.documents()
        #expect(documents.count == 2)
        let settings = try #require(documents.last)
        #expect(settings["unit"] as? String == "st")
        #expect(settings["goalKilograms"] is NSNull)
        #expect(settings["progressRange"] as? String == "3m")
        #expect(settings["syncFolder"] is NSNull)
        #expect(settings["dataDirectory"] as? String == temp.url.path)
    }

    @Test func aScriptOnStandardInputRunsWithoutAPrompt() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let run = try runTrend(["--data-dir", temp.url.path], input: "set unit kg\n\n# a comment\nsettings\n")
        #expect(run.status == 0)
        #expect(!run.standardOutput.contains("trend>"))
        #expect(run.standardOutput.contains("unit            kg"))
    }

    @Test func aFailedCommandExitsOneAndReportsJSONError() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let run = try runTrend(["--json", "--data-dir", temp.url.path, "-c", "setings", "-c", "set unit furlong", "-c", "settings"])
        #expect(run.status == 1)
        let documents = try run.documents()
        #expect(documents.count == 3)
        let unknown = try #require(documents[0]["error"] as? [String: Any])
        #expect(unknown["code"] as? String == "unknown_command")
        #expect((unknown["message"] as? String)?.contains("did you mean 'settings'") == true)
        let invalid = try #require(documents[1]["error"] as? [String: Any])
        #expect(invalid["code"] as? String == "invalid_setting")
        #expect(documents[2]["unit"] as? String == "kg")
    }

    @Test func aBadFlagIsAUsageErrorWithStatusTwo() throws {
        let run = try runTrend(["--frobnicate"])
        #expect(run.status == 2)
        #expect(run.standardError.contains("unknown option '--frobnicate'"))
        #expect(try runTrend(["--version"]).standardOutput.hasPrefix("trend "))
    }

    @Test func aBrokenDatabaseStillAnswersHelpAndExplainsStorageCommands() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let file = temp.url.appendingPathComponent("trend.sqlite")
        let junk = Data(repeating: 0x41, count: 8192)
        try junk.write(to: file)
        let run = try runTrend(["--data-dir", temp.url.path, "-c", "help", "-c", "settings"])
        #expect(run.status == 1)
        #expect(run.standardOutput.contains("Commands by group:"))
        #expect(run.standardError.contains("not a Trend database"))
        #expect(try Data(contentsOf: file) == junk)
    }

    @Test func theDataDirectoryComesFromTheEnvironmentWhenNoFlagIsGiven() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let run = try runTrend(["--json", "-c", "settings"], environment: ["XDG_DATA_HOME": temp.url.path])
        let settings = try #require(try run.documents().first)
        #expect(settings["dataDirectory"] as? String == temp.url.appendingPathComponent("trend").path)
        let mode = try FileManager.default.attributesOfItem(atPath: temp.url.appendingPathComponent("trend").path)[.posixPermissions] as? Int
        #expect(mode == 0o700)
    }
}

/// Backups through the built binary.
@Suite struct BackupEndToEndTests {
    @Test func aProcessThatChangedDataLeavesASnapshotBehindAndListsIt() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let directory = ["--data-dir", temp.url.path]
        #expect(try runTrend(directory + ["-c", "weigh 80", "-c", "habit add Read"]).status == 0)
        let latest = temp.url.appendingPathComponent("Backups/Latest.json")
        #expect(FileManager.default.fileExists(atPath: latest.path))

        let list = try #require(try runTrend(directory + ["--json", "-c", "backup list"]).documents().first)
        let backups = try #require(list["backups"] as? [[String: Any]])
        let first = try #require(backups.first)
        #expect(first["name"] as? String == "latest")
        #expect(first["kind"] as? String == "latest")
        #expect(first["entries"] as? Int == 1)
        #expect(first["habits"] as? Int == 1)
        #expect((first["installationID"] as? String)?.count == 36)
        #expect(first["createdAt"] is String)
        #expect(backups.contains { $0["kind"] as? String == "weekly" })

        let restored = try runTrend(directory + ["--json", "-c", "weigh 81", "-c", "restore latest", "-c", "entries all"])
        #expect(restored.status == 0)
        let entries = try #require(try restored.documents().last?["entries"] as? [[String: Any]])
        #expect(entries.count == 1)
    }
}
