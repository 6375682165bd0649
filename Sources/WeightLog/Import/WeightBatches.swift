import Foundation

/// Rows handed from a reader's thread to the writing transaction a batch at
/// a time, so a large file is read while its first rows are already being
/// written. At most `depth` batches wait: the reader blocks when the writer
/// lags. The reader ends with its outcome (the rows not sent yet in it) or
/// its error; the writer may stop early (`cancel`), and later batches are
/// dropped without blocking.
final class WeightBatches: @unchecked Sendable {
    // @unchecked: every field is read and written under `condition`.
    static let size = 10_000

    enum Next {
        case batch([ImportedWeight])
        case end(Result<ReadOutcome, any Error>)
    }

    private let condition = NSCondition()
    private var waiting: [[ImportedWeight]] = []
    private var ending: Result<ReadOutcome, any Error>?
    private var cancelled = false
    private let depth: Int

    init(depth: Int = 4) {
        self.depth = depth
    }

    /// Hands on a full batch; waits while `depth` batches are waiting.
    func send(_ batch: [ImportedWeight]) {
        condition.lock()
        defer { condition.unlock() }
        while waiting.count >= depth, !cancelled { condition.wait() }
        guard !cancelled else { return }
        waiting.append(batch)
        condition.broadcast()
    }

    /// The reader is done: the writer gets `result` after every batch sent before it.
    func finish(_ result: Result<ReadOutcome, any Error>) {
        condition.lock()
        defer { condition.unlock() }
        ending = result
        condition.broadcast()
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
