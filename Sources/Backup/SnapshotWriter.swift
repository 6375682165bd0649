import Foundation
import Storage

/// Writes a recovery snapshot straight from the database to a file: the
/// rows are read, turned into canonical text and handed to the file and to
/// two SHA-256s (the content's, which the file records, and the whole
/// file's, which the read-back is checked against) a chunk at a time. A
/// snapshot of a million weigh-ins never stands in memory; its bytes are
/// the ones `RecoverySnapshot.encoded()` gives for the same content.
enum SnapshotWriter {
    /// What was written: the content's hash, the file's hash, its size and each section's rows.
    struct Written: Sendable, Equatable {
        let contentHash: String
        let fileHash: String
        let size: Int
        let rowCounts: [String: Int]
    }

    /// Writes every section of `schema`, inside the caller's read transaction
    /// on `connection`, to `file` (not committed: the caller decides).
    /// With `checkingRows`, a row a restore would refuse stops the write
    /// (`SnapshotValueError`) before the file is anything but a temporary.
    static func write(_ schema: SnapshotSchema, in connection: SQLiteConnection, checkingRows: Bool = true,
                      createdAt: Date, installationID: String, appVersion: String, to file: PendingFile) throws -> Written {
        let whole = try ContentHash(), content = try ContentHash()
        let output = ChunkPipeline { chunk, isContent in
            if isContent { try content.update(chunk) }
            try file.append(chunk)
            try whole.update(chunk)
        }
        defer { output.drain() }
        try RecoverySnapshot.head(appVersion: appVersion).bytes.withUnsafeBytes { try output.send($0, isContent: false) }
        let stream = SnapshotStream { try output.send($0, isContent: true) }
        let rowCounts = try schema.stream(in: connection, checkingRows: checkingRows, to: stream)
        try output.finish()
        let contentHash = try content.finish()
        try RecoverySnapshot.tail(contentHash: contentHash, createdAt: createdAt, installationID: installationID)
            .bytes.withUnsafeBytes { try output.send($0, isContent: false) }
        try output.finish()
        return Written(contentHash: contentHash, fileHash: try whole.finish(), size: whole.count, rowCounts: rowCounts)
    }
}

/// Chunks handed to a thread of their own, in order, to be written and
/// hashed while the caller reads and formats the next ones (on two cores, a
/// million weigh-ins' snapshot no longer waits for its hashes and writes).
/// At most `depth` chunks wait; the first error stops the rest and is thrown
/// by the next `send` or by `finish`.
final class ChunkPipeline: @unchecked Sendable {
    // @unchecked: `consume` runs only on `queue`, one chunk at a time; `failure` is guarded by `lock`.
    // The caller touches what `consume` uses only after `finish` or `drain`, which wait for the queue.
    private let queue = DispatchQueue(label: "trend.snapshot.output")
    private let room: DispatchSemaphore
    private let lock = NSLock()
    private var failure: (any Error)?
    private let consume: (UnsafeRawBufferPointer, Bool) throws -> Void

    init(depth: Int = 8, consume: @escaping (UnsafeRawBufferPointer, _ isContent: Bool) throws -> Void) {
        room = DispatchSemaphore(value: depth)
        self.consume = consume
    }

    /// Copies `chunk` and queues it; throws the error of an earlier chunk.
    func send(_ chunk: UnsafeRawBufferPointer, isContent: Bool) throws {
        try rethrowFailure()
        let copy = [UInt8](chunk)
        room.wait()
        queue.async { [self] in
            defer { room.signal() }
            guard lock.withLock({ failure == nil }) else { return }
            do {
                try copy.withUnsafeBytes { try consume($0, isContent) }
            } catch {
                lock.withLock { failure = error }
            }
        }
    }

    /// Waits until every queued chunk is consumed; throws the first error.
    func finish() throws {
        drain()
        try rethrowFailure()
    }

    /// Waits until every queued chunk is consumed (or skipped after an error).
    func drain() {
        queue.sync {}
    }

    private func rethrowFailure() throws {
        if let failure = lock.withLock({ failure }) { throw failure }
    }
}
