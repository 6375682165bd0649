import CSQLite
import Dispatch

/// The one thread storage work runs on. Every repository actor and the
/// backup worker run their jobs here, so a SQLite call that waits (the busy
/// timeout, a large transaction, an fsync) blocks neither the main actor
/// nor a thread of Swift's cooperative pool.
///
/// Jobs run one at a time, in order, on a serial dispatch queue of its own.
public final class StorageExecutor: SerialExecutor, @unchecked Sendable {
    // @unchecked: the only state is the queue, which is itself thread-safe.
    private let queue: DispatchQueue

    public init(label: String = "trend.storage") {
        queue = DispatchQueue(label: label, qos: .userInitiated)
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }
}
