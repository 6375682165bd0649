/// Inserts many rows through one multi-row `INSERT … VALUES (…), (…)` per
/// `rowsPerStatement` rows, inside the caller's transaction.
///
/// A statement on a table with triggers (the change journal, the caches'
/// invalidation) runs in a statement transaction: the first change to each
/// page copies it to the statement journal. One row per statement pays that
/// for every row (a million-row import spent 7 of its 10 seconds there);
/// a hundred rows per statement pay it once per hundred. Four hundred pay it
/// less again (a device joining with 100,000 rows and their versions: 0.85 s
/// at a hundred, 0.76 s at four hundred, no quicker at a thousand), as many as
/// the SQLite in use takes parameters for.
public struct BatchedInsert {
    public static let preferredRowsPerStatement = 400
    /// Rows per statement: the preferred number, or fewer where SQLite takes fewer parameters (999 before 3.32).
    public let rowsPerStatement: Int

    private let connection: SQLiteConnection
    private let head: String
    private let columns: Int
    private var full: SQLiteStatement?
    private var pending: [SQLValue] = []
    /// Rows the table took (an `OR IGNORE` insert may leave some out).
    public private(set) var inserted = 0

    /// `head` is the statement up to `VALUES` (`INSERT OR IGNORE INTO t(a, b)`); each row has `columns` values.
    public init(_ head: String, columns: Int, in connection: SQLiteConnection) {
        self.connection = connection
        self.head = head
        self.columns = columns
        rowsPerStatement = max(1, min(Self.preferredRowsPerStatement, connection.parameterLimit / max(1, columns)))
        pending.reserveCapacity(columns * rowsPerStatement)
    }

    /// Adds a row's values, in column order; returns how many rows the table has taken so far.
    @discardableResult
    public mutating func add(_ values: [SQLValue]) throws -> Int {
        precondition(values.count == columns, "a row of \(values.count) values for \(columns) columns")
        pending += values
        if pending.count == columns * rowsPerStatement {
            if full == nil { full = try connection.prepare(sql(rows: rowsPerStatement)) }
            try run(full!)
        }
        return inserted
    }

    /// Inserts what is left; returns how many rows the table took in all.
    @discardableResult
    public mutating func finish() throws -> Int {
        if !pending.isEmpty { try run(try connection.prepare(sql(rows: pending.count / columns))) }
        return inserted
    }

    private mutating func run(_ statement: SQLiteStatement) throws {
        try statement.reset(pending)
        while try statement.step() {}
        inserted += connection.changes
        pending.removeAll(keepingCapacity: true)
    }

    private func sql(rows: Int) -> String {
        let row = "(" + Array(repeating: "?", count: columns).joined(separator: ", ") + ")"
        return head + " VALUES " + Array(repeating: row, count: rows).joined(separator: ", ")
    }
}
