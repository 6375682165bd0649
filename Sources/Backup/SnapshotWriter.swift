import Cryptography
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

    /// A piece of the file, and whether it is part of the content the file records the hash of.
    private struct Chunk: Sendable {
        let bytes: [UInt8]
        let isContent: Bool
    }

    /// Writes every section of `schema`, inside the caller's read transaction
    /// on `connection`, to `file` (not committed: the caller decides).
    /// With `checkingRows`, a row a restore would refuse stops the write
    /// (`SnapshotValueError`) before the file is anything but a temporary.
    static func write(_ schema: SnapshotSchema, in connection: SQLiteConnection, checkingRows: Bool = true,
                      createdAt: Date, installationID: String, appVersion: String, to file: PendingFile) throws -> Written {
        let whole = try ContentHash(), content = try ContentHash()
        // Hashed and written on a thread of their own while the next chunk is made.
        let output = BackgroundStage<Chunk>(depth: 8) { chunk in
            try chunk.bytes.withUnsafeBytes { bytes in
                if chunk.isContent { try content.update(bytes) }
                try file.append(bytes)
                try whole.update(bytes)
            }
        }
        defer { output.drain() }
        try output.send(Chunk(bytes: RecoverySnapshot.head(appVersion: appVersion).bytes, isContent: false))
        let stream = SnapshotStream { try output.send(Chunk(bytes: [UInt8]($0), isContent: true)) }
        let rowCounts = try schema.stream(in: connection, checkingRows: checkingRows, to: stream)
        try output.finish()
        let contentHash = try content.finish()
        try output.send(Chunk(bytes: RecoverySnapshot.tail(contentHash: contentHash, createdAt: createdAt,
                                                           installationID: installationID).bytes, isContent: false))
        try output.finish()
        return Written(contentHash: contentHash, fileHash: try whole.finish(), size: whole.count, rowCounts: rowCounts)
    }
}
