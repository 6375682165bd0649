import Foundation
import Storage
import TestSupport
import Testing

/// `SQLiteConnection.openUntrusted` opens another program's database by a URI (`file:…?immutable=1`): a path with
/// the URI's own characters in it (`%`, `?`, `#`), a space or letters outside ASCII is the file it names, not another.
@Suite struct UntrustedDatabaseTests {
    @Test(arguments: ["Loop 100% backup.db", "what?.db", "#2 habits.db", "Sauvegarde Loop – été.db", "a%3Fb.db"])
    func aPathWithTheURIsOwnCharactersOpensTheFileItNames(_ name: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trend-untrusted-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // A real Loop Habit Tracker backup (Tests/Fixtures/loop), under the name.
        let file = folder.appendingPathComponent(name)
        try FileManager.default.copyItem(at: fixtureURL("loop/loop-backup.db"), to: file)
        let reader = try SQLiteConnection.openUntrusted(path: file.path)
        #expect(try reader.query("SELECT count(*) FROM Habits") { $0.int(0) }.first ?? 0 > 0)
        // Nothing made beside it, and nothing under a name the URI would have cut.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [name])
    }
}
