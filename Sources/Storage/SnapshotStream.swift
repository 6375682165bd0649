import TextFormats
/// A snapshot's canonical text as it is made, handed on in chunks (to a file
/// and a hash) instead of held whole: a million weigh-ins pass through a
/// buffer of `chunkSize` bytes.
///
/// `SnapshotSchema.stream(in:to:)` writes through it, and each table owner
/// writes its members' rows with `write(_:)` as it steps its statement.
public final class SnapshotStream {
    /// How many bytes gather before they are handed on.
    public static let chunkSize = 1 << 16

    private var buffer = CanonicalJSON(reservingCapacity: SnapshotStream.chunkSize + 4_096)
    private let sink: (UnsafeRawBufferPointer) throws -> Void
    /// Each section's rows as its members wrote them (`SnapshotSection.rowCount`):
    /// what a listing of the written snapshot shows, without counting them again.
    public private(set) var rowCounts: [String: Int] = [:]

    /// `sink` receives every byte, in order, a chunk at a time.
    public init(sink: @escaping (UnsafeRawBufferPointer) throws -> Void) {
        self.sink = sink
    }

    /// Appends what `body` writes; hands the buffer on once it is a chunk long.
    public func write(_ body: (inout CanonicalJSON) -> Void) throws {
        body(&buffer)
        if buffer.bytes.count >= Self.chunkSize { try flush() }
    }

    /// Notes that `section`'s members wrote `rows` rows.
    public func counted(_ rows: Int, of section: String) {
        rowCounts[section, default: 0] += rows
    }

    /// Appends text written elsewhere (a small section's member) as it is.
    public func append(_ json: CanonicalJSON) throws {
        try write { $0.append(json) }
    }

    /// Hands on what is buffered.
    public func flush() throws {
        guard !buffer.bytes.isEmpty else { return }
        try buffer.bytes.withUnsafeBytes { try sink($0) }
        buffer.removeAll()
    }
}

/// One member of a snapshot's content, written when its turn in key order comes.
public struct SnapshotMember {
    /// The member's name in the content object (`weights`, `habitRecords` …).
    public let key: String
    /// Writes the member's value; throws `SnapshotValueError` for a row a restore would refuse.
    public let write: (SnapshotStream) throws -> Void

    public init(key: String, write: @escaping (SnapshotStream) throws -> Void) {
        self.key = key
        self.write = write
    }
}
