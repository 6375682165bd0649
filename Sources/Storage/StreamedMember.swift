import Foundation

/// Where a snapshot file's bytes can be read again, a range at a time: the
/// file itself (Backup reads it through `SafeFolder`), or bytes in memory.
public protocol SnapshotByteSource: Sendable {
    /// Calls `body` with the bytes of `range`, in order, a chunk at a time;
    /// throws when the file holds fewer of them now.
    func forEachChunk(in range: Range<Int>, _ body: (UnsafeRawBufferPointer) throws -> Void) throws
}

/// Bytes in memory as a source (tests, small files).
public struct InMemoryBytes: SnapshotByteSource {
    public let data: Data

    public init(_ data: Data) {
        self.data = data
    }

    public func forEachChunk(in range: Range<Int>, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard range.upperBound <= data.count else { throw SnapshotValueError("the file is shorter than when it was checked") }
        try data.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[range])) }
    }
}

/// A snapshot member that is one long array (a lifetime of weigh-ins), left
/// in its file and read a batch of elements at a time whenever its rows are
/// needed: checked once when the snapshot is read, written back once by a
/// restore. Its bytes must hash the same each time (`fingerprint`), so a file
/// changed between the two reads is never half restored.
public struct StreamedMember: Sendable {
    public let source: any SnapshotByteSource
    /// The member's value in the file, from its `[` to its `]`.
    public let range: Range<Int>

    public init(source: any SnapshotByteSource, range: Range<Int>) {
        self.source = source
        self.range = range
    }

    /// Calls `body` with the elements, `batchSize` at a time, each batch a JSON
    /// array of its own (`[e,e,…]`); returns a fingerprint of the bytes read.
    /// Strings and nesting are followed, so a `,` inside a note splits nothing.
    /// An element longer than `elementLimit`, or a value that is not an array, throws.
    @discardableResult
    public func forEachBatch(_ batchSize: Int, _ body: (Data) throws -> Void) throws -> Int {
        var splitter = Splitter(batchSize: batchSize)
        var hasher = Hasher()
        try source.forEachChunk(in: range) { chunk in
            hasher.combine(bytes: chunk)
            try splitter.take(chunk, body)
        }
        try splitter.finish(body)
        return hasher.finalize()
    }

    /// Elements are weigh-ins of a few hundred bytes; anything this long is not one.
    public static let elementLimit = 1 << 20

    private struct Splitter {
        let batchSize: Int
        var pending: [UInt8] = []
        /// Where the current batch's elements end in `pending` (after the last complete element), and how many.
        var batchEnd = 0, count = 0
        var depth = 0, inString = false, escaped = false, started = false, closed = false

        init(batchSize: Int) {
            self.batchSize = batchSize
        }

        mutating func take(_ chunk: UnsafeRawBufferPointer, _ body: (Data) throws -> Void) throws {
            for byte in chunk {
                if closed {
                    guard [0x20, 0x09, 0x0A, 0x0D].contains(byte) else { throw SnapshotValueError("text after the end of an array") }
                    continue
                }
                if !started {
                    if [0x20, 0x09, 0x0A, 0x0D].contains(byte) { continue }
                    guard byte == 0x5B else { throw SnapshotValueError("a member that should be an array is not one") }
                    started = true
                    continue
                }
                if inString {
                    if escaped { escaped = false } else if byte == 0x5C { escaped = true } else if byte == 0x22 { inString = false }
                    pending.append(byte)
                    continue
                }
                switch byte {
                case 0x22: inString = true
                case 0x7B, 0x5B: depth += 1
                case 0x7D: depth -= 1
                case 0x5D where depth == 0:
                    closed = true
                    continue
                case 0x5D: depth -= 1
                case 0x2C where depth == 0:
                    count += 1
                    batchEnd = pending.count
                    pending.append(byte)
                    if count == batchSize { try emit(body) }
                    continue
                default: break
                }
                pending.append(byte)
                if pending.count - batchEnd > StreamedMember.elementLimit {
                    throw SnapshotValueError("an element of more than \(StreamedMember.elementLimit / 1_048_576) MB")
                }
            }
        }

        /// Hands on the complete elements gathered, keeping what follows the last of them.
        private mutating func emit(_ body: (Data) throws -> Void) throws {
            var batch = Data([0x5B])
            batch.append(contentsOf: pending[0..<batchEnd])
            batch.append(0x5D)
            pending.removeFirst(batchEnd + 1)  // The elements and the comma after them.
            batchEnd = 0
            count = 0
            try body(batch)
        }

        mutating func finish(_ body: (Data) throws -> Void) throws {
            guard closed else { throw SnapshotValueError("an array that does not end") }
            if pending.contains(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) {
                var batch = Data([0x5B])
                batch.append(contentsOf: pending)
                batch.append(0x5D)
                pending.removeAll()
                try body(batch)
            }
        }
    }
}
