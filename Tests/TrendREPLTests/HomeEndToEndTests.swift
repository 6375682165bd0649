import Foundation
import Testing
import TestSupport

/// Issue 32, item 4: `~` and the default data directory follow `$HOME`, as
/// XDG says; before, they came from the password database, so a sandbox, CI
/// or `sudo -E` reached the account's real database.
@Suite struct HomeEndToEndTests {
    @Test func theDefaultDataDirectoryAndTildeAreUnderHome() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let home = temp.url.appendingPathComponent("h")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let run = try runTrend(["-c", "weigh 80", "-c", "export ~/x.csv", "-c", "settings"], environment: ["HOME": home.path])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(FileManager.default.fileExists(atPath: home.appendingPathComponent("x.csv").path))
        #expect(FileManager.default.fileExists(atPath: home.appendingPathComponent(".local/share/trend/trend.sqlite").path))
        #expect(run.standardOutput.contains(home.appendingPathComponent(".local/share/trend").path), "\(run.standardOutput)")
    }
}
