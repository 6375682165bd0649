import Foundation
import Testing
import TestSupport
@testable import Storage

/// A connection prepares each SQL of `run`, `query` and the scalars once and reuses it (ten thousand
/// habits read with a query each parsed that query ten thousand times). Reuse must never show: a
/// query run inside another's rows, a statement that failed half-way, and bindings of the run before.
@Suite struct ReusedStatementTests {
    let store = LocalDataStore.inMemory()

    @Test func aQueryInsideTheRowsOfTheSameQueryGetsItsOwnStatement() throws {
        try store.write { connection in
            try connection.execute("CREATE TABLE t(n INTEGER PRIMARY KEY, v TEXT NOT NULL)")
            for n in 1...3 { try connection.run("INSERT INTO t(n, v) VALUES (?, ?)", [.int(n), .text("v\(n)")]) }
            let sql = "SELECT n FROM t WHERE n >= ? ORDER BY n"
            let pairs = try connection.query(sql, [.int(2)]) { outer in
                (outer.int(0), try connection.query(sql, [.int(outer.int(0))]) { $0.int(0) })
            }
            #expect(pairs.map(\.0) == [2, 3] && pairs.map(\.1) == [[2, 3], [3]])
            // The outer statement is free again, with nothing of the last run bound.
            #expect(try connection.query(sql, [.int(1)]) { $0.int(0) } == [1, 2, 3])
        }
    }

    @Test func aStatementThatFailedIsResetForTheNextRun() throws {
        try store.write { connection in
            try connection.execute("CREATE TABLE t(n INTEGER PRIMARY KEY, v TEXT NOT NULL)")
            let insert = "INSERT INTO t(n, v) VALUES (?, ?)"
            try connection.run(insert, [.int(1), .text("one")])
            #expect(throws: StorageError.self) { try connection.run(insert, [.int(1), .text("again")]) }
            #expect(throws: StorageError.self) { try connection.run(insert, [.int(2), .null]) }
            try connection.run(insert, [.int(2), .text("two")])
            #expect(try connection.query("SELECT v FROM t ORDER BY n") { $0.text(0) } == ["one", "two"])
            #expect(try connection.scalarInt("SELECT count(*) FROM t WHERE n > ?", [.int(0)]) == 2)
            #expect(try connection.scalarInt("SELECT count(*) FROM t WHERE n > ?", [.int(1)]) == 1)
        }
    }

    /// Text is bound from the string's own UTF-8: an empty string is text, not NULL; non-ASCII comes back as it
    /// went in; a string holding a NUL ends there, as the C string it used to be bound as ended there.
    @Test func textIsBoundAsTheStringHoldsIt() throws {
        try store.write { connection in
            try connection.execute("CREATE TABLE t(n INTEGER PRIMARY KEY, v TEXT)")
            let texts = ["", "plain", "naïve café ✓ 🏃", "before\u{0}after", String(repeating: "x", count: 100_000)]
            for (n, text) in texts.enumerated() { try connection.run("INSERT INTO t(n, v) VALUES (?, ?)", [.int(n), .text(text)]) }
            let back = try connection.query("SELECT v IS NULL, v, length(CAST(v AS BLOB)) FROM t ORDER BY n") { ($0.int(0), $0.text(1), $0.int(2)) }
            #expect(back.map(\.0) == [0, 0, 0, 0, 0])
            #expect(back.map(\.1) == ["", "plain", "naïve café ✓ 🏃", "before", String(repeating: "x", count: 100_000)])
            #expect(back.map(\.2) == [0, 5, "naïve café ✓ 🏃".utf8.count, 6, 100_000])
        }
    }
}
