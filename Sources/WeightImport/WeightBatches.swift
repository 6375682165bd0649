import Foundation
import WeightLog

/// Rows handed from a reader's thread to the writing transaction a batch at
/// a time, so a large file is read while its first rows are already being
/// written. The reader's thread also tells the file's rows apart
/// (`ImportSorter`) and makes their entries; the writer only checks them
/// against what is stored. At most `depth` batches wait: the reader blocks
/// when the writer lags. The reader ends with its outcome (its last rows
/// sorted into a last batch) or its error; the writer may stop early
/// (`cancel`), and later batches are dropped without blocking.
final class WeightBatches: @unchecked Sendable {
    // @unchecked: `sorter` is used only by the reader's thread (`send`, `finish`); every other field under `condition`.
    static let size = 10_000

    /// What the reader found, once it is done.
    struct End {
        var outcome: ReadOutcome
        /// Rows left out as repeats of earlier rows of the file.
        var repeated: Int
        var first: Date?
        var last: Date?
    }

    /// Entries of one batch; `idsFromFile` when any row brought its own id (the others' ids are new).
    struct Batch {
        var entries: [WeightEntry]
        var idsFromFile: Bool
    }

    enum Next {
        case batch(Batch)
        case end(Result<End, any Error>)
    }

    private let condition = NSCondition()
    private var waiting: [Batch] = []
    private var ending: Result<End, any Error>?
    private var cancelled = false
    private var readersWaiting = 0
    private let depth: Int
    private var sorter = ImportSorter()

    init(depth: Int = 4) {
        self.depth = depth
    }

    /// Sorts a full batch of rows and hands it on; waits while `depth` batches are waiting.
    func send(_ rows: [ImportedWeight]) {
        let batch = Batch(entries: sorter.sort(rows), idsFromFile: rows.contains { $0.id != nil })
        condition.lock()
        defer { condition.unlock() }
        readersWaiting += 1
        while waiting.count >= depth, !cancelled { condition.wait() }
        readersWaiting -= 1
        guard !cancelled else { return }
        waiting.append(batch)
        condition.broadcast()
    }

    /// The reader is done: the writer gets the rows still in the outcome, then
    /// the end, after every batch sent before.
    func finish(_ result: Result<ReadOutcome, any Error>) {
        let end = result.map { outcome -> (End, Batch) in
            let rest = Batch(entries: sorter.sort(outcome.weights), idsFromFile: outcome.weights.contains { $0.id != nil })
            var read = outcome
            read.weights = []
            return (End(outcome: read, repeated: sorter.repeated, first: sorter.first, last: sorter.last), rest)
        }
        condition.lock()
        defer { condition.unlock() }
        if case let .success((_, rest)) = end, !rest.entries.isEmpty, !cancelled { waiting.append(rest) }
        ending = end.map(\.0)
        condition.broadcast()
    }

    /// Whether a reader is waiting for room now (it is inside `send`, the lock given up).
    var readerIsWaiting: Bool {
        condition.lock()
        defer { condition.unlock() }
        return readersWaiting > 0 && waiting.count >= depth
    }

    /// The writer stops: nothing more is taken, and the reader no longer waits.
    func cancel() {
        condition.lock()
        defer { condition.unlock() }
        cancelled = true
        waiting.removeAll()
        condition.broadcast()
    }

    /// The next batch, or the reader's end; waits for either.
    func next() -> Next {
        condition.lock()
        defer { condition.unlock() }
        while waiting.isEmpty, ending == nil, !cancelled { condition.wait() }
        if cancelled { return .end(.failure(CancellationError())) }
        if !waiting.isEmpty {
            let batch = waiting.removeFirst()
            condition.broadcast()
            return .batch(batch)
        }
        return .end(ending!)
    }
}
