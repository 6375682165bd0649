import CSQLite
import Synchronization

/// Counts the SQL statements a store's connections run (each run of a
/// statement, not the statements its triggers run), so a test can say what
/// one command costs in round trips to SQLite (`sqlite3_trace_v2`).
public final class StatementCounter: Sendable {
    private let count = Atomic<Int>(0)

    public init() {}

    /// Statements run so far.
    public var value: Int { count.load(ordering: .relaxed) }

    /// Starts counting what `handle` runs; the counter must outlive the connection (the store keeps both).
    func watch(_ handle: OpaquePointer) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_trace_v2(handle, UInt32(SQLITE_TRACE_STMT), { _, context, _, text in
            // A trigger's program is reported as "-- TRIGGER name": part of its statement, not one more.
            if let context, let text, text.load(as: UInt8.self) != UInt8(ascii: "-") {
                Unmanaged<StatementCounter>.fromOpaque(context).takeUnretainedValue().count.add(1, ordering: .relaxed)
            }
            return 0
        }, context)
    }
}
