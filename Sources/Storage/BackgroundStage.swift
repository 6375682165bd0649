import Dispatch
import Foundation

/// Items handed, in order, to a lane of `BlockingPool.shared`, where `consume` takes
/// them one at a time while the sender goes on with the next: on two cores,
/// a snapshot's rows are read from SQLite on one thread while the rows
/// before them are checked and written out on another.
///
/// At most `depth` items wait. The first error `consume` throws stops every
/// later item (they are dropped unconsumed) and is thrown by the next `send`
/// or by `finish`.
///
/// With `freeingOnSender`, items consumed are freed on the sender's thread, at its next `send` or at
/// `finish`: where the consuming thread is the one the sender waits for (a sync's merge), freeing a large item
/// (ten thousand parsed changes) is work it need not do. Where the sender is the slower (a snapshot's reading
/// from SQLite), the consumer frees them.
///
/// - Important: What `consume` touches belongs to the stage from the first
///   `send` until `finish` or `drain` returns; the sender must not touch it
///   in between. Both wait for the stage's thread, so what it did is then
///   seen by the sender.
public final class BackgroundStage<Item: Sendable>: @unchecked Sendable {
    // @unchecked: `consume` runs only on `lane`, one item at a time; `failure` is guarded by `lock`.
    private let lane: BlockingPool.Lane
    private let room: DispatchSemaphore
    private let lock = NSLock()
    private var failure: (any Error)?
    /// Items consumed, kept for the sender to free (`freeingOnSender`).
    private var spent: [Item] = []
    private let freeingOnSender: Bool
    private let consume: (Item) throws -> Void

    public init(depth: Int, freeingOnSender: Bool = false, pool: BlockingPool = .shared, consume: @escaping (Item) throws -> Void) {
        lane = BlockingPool.Lane(on: pool)
        room = DispatchSemaphore(value: depth)
        self.freeingOnSender = freeingOnSender
        self.consume = consume
    }

    /// Queues `item`, waiting while `depth` items wait already; throws the error of an earlier item.
    public func send(_ item: Item) throws {
        try rethrowFailure()
        room.wait()
        if freeingOnSender { _ = takeSpent() }
        lane.async { [self] in
            defer { room.signal() }
            guard lock.withLock({ failure == nil }) else { return }
            do {
                try consume(item)
                if freeingOnSender { lock.withLock { spent.append(item) } }
            } catch {
                lock.withLock { failure = error }
            }
        }
    }

    /// The items consumed since last asked, which the caller frees as it drops them.
    private func takeSpent() -> [Item] {
        lock.withLock {
            defer { spent = [] }
            return spent
        }
    }

    /// Waits until every queued item is consumed; throws the first error.
    public func finish() throws {
        drain()
        try rethrowFailure()
    }

    /// Waits until every queued item is consumed (or dropped after an error).
    public func drain() {
        lane.waitUntilEmpty()
        if freeingOnSender { _ = takeSpent() }
    }

    private func rethrowFailure() throws {
        if let failure = lock.withLock({ failure }) { throw failure }
    }
}
