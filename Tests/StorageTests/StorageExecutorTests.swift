import Foundation
import Testing
@testable import Storage

/// An actor that does its storage work the way the repositories do.
private actor Probe {
    let store: LocalDataStore
    nonisolated var unownedExecutor: UnownedSerialExecutor { store.executor.asUnownedSerialExecutor() }

    init(store: LocalDataStore) {
        self.store = store
    }

    func readOnItsThread() throws -> (mainThread: Bool, count: Int) {
        (Thread.isMainThread, try store.read { try $0.scalarInt("SELECT COUNT(*) FROM settings") ?? -1 })
    }

    func insertUnlessCancelled() async throws {
        _ = try await store.cancellable {
            try store.write { try $0.run("INSERT INTO settings(key, value) VALUES('k', 'v')") }
        }
    }
}

/// A flag one thread sets and another reads.
private final class ManagedAtomicFlag: @unchecked Sendable {
    // @unchecked: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}

@Suite struct StorageExecutorTests {
    @MainActor
    @Test func storageWorkRunsOnTheStoresThreadNotTheMainActors() async throws {
        let probe = Probe(store: .inMemory())
        let (onMain, count) = try await probe.readOnItsThread()
        #expect(!onMain)
        #expect(count == 0)
    }

    @Test func anInterruptedWriteFailsAndRollsBack() throws {
        let store = LocalDataStore.inMemory()
        try store.open()
        // Another thread interrupts until the write has ended; the write would take minutes otherwise.
        let finished = ManagedAtomicFlag()
        let stopped = DispatchSemaphore(value: 0)
        let interrupter = Thread {
            while !finished.isSet { store.interrupt() }
            stopped.signal()
        }
        interrupter.start()
        defer { finished.set() }
        #expect(throws: StorageError.interrupted(path: ":memory:")) {
            try store.write { connection in
                try connection.run("INSERT INTO settings(key, value) VALUES('first', '1')")
                try connection.run("""
                    WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 1000000000)
                    INSERT INTO settings(key, value) SELECT 'k' || x, x FROM n
                    """)
            }
        }
        finished.set()
        // The interrupter must be gone before the check reads, or it could stop the check itself.
        stopped.wait()
        #expect(try store.read { try $0.scalarInt("SELECT COUNT(*) FROM settings") } == 0, "nothing of it was kept")
    }

    @Test func aCancelledTaskWritesNothing() async throws {
        let store = LocalDataStore.inMemory()
        let probe = Probe(store: store)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await probe.insertUnlessCancelled()
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(try store.read { try $0.scalarInt("SELECT COUNT(*) FROM settings") } == 0)
    }
}
