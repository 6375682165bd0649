/// Storage owns the one SQLite database of a Trend installation: where it
/// lives, how it is opened, its schema and its migrations, and the
/// transactions the repositories run. It imports no other Trend target.
import CSQLite
import Foundation

/// The one SQLite database, `trend.sqlite` in the data directory (or an
/// in-memory database for tests).
///
/// The database is opened on first use, not at construction, so the REPL can
/// prompt before storage is touched and a failure to open is reported to the
/// command that needed it; the next command tries again. Every use runs under
/// one lock, and the repositories built on it run on its `executor`, a
/// thread of its own: storage never blocks the main actor or Swift's pool.
public final class LocalDataStore: @unchecked Sendable {
    // @unchecked: the mutable connection is only touched while `lock` is held;
    // `interruptible` only while `interruptLock` is.
    /// Where the database lives: a file, or memory (tests).
    public enum Location: Sendable, Equatable {
        case file(URL)
        case memory
    }

    public static let fileName = "trend.sqlite"
    /// How long a statement waits for another process's lock before it reports the database busy.
    static let busyTimeoutMilliseconds: Int32 = 5_000

    public let location: Location
    /// The tables the database holds, as their owners declare them (AppCore's `DatabaseSchema.trend`).
    public let schema: DatabaseSchema
    /// The statements this store has run, for tests that hold a command to what it reads.
    public let statements = StatementCounter()
    /// Where the actors that use this store run their work.
    public let executor = StorageExecutor()
    private let lock = NSLock()
    private var connection: SQLiteConnection?
    private let interruptLock = NSLock()
    private var interruptible: OpaquePointer?
    private var changeObservers: [@Sendable () -> Void] = []
    private var warnings: [String] = []
    /// A write failed for want of space: the next successful one checkpoints, so the WAL shrinks back.
    private var checkpointAfterNextWrite = false
    /// Whether this connection has put the file in WAL mode: done before its
    /// first write, so a process that only reads (`trend -c today` on most
    /// runs) never switches journal modes, which costs a few synced writes.
    private var walEnabled = false
    /// Whether a statement found the file damaged: no write is tried on it again (guarded by `lock`).
    private var damaged = false
    /// How often this connection's own journal-mode switches moved `data_version` (see `switchJournalMode`).
    private var ownVersionBumps = 0

    /// Whether a write now costs no switch of journal modes: this process has
    /// written already (the file is in WAL mode), or the database is in memory.
    /// A cache is written when this holds, or when it saves more than the switch costs.
    public var writesCheaply: Bool { walEnabled || location == .memory }

    /// A store whose database is `trend.sqlite` inside `directory`; the
    /// directory is created (0700) when the database is first opened.
    public convenience init(directory: URL, schema: DatabaseSchema) {
        self.init(location: .file(directory.appendingPathComponent(Self.fileName)), schema: schema)
    }

    public init(location: Location, schema: DatabaseSchema) {
        self.location = location
        self.schema = schema
    }

    /// A private in-memory database: real SQLite, gone when the store is released.
    public static func inMemory(schema: DatabaseSchema) -> LocalDataStore {
        LocalDataStore(location: .memory, schema: schema)
    }

    /// The folder that holds the database file, or nil in memory.
    public var directory: URL? {
        if case let .file(url) = location { return url.deletingLastPathComponent() }
        return nil
    }

    public var displayPath: String {
        switch location {
        case let .file(url): return url.path
        case .memory: return ":memory:"
        }
    }

    /// Opens the database if it is not open yet; safe to call repeatedly.
    public func open() throws {
        try withConnection { _ in }
    }

    /// Runs `body` with the connection, outside any explicit transaction.
    @discardableResult
    public func read<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try withConnection(body)
    }

    /// Runs `body` in one immediate transaction: all of it is written, or none.
    /// Immediate, so a write that follows a read in another process waits for
    /// the busy timeout instead of failing halfway. Change observers hear of
    /// it after the commit unless `notifying` is false (bookkeeping writes).
    /// With a `journal` entry, what the body writes to the tables a person
    /// keeps is journaled under it, in the same transaction (see `ChangeJournal`).
    ///
    /// A `bulk` write (a large import) goes through the rollback
    /// journal when this connection can switch to it (no other connection has
    /// the file open in WAL mode): rows that land in new pages are then written
    /// once, where the WAL writes them twice (the log, then its checkpoint).
    /// The next ordinary write switches back to WAL. While it commits, other
    /// processes' reads wait for it (the busy timeout), as they never do in WAL.
    ///
    /// A write that is not `waiting` (a cache: the habits' checkpoints, the samples, a kept report) is made only
    /// when no other connection is writing: rather than wait up to the busy timeout behind another process's
    /// import or sync, it throws `StorageError.busy` at once, and the cache is written by a later command.
    @discardableResult
    public func write<T>(journal: JournalEntry? = nil, notifying: Bool = true, bulk: Bool = false, waiting: Bool = true,
                         _ body: (SQLiteConnection) throws -> T) throws -> T {
        let result = try withConnection { connection in
            if damaged { throw StorageError.notADatabase(path: displayPath) }
            if bulk, location != .memory {
                // Best effort: while another connection has the WAL open the switch is refused.
                if walEnabled, switchJournalMode("DELETE", on: connection) == "delete" {  // Refused: the WAL serves.
                    walEnabled = false
                }
            } else if !walEnabled, location != .memory {
                // Best effort: while another process holds the file (or on a read-only mount) the switch can
                // fail; the write then goes through the rollback journal, as safely, and the next one tries again.
                // BEGIN below reports what stops a write.
                walEnabled = switchJournalMode("WAL", on: connection) != nil  // Not now: the next write tries again.
            }
            if waiting {
                try connection.execute("BEGIN IMMEDIATE")
            } else {
                sqlite3_busy_timeout(connection.handle, 0)
                defer { sqlite3_busy_timeout(connection.handle, Self.busyTimeoutMilliseconds) }
                try connection.execute("BEGIN IMMEDIATE")
            }
            do {
                let change = try journal.map { try ChangeJournal.begin($0, in: connection) }
                let result = try body(connection)
                if let change { try ChangeJournal.finish(change, in: connection) }
                if notifying {
                    // A counter every process bumps, so a backup check can tell cheaply whether anything changed.
                    try connection.execute("""
                        INSERT INTO meta(key, value) VALUES('changeCount', '1')
                        ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1
                        """)
                }
                try connection.execute("COMMIT")
                if checkpointAfterNextWrite, location != .memory {
                    checkpointAfterNextWrite = false
                    try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                }
                return result
            } catch {
                // The body's error is the one to report; the rollback is tried until it takes.
                connection.rollBack()
                if case StorageError.diskFull = error { checkpointAfterNextWrite = true }
                if case StorageError.ioError = error { checkpointAfterNextWrite = true }
                throw error
            }
        }
        if notifying {
            for observer in lock.withLock({ changeObservers }) { observer() }
        }
        return result
    }

    /// Takes back the latest change any process of this installation made (a sync's merge is passed by), if the
    /// data still holds what it wrote.
    public func undoLatestChange() throws -> JournalChange {
        try write { try ChangeJournal.undo(in: $0) }
    }

    /// Applies again the change undone last, if the data still holds what it held when it was undone.
    public func redoLatestChange() throws -> JournalChange {
        try write { try ChangeJournal.redo(in: $0) }
    }

    /// The latest `limit` changes of the journal, newest first.
    public func journalChanges(limit: Int) throws -> [JournalChange] {
        try read { try ChangeJournal.changes(limit: limit, in: $0) }
    }

    /// Calls `observer` (on the writing thread) after every committed change
    /// to what a person keeps; the backup check listens here.
    public func addChangeObserver(_ observer: @escaping @Sendable () -> Void) {
        lock.withLock { changeObservers.append(observer) }
    }

    /// A number that changes whenever another connection (another `trend`
    /// process) commits to the database; this process's own writes leave it
    /// alone. Features compare it to know when to read again.
    public func externalVersion() throws -> Int {
        try read { try ($0.scalarInt("PRAGMA data_version") ?? 0) - ownVersionBumps }
    }

    /// Switches this connection's journal mode; nil when it could not (another
    /// process holds the file). SQLite counts the switch in `data_version` as if
    /// another connection had written; it is this one's, so `externalVersion`
    /// leaves it out, and no Feature reads everything again after a process's
    /// first write (a one-shot `weigh` read the whole log twice). Called under `lock`.
    private func switchJournalMode(_ mode: String, on connection: SQLiteConnection) -> String? {
        let before = try? connection.scalarInt("PRAGMA data_version")  // Unknown: the switch is not counted out.
        let result = try? connection.scalarText("PRAGMA journal_mode=\(mode)")  // The caller decides what a refusal means.
        // At most one bump is this switch's: a second would be another process's commit meanwhile.
        if let before, let after = try? connection.scalarInt("PRAGMA data_version"), after > before { ownVersionBumps += 1 }
        return result
    }

    /// How many changes any process has written (every write that notifies
    /// counts one), read on `connection` so it belongs to that read's moment.
    public static func changeCount(in connection: SQLiteConnection) throws -> Int {
        try connection.query("SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'changeCount'") { $0.int(0) }.first ?? 0
    }

    /// A value in the `meta` table (facts about this installation).
    public func metaValue(_ key: String) throws -> String? {
        try read { try $0.metaValue(key) }
    }

    /// Sets a `meta` value; not a change observers hear of.
    public func setMetaValue(_ value: String, for key: String) throws {
        try write(notifying: false) { try $0.setMetaValue(value, for: key) }
    }

    /// Removes `meta` values; not a change observers hear of.
    public func removeMetaValues(_ keys: [String]) throws {
        try write(notifying: false) { connection in
            for key in keys { try connection.run("DELETE FROM meta WHERE key = ?", [.text(key)]) }
        }
    }

    /// Runs `body` in one deferred transaction: every read sees the same
    /// moment, and other processes may go on reading meanwhile.
    @discardableResult
    public func readConsistently<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try withConnection { connection in
            try connection.execute("BEGIN")
            let result: T
            do {
                result = try body(connection)
            } catch {
                // Nothing was written; the read's own error is the one to report.
                connection.rollBack()
                throw error
            }
            try connection.execute("COMMIT")
            return result
        }
    }

    /// Stops the statement running now (from any thread): it fails with
    /// `StorageError.interrupted` and its transaction rolls back.
    public func interrupt() {
        interruptLock.withLock {
            if let interruptible { sqlite3_interrupt(interruptible) }
        }
    }

    /// Runs `operation`, a storage call awaited by a task; cancelling the task
    /// interrupts the SQL statement in progress, so a long import or restore
    /// stops and rolls back instead of running on unseen.
    public func cancellable<T: Sendable>(isolation: isolated (any Actor)? = #isolation,
                                         _ operation: () async throws -> T) async throws -> T {
        try Task.checkCancellation()
        return try await withTaskCancellationHandler(operation: operation, onCancel: { self.interrupt() },
                                                     isolation: isolation)
    }

    /// What opening the database had to say (a foreign WAL set aside); each is returned once.
    public func takeWarnings() -> [String] {
        lock.withLock {
            defer { warnings = [] }
            return warnings
        }
    }

    /// Closes the database (checkpointing the WAL, so no `-wal` or `-shm`
    /// stays behind when no other process has it open). The next use opens it again.
    public func close() {
        lock.withLock {
            if location != .memory, walEnabled {
                // Leaves the file in rollback-journal mode, which a read-only mount can still read;
                // best effort: while another process has the WAL open, it stays, and that process closes it.
                try? connection?.execute("PRAGMA journal_mode=DELETE")
            }
            interruptLock.withLock { interruptible = nil }
            connection = nil
            walEnabled = false
            ownVersionBumps = 0
        }
    }

    private func withConnection<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        if connection == nil {
            if case let .file(url) = location, let warning = Self.setAsideForeignLogs(of: url) { warnings.append(warning) }
            let opened = try Self.openConnection(at: location, schema: schema, counter: statements)
            connection = opened
            interruptLock.withLock { interruptible = opened.handle }
        }
        guard let connection else { throw StorageError.cannotOpen(path: displayPath, reason: "no connection") }
        do {
            return try body(connection)
        } catch StorageError.notADatabase(let path) {
            // Seen damaged once, the file is written no more by this process: not a journal-mode switch, not
            // the failure's bookkeeping (a damaged file stays byte for byte as it was, for whoever mends it).
            damaged = true
            throw StorageError.notADatabase(path: path)
        }
    }

    private static func openConnection(at location: Location, schema: DatabaseSchema, counter: StatementCounter) throws -> SQLiteConnection {
        let path: String
        switch location {
        case .memory:
            path = ":memory:"
        case let .file(url):
            path = url.path
            try prepareFile(at: url)
        }
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard let handle else {
            throw StorageError.cannotOpen(path: path, reason: "out of memory")
        }
        let connection = SQLiteConnection(handle: handle, path: path)
        if code != SQLITE_OK {
            throw connection.error(code: code, message: String(cString: sqlite3_errmsg(handle)))
        }
        sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
        counter.watch(handle)
        // The first statement that reads the file is where a foreign file shows itself.
        // WAL mode is set before the first write (see `write`), not here: reading needs no switch.
        // A new file gets 16 KB pages (an existing one keeps its own): a million-row import writes a
        // quarter of the WAL frames, one write call each, and the check-in reads fewer pages (4.6 s -> 4.1 s at
        // a million rows); a weigh-in's commit costs the same (docs/benchmarks.md).
        try connection.execute("PRAGMA page_size=16384; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON")
        try schema.migrate(connection)
        connection.schema = schema
        if case let .file(url) = location { try claimWAL(connection, of: url) }
        return connection
    }

    /// Creates the directory (0700) and an empty database file (0600) when
    /// missing; an existing file is never replaced.
    private static func prepareFile(at url: URL) throws {
        let manager = FileManager.default
        let directory = url.deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        if !manager.fileExists(atPath: directory.path, isDirectory: &isDirectory) {
            do {
                try manager.createDirectory(at: directory, withIntermediateDirectories: true,
                                            attributes: [.posixPermissions: 0o700])
                chmod(directory.path, 0o700)
            } catch {
                throw StorageError.cannotCreateDirectory(path: directory.path, reason: Self.reason(error))
            }
        } else if !isDirectory.boolValue {
            throw StorageError.cannotCreateDirectory(path: directory.path, reason: "a file of that name is in the way")
        }
        if !manager.fileExists(atPath: url.path) {
            let descriptor = Foundation.open(url.path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
            if descriptor < 0 {
                throw StorageError.cannotOpen(path: url.path, reason: String(cString: strerror(errno)))
            }
            fchmod(descriptor, 0o600)
            Foundation.close(descriptor)
        }
    }

    private static func reason(_ error: Error) -> String {
        (error as NSError).localizedFailureReason ?? (error as NSError).localizedDescription
    }
}

extension SQLiteConnection {
    /// A value in the `meta` table, inside a transaction the caller holds.
    public func metaValue(_ key: String) throws -> String? {
        try scalarText("SELECT value FROM meta WHERE key = ?", [.text(key)])
    }

    /// Sets a `meta` value inside a transaction the caller holds.
    public func setMetaValue(_ value: String, for key: String) throws {
        try run("INSERT INTO meta(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", [.text(key), .text(value)])
    }
}
