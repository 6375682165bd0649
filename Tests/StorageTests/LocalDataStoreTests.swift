import Foundation
import Synchronization
import Testing
import TestSupport
@testable import Storage

@Suite struct LocalDataStoreTests {
    @Test func migratesAnEmptyFileToTheCurrentVersionAndReopens() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let directory = temp.url.appendingPathComponent("data")
        do {
            let store = LocalDataStore(directory: directory)
            try store.write { try $0.run("INSERT INTO settings(key, value) VALUES('unit', 'lb')") }
            let version = try store.read { try $0.scalarInt("PRAGMA user_version") }
            #expect(version == DatabaseSchema.trend.currentVersion)
        }
        let reopened = LocalDataStore(directory: directory)
        let unit = try reopened.read { try $0.query("SELECT value FROM settings WHERE key = 'unit'") { $0.text(0) } }
        #expect(unit == ["lb"])
        // Reading does not switch journal modes; the first write puts the file in WAL mode.
        try reopened.write { try $0.run("UPDATE settings SET value = 'kg'") }
        let mode = try reopened.read { try $0.query("PRAGMA journal_mode") { $0.text(0) } }
        #expect(mode == ["wal"])
    }

    /// A bulk write goes through the rollback journal when this connection is
    /// the file's only one, and the next ordinary write is back in WAL mode.
    /// While another connection has the WAL open, the switch is refused and
    /// the bulk write goes through the WAL, as safely. A bulk write that fails
    /// leaves nothing, whichever journal it went through.
    @Test func aBulkWriteTakesTheRollbackJournalWhenItCanAndStillRollsBack() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let directory = temp.url.appendingPathComponent("data")
        let store = LocalDataStore(directory: directory)
        let mode = { (connection: SQLiteConnection) in try connection.scalarText("PRAGMA journal_mode") }
        #expect(try store.write { try mode($0) } == "wal")
        #expect(try store.write(bulk: true) { try mode($0) } == "delete")
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            try store.write(bulk: true) { connection in
                try connection.run("INSERT INTO settings(key, value) VALUES('unit', 'lb')")
                throw Refused()
            }
        }
        #expect(try store.read { try $0.scalarInt("SELECT count(*) FROM settings WHERE key = 'unit'") } == 0)
        #expect(try store.write { try mode($0) } == "wal")

        let other = LocalDataStore(directory: directory)
        #expect(try other.read { try mode($0) } == "wal")
        #expect(try store.write(bulk: true) { try mode($0) } == "wal")
        #expect(throws: Refused.self) {
            try store.write(bulk: true) { connection in
                try connection.run("INSERT INTO settings(key, value) VALUES('unit', 'lb')")
                throw Refused()
            }
        }
        try store.write(bulk: true) { try $0.run("INSERT INTO settings(key, value) VALUES('unit', 'lb')") }
        #expect(try other.read { try $0.scalarText("SELECT value FROM settings WHERE key = 'unit'") } == "lb")
    }

    /// A cache's write (`waiting: false`) does not queue behind another process's write: while one holds the lock
    /// (an import, a sync join), `habits` and `habit show` answer at once and keep their checkpoints another time.
    @Test func aWriteThatDoesNotWaitGivesWayToAnotherProcesssWrite() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let cache = LocalDataStore(directory: temp.url), other = LocalDataStore(directory: temp.url)
        try cache.write { try $0.execute("CREATE TABLE cached(value INTEGER)") }
        // Were the lock waited for, this write would wait ten minutes, past the bound below.
        try cache.read { try $0.execute("PRAGMA busy_timeout = 600000") }
        let attempt = Mutex<Result<Void, any Error>?>(nil)
        try other.write { _ in
            let answered = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                let result = Result { try cache.write(notifying: false, waiting: false) { try $0.execute("INSERT INTO cached VALUES (1)") } }
                attempt.withLock { $0 = result }
                answered.signal()
            }
            #expect(answered.wait(timeout: .now() + 30) == .success, "the write waited for the other process's lock")
        }
        let path = temp.url.appendingPathComponent(LocalDataStore.fileName).path
        #expect(throws: StorageError.busy(path: path)) { try attempt.withLock { $0 }?.get() }
        // Nothing was written, and the next write waits as every write does.
        #expect(try cache.read { try $0.scalarInt("SELECT count(*) FROM cached") } == 0)
        #expect(try cache.read { try $0.scalarInt("PRAGMA busy_timeout") } == Int(LocalDataStore.busyTimeoutMilliseconds))
        try cache.write(notifying: false, waiting: false) { try $0.execute("INSERT INTO cached VALUES (1)") }
        #expect(try cache.read { try $0.scalarInt("SELECT count(*) FROM cached") } == 1)
    }

    @Test func createsTheDirectoryAndFileWithPrivatePermissions() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let directory = temp.url.appendingPathComponent("nested/data")
        try LocalDataStore(directory: directory).open()
        let directoryMode = try FileManager.default.attributesOfItem(atPath: directory.path)[.posixPermissions] as? Int
        let fileMode = try FileManager.default.attributesOfItem(
            atPath: directory.appendingPathComponent(LocalDataStore.fileName).path)[.posixPermissions] as? Int
        #expect(directoryMode == 0o700)
        #expect(fileMode == 0o600)
    }

    @Test func reportsAFileThatIsNotADatabaseAndLeavesItAlone() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let file = temp.url.appendingPathComponent(LocalDataStore.fileName)
        let original = Data(String(repeating: "these are my notes, not a database\n", count: 200).utf8)
        try original.write(to: file)
        let store = LocalDataStore(directory: temp.url)
        #expect(throws: StorageError.notADatabase(path: file.path)) { try store.open() }
        // A second attempt reports the same and still changes nothing.
        #expect(throws: StorageError.notADatabase(path: file.path)) { try store.open() }
        #expect(try Data(contentsOf: file) == original)
        let message = StorageError.notADatabase(path: file.path).description
        #expect(message.contains("left untouched"))
        #expect(message.contains("restore"))
    }

    @Test func refusesADatabaseFromANewerTrend() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let store = LocalDataStore(directory: temp.url)
        try store.write { try $0.execute("PRAGMA user_version = 999") }
        let again = LocalDataStore(directory: temp.url)
        #expect(throws: StorageError.self) { try again.open() }
        do {
            try again.open()
        } catch let error as StorageError {
            #expect(error == .newerSchema(path: temp.url.appendingPathComponent(LocalDataStore.fileName).path,
                                          found: 999, supported: DatabaseSchema.trend.currentVersion))
        }
    }

    @Test func aFailedTransactionWritesNothing() throws {
        let store = LocalDataStore.inMemory()
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try store.write { connection in
                try connection.run("INSERT INTO settings(key, value) VALUES('a', '1')")
                throw Stop()
            }
        }
        let count = try store.read { try $0.scalarInt("SELECT COUNT(*) FROM settings") }
        #expect(count == 0)
    }

    @Test func anUncreatableDirectoryIsATypedErrorAndCanBeRetried() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let blocker = temp.url.appendingPathComponent("blocked")
        try Data("x".utf8).write(to: blocker)
        let store = LocalDataStore(directory: blocker.appendingPathComponent("data"))
        #expect(throws: StorageError.self) { try store.open() }
        try FileManager.default.removeItem(at: blocker)
        try store.open()
    }

    @Test func textIsBoundSafely() throws {
        let store = LocalDataStore.inMemory()
        let hostile = "'); DROP TABLE settings; -- \u{0} emoji 🏋️"
        try store.write { try $0.run("INSERT INTO settings(key, value) VALUES('note', ?)", [.text(hostile)]) }
        let values = try store.read { try $0.query("SELECT value FROM settings") { $0.text(0) } }
        #expect(values.count == 1)
        #expect(values.first?.hasPrefix("'); DROP TABLE settings; -- ") == true)
    }

    /// The first write of a process switches the file to WAL, which SQLite counts in `data_version` as
    /// another connection's change; it is this one's, so nothing that was read is read again for it.
    @Test func aJournalModeSwitchIsNotAnotherProcesssChange() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let first = LocalDataStore(directory: temp.url)
        try first.write { try $0.execute("INSERT INTO settings(key, value) VALUES ('unit', 'lb')") }
        first.close()  // Back to the rollback journal, as a process leaves it.
        let store = LocalDataStore(directory: temp.url)
        let before = try store.externalVersion()
        try store.write { try $0.execute("INSERT INTO settings(key, value) VALUES ('goal', '80')") }
        #expect(try store.externalVersion() == before)
        let other = LocalDataStore(directory: temp.url)
        try other.write { try $0.execute("UPDATE settings SET value = 'kg' WHERE key = 'unit'") }
        #expect(try store.externalVersion() != before, "another connection's write still shows")
    }
}
