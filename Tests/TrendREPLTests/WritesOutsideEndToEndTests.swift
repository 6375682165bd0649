import Foundation
import Testing
import TestSupport

/// Issue 32, item 3: nothing is written outside the data directory but the
/// files a person names. Health Connect's database was copied to `$TMPDIR`
/// (and its `-wal` and `-shm` left there), and a "read-only" import of a
/// WAL-mode Loop backup made `-wal` and `-shm` beside it.
@Suite struct WritesOutsideEndToEndTests {
    /// Every name under `folder`, recursively.
    func names(under folder: URL) -> Set<String> {
        Set((FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String]) ?? [])
    }

    @Test func aHealthConnectImportWritesNothingInTheTemporaryFolder() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let scratch = temp.url.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        // The fixture's database in WAL mode, zipped as Health Connect exports it: a reader that opens
        // such a copy in the temporary folder leaves its -wal and -shm there.
        let archive = temp.url.appendingPathComponent("Health Connect.zip")
        let zip = """
            import shutil, sqlite3, sys, zipfile
            shutil.copy(sys.argv[1], sys.argv[2] + ".db")
            c = sqlite3.connect(sys.argv[2] + ".db"); c.execute("PRAGMA journal_mode=WAL"); c.close()
            with zipfile.ZipFile(sys.argv[2], "w", zipfile.ZIP_DEFLATED) as z: z.write(sys.argv[2] + ".db", "health_connect_export.db")
            """
        _ = try runTool("/usr/bin/python3", ["-c", zip, fixtureURL("apps/health_connect_export.db").path, archive.path])
        let data = temp.url.appendingPathComponent("data")
        let run = try runTrend(["--data-dir", data.path, "-c", "import '\(archive.path)'"], environment: ["TMPDIR": scratch.path])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("Imported"), "\(run.standardOutput)")
        #expect(names(under: scratch).isEmpty, "\(names(under: scratch))")
        #expect(names(under: data.appendingPathComponent(".import")).isEmpty, "the copy is gone once read")
    }

    @Test func aWALModeLoopBackupIsReadWithoutAFileMadeBesideIt() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let downloads = temp.url.appendingPathComponent("Downloads")
        try FileManager.default.createDirectory(at: downloads, withIntermediateDirectories: true)
        let backup = downloads.appendingPathComponent("Loop.db")
        try FileManager.default.copyItem(at: fixtureURL("loop/loop-backup.db"), to: backup)
        // Into WAL mode, as a phone leaves a database it had open.
        _ = try runTool("/usr/bin/python3", ["-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('PRAGMA journal_mode=WAL'); c.close()", backup.path])
        let before = try Data(contentsOf: backup)
        let data = temp.url.appendingPathComponent("data")
        for command in ["import '\(backup.path)' preview", "import '\(backup.path)'"] {
            let run = try runTrend(["--data-dir", data.path, "-c", command])
            #expect(run.status == 0, "\(command): \(run.standardError)")
            #expect(names(under: downloads) == ["Loop.db"], "\(command): \(names(under: downloads))")
        }
        #expect(try Data(contentsOf: backup) == before)
    }
}
