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
    private let consume: (Item) throws -> Void

    public init(depth: Int, pool: BlockingPool = .shared, consume: @escaping (Item) throws -> Void) {
        lane = BlockingPool.Lane(on: pool)
        room = DispatchSemaphore(value: depth)
        self.consume = consume
    }

    /// Queues `item`, waiting while `depth` items wait already; throws the error of an earlier item.
    public func send(_ item: Item) throws {
        try rethrowFailure()
        room.wait()
        lane.async { [self] in
            defer { room.signal() }
            guard lock.withLock({ failure == nil }) else { return }
            do {
                try consume(item)
            } catch {
                lock.withLock { failure = error }
            }
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
    }

    private func rethrowFailure() throws {
        if let failure = lock.withLock({ failure }) { throw failure }
    }
}
