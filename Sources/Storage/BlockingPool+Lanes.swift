import Foundation

extension BlockingPool {
    /// Runs `body(lane)` once for each lane below `lanes`, at the same time where the pool has threads for them, and
    /// returns when every lane has run. The calling thread takes lanes too, and a lane no pool thread has begun is
    /// run by the caller: the work never waits for a thread that is not there (every thread of the pool busy, the
    /// system starting no other), so a caller that is itself one of the pool's threads cannot deadlock it.
    public func forEachLane(_ lanes: Int, _ body: @Sendable (Int) -> Void) {
        guard lanes > 1 else {
            if lanes == 1 { body(0) }
            return
        }
        withoutActuallyEscaping(body) { body in
            // Only lanes taken run `body`, and the caller waits until every one has finished: `body` is not used
            // after this returns, and the board forgets it before then (a pool item that comes late finds no lane).
            let board = LaneBoard(lanes: lanes, body: body)
            for _ in 1..<lanes { submit({ board.runLanes() }, ifRefused: {}) }
            board.runLanes()
            board.waitForAll()
        }
    }
}

/// The lanes of one `forEachLane`: which is next, how many have finished, and the work, until all have.
private final class LaneBoard: @unchecked Sendable {
    // @unchecked: every field is read and written under `condition`.
    private let condition = NSCondition()
    private let lanes: Int
    private var next = 0
    private var finished = 0
    private var body: (@Sendable (Int) -> Void)?

    init(lanes: Int, body: @escaping @Sendable (Int) -> Void) {
        self.lanes = lanes
        self.body = body
    }

    /// Takes lanes and runs them until none is left.
    func runLanes() {
        while let lane = take() {
            run(lane)
            condition.lock()
            finished += 1
            if finished == lanes { condition.broadcast() }
            condition.unlock()
        }
    }

    /// Runs one lane. Its own function, so its hold on the work ends before the lane counts as finished (the caller
    /// may then return, and the work must not outlive it).
    private func run(_ lane: Int) {
        let body = condition.withLock { self.body }
        body?(lane)
    }

    /// Waits until every lane has finished, then lets the work go.
    func waitForAll() {
        condition.lock()
        while finished < lanes { condition.wait() }
        body = nil
        condition.unlock()
    }

    private func take() -> Int? {
        condition.lock()
        defer { condition.unlock() }
        guard next < lanes else { return nil }
        next += 1
        return next - 1
    }
}
