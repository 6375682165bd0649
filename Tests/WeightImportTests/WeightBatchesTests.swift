import Foundation
import Storage
import Testing
import TestSupport
@testable import WeightImport
@testable import WeightLog

/// The hand-over between an import's reader thread and its writing
/// transaction: batches arrive whole and in order, the file's last rows and
/// its end after them; a writer that stops lets a reader waiting for room go,
/// and an import whose reader fails after its first batch writes nothing.
@Suite struct WeightBatchesTests {
    static func rows(_ range: Range<Int>) -> [ImportedWeight] {
        range.map { ImportedWeight(id: nil, date: Date(timeIntervalSince1970: 1_700_000_000 + Double($0) * 60), kilograms: 70 + Double($0 % 40) / 10) }
    }

    @Test func batchesThenTheLastRowsThenTheEnd() throws {
        let batches = WeightBatches(depth: 8)
        batches.send(Self.rows(0..<3))
        batches.send(Self.rows(3..<5) + Self.rows(4..<5))  // the file repeats a row: left out on the reader's side
        var outcome = ReadOutcome(format: .genericCSV, unit: .kilograms, unitAssumed: false)
        outcome.weights = Self.rows(5..<7)
        batches.finish(.success(outcome))
        var sizes: [Int] = []
        while case let .batch(batch) = batches.next() { sizes.append(batch.entries.count) }
        #expect(sizes == [3, 2, 2])
        guard case let .end(.success(end)) = batches.next() else { Issue.record("no end"); return }
        #expect(end.repeated == 1 && end.outcome.weights.isEmpty)
        #expect(end.first == Date(timeIntervalSince1970: 1_700_000_000) && end.last == Date(timeIntervalSince1970: 1_700_000_360))
    }

    @Test func aStoppedWriterLetsAWaitingReaderGo() {
        let batches = WeightBatches(depth: 1)
        let done = DispatchSemaphore(value: 0)
        Thread {
            batches.send(Self.rows(0..<2))
            batches.send(Self.rows(2..<4))  // waits for room: one batch is waiting already, and nobody takes it
            done.signal()
        }.start()
        // Seen under the lock the reader gives up only inside its wait: from here it is waiting.
        var spins = 0
        while !batches.readerIsWaiting, spins < 100_000_000 { spins += 1; sched_yield() }
        #expect(batches.readerIsWaiting)
        batches.cancel()
        #expect(done.wait(timeout: .now() + 10) == .success, "the reader goes once the writer stops")
        guard case .end(.failure(is CancellationError)) = batches.next() else { Issue.record("not stopped"); return }
    }

    @Test func anImportThatFailsAfterItsFirstBatchWritesNothing() async throws {
        struct Damaged: Error {}
        let store = LocalDataStore.inMemory()
        let repository = LocalWeightRepository(store: store)
        let batches = WeightBatches()
        let streamed = StreamedImport(batches, fileName: "many.csv") { _ in nil }
        // The writer inserts the first batch inside its transaction, then meets the reader's failure.
        batches.send(Self.rows(0..<WeightBatches.size))
        batches.finish(.failure(Damaged()))
        await #expect(throws: Damaged.self) {
            _ = try await repository.insert(batches: streamed, expecting: 100_000,
                                            journal: JournalEntry(action: "import", summary: "import", at: Date(timeIntervalSince1970: 1_780_000_000)))
        }
        #expect(try store.read { try $0.scalarInt("SELECT count(*) FROM weight_entries") } == 0)
        #expect(try store.journalChanges(limit: 5).isEmpty)
        #expect(try store.read { try $0.scalarInt("SELECT count(*) FROM sqlite_schema WHERE type = 'trigger' AND tbl_name = 'weight_entries'") } == 8,
                "the paused triggers are back")
    }
}
