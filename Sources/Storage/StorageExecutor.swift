/// The serial executor storage work runs on. Every repository actor and the
/// backup worker run their jobs here, so a SQLite call that waits (the busy
/// timeout, a large transaction, an fsync) blocks neither the main actor
/// nor a thread of Swift's cooperative pool.
///
/// Jobs run one at a time, in order, on a lane of `BlockingPool.shared`,
/// the one place blocking work runs.
public final class StorageExecutor: SerialExecutor, Sendable {
    private let lane: BlockingPool.Lane

    public init(pool: BlockingPool = .shared) {
        lane = BlockingPool.Lane(on: pool)
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        lane.async { job.runSynchronously(on: executor) }
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }
}
