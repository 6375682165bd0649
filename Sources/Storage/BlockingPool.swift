import Foundation

/// The one place blocking work runs: SQLite calls, file reading and writing,
/// hashing. Like swift-nio's `NIOThreadPool`, it is a set of threads of its
/// own that take work items in order, so a call that blocks holds neither
/// the main actor nor a thread of Swift's cooperative pool, and cancellation
/// passes through: a task cancelled before its item starts never runs it
/// (`CancellationError`), and a running item sees `isCancelled` turn true.
///
/// The pool grows by a thread when every thread is busy (items may wait on
/// one another: an import's reader hands batches to the storage lane that
/// writes them), up to `maximumThreads`; an idle thread waits for the next item.
/// `StorageExecutor` is a serial lane on it; `BackgroundStage` a consumer on it.
public final class BlockingPool: @unchecked Sendable {
    // @unchecked: `items`, `idle` and `threads` are guarded by `condition`.
    /// The pool every part of Trend shares.
    public static let shared = BlockingPool()

    /// Whether the work's task was cancelled; a long item checks it between steps.
    public final class Cancellation: @unchecked Sendable {
        // @unchecked: one flag, read and written under its lock.
        private let lock = NSLock()
        private var cancelled = false

        public init() {}

        public var isCancelled: Bool { lock.withLock { cancelled } }

        func cancel() { lock.withLock { cancelled = true } }
    }

    private let maximumThreads: Int
    private let condition = NSCondition()
    private var items: [() -> Void] = []
    private var head = 0
    private var idle = 0
    private var threads = 0

    /// Starts a thread that runs its argument; false when none could start. Tests replace it.
    private let spawn: (@escaping () -> Void) -> Bool

    public convenience init(maximumThreads: Int = 32) {
        self.init(maximumThreads: maximumThreads, spawn: BlockingPool.startThread)
    }

    init(maximumThreads: Int, spawn: @escaping (@escaping () -> Void) -> Bool) {
        self.maximumThreads = maximumThreads
        self.spawn = spawn
    }

    /// No thread could take the work: the system refused one (a limit on threads or memory) while every
    /// thread the pool has is busy.
    public struct NoThread: Error, CustomStringConvertible {
        public init() {}

        public var description: String {
            "the system would start no thread for it (a limit on processes or memory, ulimit -u or -v); nothing was changed"
        }
    }

    /// Runs `item` on one of the pool's threads, soon, in the order submitted.
    ///
    /// When no thread can take it (the system starts no new one, and every thread the pool has is busy), a
    /// pool with no thread at all runs it here, on the caller's thread; otherwise `ifRefused` runs instead, or,
    /// without one, the item waits for a busy thread to finish.
    ///
    /// With `spare`, the item runs only when that many more threads are free for other work while it runs,
    /// else `ifRefused` runs: an import's reader, which waits for the storage lane to take its batches, never
    /// takes the last thread the lane would need (under `ulimit -v` or `-u` the system may start no other).
    public func submit(_ item: @escaping @Sendable () -> Void, ifRefused: (@Sendable () -> Void)? = nil, spare: Int = 0) {
        condition.lock()
        items.append(item)
        var started = true
        while items.count - head + spare > idle, threads < maximumThreads {
            threads += 1
            idle += 1  // Until it takes its first item.
            if !spawn({ [self] in work() }) {
                threads -= 1
                idle -= 1
                started = false
                break
            }
            if spare == 0 { break }  // One more thread for one more item: the others may finish meanwhile.
        }
        if !started {
            // No thread could start (a limit on threads or memory, as in a container): rather than wait
            // for a thread that never comes, the item runs here when the pool has none at all, or is refused.
            let short = spare > 0 ? items.count - head + spare > idle : (ifRefused != nil && idle == 0)
            if (threads == 0 && spare == 0) || (ifRefused != nil && short) {
                items.removeLast()
                condition.unlock()
                if threads == 0 && spare == 0 { item() } else { ifRefused?() }
                return
            }
        }
        condition.signal()
        condition.unlock()
    }

    /// Starts a thread running `body`; false when the system refuses one (`pthread_create` fails:
    /// Foundation's `Thread` would say nothing and the work would wait forever).
    static func startThread(_ body: @escaping () -> Void) -> Bool {
        var attributes = pthread_attr_t()
        guard pthread_attr_init(&attributes) == 0 else { return false }
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, 1 << 20)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let context = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        guard pthread_create(&thread, &attributes, { context in
            // Only `startThread` passes a context: a retained box.
            guard let context else { return nil }
            Unmanaged<Box>.fromOpaque(context).takeRetainedValue().body()
            return nil
        }, context) == 0 else {
            Unmanaged<Box>.fromOpaque(context).release()
            return false
        }
        return true
    }

    /// A thread's body, handed to it through C.
    private final class Box {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    /// Runs `body` on the pool and returns what it returns. A cancelled task's
    /// item that has not started yet throws `CancellationError` without running;
    /// one that runs is told through its `Cancellation`.
    public func run<T: Sendable>(_ body: @escaping @Sendable (Cancellation) throws -> T) async throws -> T {
        let cancellation = Cancellation()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                submit({
                    guard !cancellation.isCancelled else { return continuation.resume(throwing: CancellationError()) }
                    continuation.resume(with: Result { try body(cancellation) })
                }, ifRefused: { continuation.resume(throwing: NoThread()) })
            }
        } onCancel: {
            cancellation.cancel()
        }
    }

    /// `run` for work that cannot fail.
    public func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            submit { continuation.resume(returning: body()) }
        }
    }

    private func work() {
        condition.lock()
        while true {
            while head == items.count { condition.wait() }
            idle -= 1
            let item = items[head]
            head += 1
            // The queue's front is dropped once it is most of the array: no copy per item.
            if head > 64, head * 2 > items.count {
                items.removeFirst(head)
                head = 0
            }
            condition.unlock()
            item()
            condition.lock()
            idle += 1
        }
    }

    /// A serial lane on the pool: items run one at a time, in order, each on
    /// whichever pool thread is free (no thread of its own).
    public final class Lane: @unchecked Sendable {
        // @unchecked: `items` and `running` are guarded by `lock`.
        private let pool: BlockingPool
        private let lock = NSLock()
        private var items: [@Sendable () -> Void] = []
        private var running = false
        private let pending = DispatchGroup()

        public init(on pool: BlockingPool = .shared) {
            self.pool = pool
        }

        /// Runs `item` after every item submitted before it.
        public func async(_ item: @escaping @Sendable () -> Void) {
            pending.enter()
            let start = lock.withLock { () -> Bool in
                items.append(item)
                defer { running = true }
                return !running
            }
            if start { pool.submit { [self] in drain() } }
        }

        /// Waits until every item submitted so far has run.
        public func waitUntilEmpty() {
            pending.wait()
        }

        private func drain() {
            while let item = lock.withLock({ () -> (@Sendable () -> Void)? in
                guard !items.isEmpty else {
                    running = false
                    return nil
                }
                return items.removeFirst()
            }) {
                item()
                pending.leave()
            }
        }
    }
}
