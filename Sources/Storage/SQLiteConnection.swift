import CSQLite
import Foundation

/// One open SQLite connection. Only `LocalDataStore` creates these and it
/// serialises every use, so the type itself needs no locking.
public final class SQLiteConnection {
    let handle: OpaquePointer
    let path: String
    /// The schema the store migrated it to: the journal reads its tables from it (empty for a file someone else wrote).
    var schema = DatabaseSchema([])

    init(handle: OpaquePointer, path: String) {
        self.handle = handle
        self.path = path
    }

    /// Statements `run`, `query` and the scalars prepared before, by their SQL: parsing the same
    /// SQL again for each of ten thousand habits cost more than running it.
    private var reusable: [String: OpaquePointer] = [:]
    /// Those in use now: a query run inside another's row gets a statement of its own.
    private var busy: Set<String> = []
    /// How many statements are kept (SQL with values written into it is not worth keeping past this).
    static let reusableLimit = 256

    deinit {
        for statement in reusable.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    /// Runs `body` with `sql` prepared (once per connection) and `parameters` bound; the statement is reset after.
    private func withStatement<T>(_ sql: String, _ parameters: [SQLValue], _ body: (SQLiteStatement) throws -> T) throws -> T {
        guard !busy.contains(sql) else { return try body(try prepare(sql, parameters)) }
        let statement: SQLiteStatement
        if let kept = reusable[sql] {
            statement = SQLiteStatement(handle: kept, connection: self, owned: false)
        } else {
            let made = try prepare(sql)
            guard reusable.count < Self.reusableLimit else {
                try made.bind(parameters)
                return try body(made)
            }
            made.owned = false
            reusable[sql] = made.handle
            statement = made
        }
        busy.insert(sql)
        defer {
            sqlite3_reset(statement.handle)
            sqlite3_clear_bindings(statement.handle)
            busy.remove(sql)
        }
        try statement.bind(parameters)
        return try body(statement)
    }

    /// Runs one or more statements that return no rows.
    public func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        if code != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(message)
            throw error(code: code, message: text)
        }
    }

    /// Prepares one statement with its parameters bound in order.
    public func prepare(_ sql: String, _ parameters: [SQLValue] = []) throws -> SQLiteStatement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else {
            throw error(code: code, message: String(cString: sqlite3_errmsg(handle)))
        }
        let prepared = SQLiteStatement(handle: statement, connection: self)
        try prepared.bind(parameters)
        return prepared
    }

    /// Runs a statement that returns no rows and reports how many rows it changed.
    @discardableResult
    public func run(_ sql: String, _ parameters: [SQLValue] = []) throws -> Int {
        try withStatement(sql, parameters) { statement in
            while try statement.step() {}
            return Int(sqlite3_changes(handle))
        }
    }

    /// Rows changed by the last statement.
    public var changes: Int { Int(sqlite3_changes(handle)) }

    /// The most `?` parameters one statement may take (999 before SQLite 3.32, 32766 since, or as built).
    public var parameterLimit: Int { Int(sqlite3_limit(handle, SQLITE_LIMIT_VARIABLE_NUMBER, -1)) }

    /// Rolls back the open transaction, if any. A ROLLBACK can itself be
    /// interrupted (`LocalDataStore.interrupt()` from another thread), which
    /// would leave the transaction open and its changes visible to the next
    /// statement: it is tried again until no transaction is left.
    public func rollBack() {
        for _ in 0..<1_000 where sqlite3_get_autocommit(handle) == 0 {
            // Best effort each time: the loop checks whether it took.
            try? execute("ROLLBACK")
        }
    }

    /// Collects every row of a query.
    public func query<T>(_ sql: String, _ parameters: [SQLValue] = [], row: (SQLiteStatement) throws -> T) throws -> [T] {
        try withStatement(sql, parameters) { statement in
            var rows: [T] = []
            while try statement.step() {
                rows.append(try row(statement))
            }
            return rows
        }
    }

    /// The integer in the first column of the first row, if any.
    public func scalarInt(_ sql: String, _ parameters: [SQLValue] = []) throws -> Int? {
        try query(sql, parameters) { $0.isNull(0) ? nil : $0.int(0) }.first ?? nil
    }

    /// The text in the first column of the first row, if any.
    public func scalarText(_ sql: String, _ parameters: [SQLValue] = []) throws -> String? {
        try query(sql, parameters) { $0.isNull(0) ? nil : $0.text(0) }.first ?? nil
    }

    func error(code: Int32, message: String) -> StorageError {
        switch code & 0xFF {
        case SQLITE_NOTADB, SQLITE_CORRUPT: return .notADatabase(path: path)
        case SQLITE_READONLY: return .readOnly(path: path)
        case SQLITE_FULL: return .diskFull(path: path)
        case SQLITE_BUSY, SQLITE_LOCKED: return .busy(path: path)
        case SQLITE_CANTOPEN:
            // The system's reason, where it is not the permissions the message then points at.
            let system = sqlite3_system_errno(handle)
            if system == EMFILE || system == ENFILE { return .tooManyOpenFiles(path: path) }
            return .cannotOpen(path: path, reason: message)
        case SQLITE_IOERR: return .ioError(path: path, reason: message)
        case SQLITE_INTERRUPT: return .interrupted(path: path)
        default: return .sqlite(code: code, message: message)
        }
    }
}

/// A value bound to a statement parameter.
public enum SQLValue: Sendable, Hashable {
    case null
    case int(Int)
    case double(Double)
    case text(String)
    /// Doubles packed as one BLOB, in this machine's byte order (a cache the same machine reads back).
    case doubles([Double])

    public static func optional(_ value: Double?) -> SQLValue { value.map(SQLValue.double) ?? .null }
    public static func optional(_ value: String?) -> SQLValue { value.map(SQLValue.text) ?? .null }

    /// The value as a number when it is one (an integer or a real), else nil.
    public var number: Double? {
        switch self {
        case let .int(value): Double(value)
        case let .double(value): value
        default: nil
        }
    }
}

/// A prepared statement; finalised when released.
public final class SQLiteStatement {
    let handle: OpaquePointer
    let connection: SQLiteConnection
    /// Whether it finalizes its statement when it goes (not one the connection keeps for reuse).
    fileprivate(set) var owned: Bool

    init(handle: OpaquePointer, connection: SQLiteConnection, owned: Bool = true) {
        self.handle = handle
        self.connection = connection
        self.owned = owned
    }

    func bind(_ parameters: [SQLValue]) throws {
        for (offset, value) in parameters.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .null: code = sqlite3_bind_null(handle, index)
            case let .int(number): code = sqlite3_bind_int64(handle, index, Int64(number))
            case let .double(number): code = sqlite3_bind_double(handle, index, number)
            case let .text(text): code = sqlite3_bind_text(handle, index, text, -1, csqlite_transient())
            case let .doubles(values):
                code = values.withUnsafeBytes { bytes in
                    sqlite3_bind_blob(handle, index, bytes.baseAddress, Int32(clamping: bytes.count), csqlite_transient())
                }
            }
            if code != SQLITE_OK {
                throw connection.error(code: code, message: String(cString: sqlite3_errmsg(connection.handle)))
            }
        }
    }

    deinit {
        if owned { sqlite3_finalize(handle) }
    }

    /// Advances to the next row; false when the statement is done.
    public func step() throws -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.error(code: code, message: String(cString: sqlite3_errmsg(connection.handle)))
        }
    }

    /// Runs the statement again with new parameters.
    public func reset(_ parameters: [SQLValue]) throws {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        try bind(parameters)
    }

    public func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }
    public func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }
    public func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }
    public func text(_ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(handle, column) else { return "" }
        return String(cString: bytes)
    }
    /// The column's text as the bytes `text(_:)` makes its `String` from (up to the first NUL), without making one.
    public func withText<R>(_ column: Int32, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        guard let bytes = sqlite3_column_text(handle, column) else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
        return body(UnsafeBufferPointer(start: bytes, count: strlen(UnsafeRawPointer(bytes).assumingMemoryBound(to: CChar.self))))
    }
    public func optionalText(_ column: Int32) -> String? { isNull(column) ? nil : text(column) }
    public func optionalDouble(_ column: Int32) -> Double? { isNull(column) ? nil : double(column) }
    public func optionalInt(_ column: Int32) -> Int? { isNull(column) ? nil : int(column) }
    /// A column's value with its storage class; nil for a BLOB, which no row a person keeps holds.
    public func value(_ column: Int32) -> SQLValue? {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_NULL: .null
        case SQLITE_INTEGER: .int(int(column))
        case SQLITE_FLOAT: .double(double(column))
        case SQLITE_TEXT: .text(text(column))
        default: nil
        }
    }

    /// A BLOB of doubles as `SQLValue.doubles` packed them; nil when its length is not a whole number of them.
    public func doubles(_ column: Int32) -> [Double]? {
        let length = Int(sqlite3_column_bytes(handle, column))
        guard length % MemoryLayout<Double>.size == 0 else { return nil }
        let count = length / MemoryLayout<Double>.size
        guard count > 0 else { return [] }
        guard let bytes = sqlite3_column_blob(handle, column) else { return nil }
        return [Double](unsafeUninitializedCapacity: count) { buffer, initialized in
            UnsafeMutableRawBufferPointer(buffer).copyMemory(from: UnsafeRawBufferPointer(start: bytes, count: length))
            initialized = count
        }
    }
}

extension SQLiteConnection {
    /// A private database in memory (a fresh schema built to compare with).
    static func openInMemory() throws -> SQLiteConnection {
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(":memory:", &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil)
        guard let handle else { throw StorageError.cannotOpen(path: ":memory:", reason: "out of memory") }
        let connection = SQLiteConnection(handle: handle, path: ":memory:")
        if code != SQLITE_OK { throw connection.error(code: code, message: String(cString: sqlite3_errmsg(handle))) }
        return connection
    }

    /// Opens a database file someone else wrote (a Loop Habit Tracker backup)
    /// to read it and nothing more: read-only, its schema untrusted (no
    /// functions or views from it run with side effects), queries only.
    /// Throws `StorageError.notADatabase` for a file that is not SQLite.
    public static func openUntrusted(path: String) throws -> SQLiteConnection {
        var handle: OpaquePointer?
        // Immutable: no lock, no `-wal` or `-shm` made or changed beside it (a read-only open of a WAL-mode file
        // makes both, in the person's Downloads or synced folder). What only its `-wal` holds is not read.
        // A URI's path: `%`, `?` and `#` (and anything not plain) percent-encoded, as SQLite decodes them.
        let escaped = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
        let code = sqlite3_open_v2("file:" + escaped + "?immutable=1", &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI, nil)
        guard let handle else { throw StorageError.cannotOpen(path: path, reason: "out of memory") }
        let connection = SQLiteConnection(handle: handle, path: path)
        if code != SQLITE_OK { throw connection.error(code: code, message: String(cString: sqlite3_errmsg(handle))) }
        // The first statement that reads the file is where a file that is not SQLite shows itself.
        try connection.execute("PRAGMA trusted_schema = OFF; PRAGMA query_only = ON; PRAGMA cell_size_check = ON")
        _ = try connection.scalarInt("SELECT count(*) FROM sqlite_master")
        return connection
    }
}
