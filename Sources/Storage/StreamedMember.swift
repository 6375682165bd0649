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
    /// array of its own (`[e,e,…]`). Strings and nesting are followed, so a `,`
    /// inside a note splits nothing. Returns a fingerprint of the array's bytes
    /// and where its `]` is (what follows it is not read). An element longer
    /// than `elementLimit`, a value that is not an array, or one that does not end, throws.
    @discardableResult
    public func forEachBatch(_ batchSize: Int, _ body: (Data) throws -> Void) throws -> (fingerprint: Int, end: Int) {
        var splitter = Splitter(batchSize: batchSize, base: range.lowerBound)
        var hasher = Hasher()
        try source.forEachChunk(in: range) { chunk in
            guard splitter.end == nil else { return }
            let used = try splitter.take(chunk, body)
            hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: chunk[..<used]))
        }
        try splitter.finish(body)
        return (hasher.finalize(), splitter.end ?? range.upperBound)
    }

    /// Elements are weigh-ins of a few hundred bytes; anything this long is not one.
    public static let elementLimit = 1 << 20

    private struct Splitter {
        let batchSize: Int
        /// Where the chunk being taken starts in the file.
        var base: Int
        /// The complete elements of the batch so far, commas between them, and the start of the one being read.
        var pending: [UInt8] = []
        var count = 0
        var elementStart = 0
        var depth = 0, inString = false, escaped = false, started = false
        /// Where the array's `]` is, once it was reached.
        var end: Int?

        init(batchSize: Int, base: Int) {
            self.batchSize = batchSize
            self.base = base
        }

        /// Walks a chunk, copying the elements' bytes a run at a time; returns how many of its bytes belong to the array.
        mutating func take(_ chunk: UnsafeRawBufferPointer, _ body: (Data) throws -> Void) throws -> Int {
            var runStart = 0
            for index in chunk.indices {
                let byte = chunk[index]
                if !started {
                    if [0x20, 0x09, 0x0A, 0x0D].contains(byte) { continue }
                    guard byte == 0x5B else { throw SnapshotValueError("a member that should be an array is not one") }
                    started = true
                    runStart = index + 1
                    elementStart = base + index + 1
                    continue
                }
                if inString {
                    if escaped { escaped = false } else if byte == 0x5C { escaped = true } else if byte == 0x22 { inString = false }
                } else {
                    switch byte {
                    case 0x22: inString = true
                    case 0x7B, 0x5B: depth += 1
                    case 0x7D: depth -= 1
                    case 0x5D where depth == 0:
                        pending += chunk[runStart..<index]
                        end = base + index
                        base += chunk.count
                        return index + 1
                    case 0x5D: depth -= 1
                    case 0x2C where depth == 0:
                        pending += chunk[runStart..<index]
                        runStart = index + 1
                        elementStart = base + index + 1
                        count += 1
                        if count == batchSize { try emit(body) } else { pending.append(0x2C) }
                        continue
                    default: break
                    }
                }
                if base + index - elementStart > StreamedMember.elementLimit {
                    throw SnapshotValueError("an element of more than \(StreamedMember.elementLimit / 1_048_576) MB")
                }
            }
            if started { pending += chunk[runStart...] }
            base += chunk.count
            return chunk.count
        }

        /// Hands on the complete elements gathered.
        private mutating func emit(_ body: (Data) throws -> Void) throws {
            var batch = Data(capacity: pending.count + 2)
            batch.append(0x5B)
            batch.append(contentsOf: pending)
            batch.append(0x5D)
            pending.removeAll(keepingCapacity: true)
            count = 0
            try body(batch)
        }

        mutating func finish(_ body: (Data) throws -> Void) throws {
            guard end != nil else { throw SnapshotValueError("an array that does not end") }
            if pending.contains(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) { try emit(body) }
        }
    }
}
