import Foundation
@testable import Storage
import Synchronization
import Testing

/// The one executor for blocking work (`BlockingPool`, after swift-nio's
/// `NIOThreadPool`): order on a lane, cancellation passed through, and no
/// deadlock when one item waits for another.
@Suite struct BlockingPoolTests {
    @Test func aLaneRunsItsItemsOneAtATimeInOrder() {
        let lane = BlockingPool.Lane(on: BlockingPool())
        let seen = Mutex<[Int]>([])
        let running = Mutex(0), most = Mutex(0)
        for index in 0..<500 {
            lane.async {
                let now = running.withLock { $0 += 1; return $0 }
                most.withLock { $0 = max($0, now) }
                seen.withLock { $0.append(index) }
                running.withLock { $0 -= 1 }
            }
        }
        lane.waitUntilEmpty()
        #expect(seen.withLock { $0 } == Array(0..<500))
        #expect(most.withLock { $0 } == 1)
    }

    @Test func aTaskCancelledBeforeItsItemStartsNeverRunsIt() async throws {
        let pool = BlockingPool(maximumThreads: 1)
        let gate = DispatchSemaphore(value: 0)
        pool.submit { gate.wait() }  // The one thread is busy until the gate opens.
        let ran = Mutex(false)
        let task = Task { try await pool.run { _ in ran.withLock { $0 = true } } }
        task.cancel()
        gate.signal()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(ran.withLock { $0 } == false)
    }

    @Test func aRunningItemIsToldOfItsCancellation() async throws {
        let pool = BlockingPool()
        let started = Mutex(false)
        let task = Task {
            try await pool.run { cancellation -> Bool in
                started.withLock { $0 = true }
                // Spins until told, with a guard of 60 s for a cancellation that never comes.
                let deadline = DispatchTime.now() + 60
                while !cancellation.isCancelled, DispatchTime.now() < deadline { sched_yield() }
                return cancellation.isCancelled
            }
        }
        // Waited for without blocking a thread of the cooperative pool (two, on two cores).
        while !started.withLock({ $0 }) { await Task.yield() }
        task.cancel()
        #expect(try await task.value, "the running item was told")
    }

    @Test func anItemWaitingForALaterOneDoesNotHoldThePoolUp() async throws {
        let pool = BlockingPool(maximumThreads: 4)
        let handed = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        let freed = Mutex(false)
        // The first item waits for the second (a reader waiting for the writer to take a batch); without a
        // second thread it would give up after its guard of 30 s, unfreed.
        pool.submit {
            let result = handed.wait(timeout: .now() + 30)
            freed.withLock { $0 = result == .success }
            done.signal()
        }
        _ = await pool.run { handed.signal() }
        _ = await pool.run { done.wait() }  // On the pool: a cooperative thread is never blocked.
        #expect(freed.withLock { $0 })
    }
}

/// Issue 32, item 2: a pool the system starts no thread for does not wait forever (an import under a
/// process limit hung with its writer waiting for a reader thread that never started).
@Suite struct BlockingPoolRefusalTests {
    @Test func withNoThreadAtAllTheWorkRunsOnTheCallersThread() async throws {
        let pool = BlockingPool(maximumThreads: 4, spawn: { _ in false })
        #expect(try await pool.run { _ in 42 } == 42)
        let ran = Mutex(false)
        pool.submit { ran.withLock { $0 = true } }
        #expect(ran.withLock { $0 })
    }

    @Test func withEveryThreadBusyAndNoneToStartTheWorkIsRefusedNotLeftWaiting() async throws {
        let started = Mutex(0)
        let pool = BlockingPool(maximumThreads: 4, spawn: { body in
            // The first thread starts; the system refuses every one after it.
            guard started.withLock({ $0 += 1; return $0 }) == 1 else { return false }
            return BlockingPool.startThread(body)
        })
        let gate = DispatchSemaphore(value: 0), busy = DispatchSemaphore(value: 0)
        pool.submit { busy.signal(); gate.wait() }  // The one thread is busy until the gate opens.
        busy.wait()
        await #expect(throws: BlockingPool.NoThread.self) { try await pool.run { _ in 1 } }
        // A plain item (a lane's) waits for the busy thread instead, and runs once it is free.
        let ran = DispatchSemaphore(value: 0)
        pool.submit { ran.signal() }
        gate.signal()
        #expect(ran.wait(timeout: .now() + 10) == .success)
    }

    /// Under `ulimit -v 300000` an import's reader took the one thread the pool had and waited for the
    /// storage lane, which no thread was left to run: with `spare`, the reader is refused instead.
    @Test func anItemThatNeedsASpareThreadIsRefusedWhenNoneIsLeft() async throws {
        let started = Mutex(0)
        let pool = BlockingPool(maximumThreads: 4, spawn: { body in
            guard started.withLock({ $0 += 1; return $0 }) == 1 else { return false }
            return BlockingPool.startThread(body)
        })
        #expect(try await pool.run { _ in 1 } == 1)  // The one thread the system starts, now idle.
        let refused = DispatchSemaphore(value: 0), ran = Mutex(false)
        pool.submit({ ran.withLock { $0 = true } }, ifRefused: { refused.signal() }, spare: 1)
        #expect(refused.wait(timeout: .now() + 10) == .success)
        #expect(!ran.withLock { $0 })
        // With threads to spare, the same item runs.
        let roomy = BlockingPool(maximumThreads: 4)
        let done = DispatchSemaphore(value: 0)
        roomy.submit({ done.signal() }, ifRefused: {}, spare: 1)
        #expect(done.wait(timeout: .now() + 10) == .success)
    }

    /// Sync's parallel parsing and checking (`forEachLane`): every lane once, on the pool's threads where it has them.
    @Test func everyLaneRunsOnceAndTheLanesRunTogether() {
        let pool = BlockingPool(maximumThreads: 4)
        let runs = Mutex([Int](repeating: 0, count: 8)), met = Mutex(false)
        // Lane 0 waits for lane 1, which is taken after it: only lanes that run at the same time meet.
        let second = DispatchSemaphore(value: 0)
        pool.forEachLane(8) { lane in
            runs.withLock { $0[lane] += 1 }
            if lane == 0 { met.withLock { $0 = second.wait(timeout: .now() + 10) == .success } }
            if lane == 1 { second.signal() }
        }
        #expect(runs.withLock { $0 } == Array(repeating: 1, count: 8))
        #expect(met.withLock { $0 })
    }

    /// With every thread of the pool busy (a caller that is itself pool work), the caller runs the lanes itself: the
    /// work never waits for a thread that is not free.
    @Test(.timeLimit(.minutes(1))) func withEveryThreadBusyTheCallerRunsTheLanes() {
        let pool = BlockingPool(maximumThreads: 1)
        let release = DispatchSemaphore(value: 0), busy = DispatchSemaphore(value: 0)
        pool.submit {
            busy.signal()
            release.wait()
        }
        busy.wait()
        let runs = Mutex(0)
        pool.forEachLane(5) { _ in runs.withLock { $0 += 1 } }
        #expect(runs.withLock { $0 } == 5)
        release.signal()
    }
}
