import Foundation
import Storage

/// Writes a recovery snapshot straight from the database to a file: the
/// rows are read, turned into canonical text and handed to the file and to
/// two SHA-256s (the content's, which the file records, and the whole
/// file's, which the read-back is checked against) a chunk at a time. A
/// snapshot of a million weigh-ins never stands in memory; its bytes are
/// the ones `RecoverySnapshot.encoded()` gives for the same content.
enum SnapshotWriter {
    /// What was written: the content's hash, the file's hash and its size.
    struct Written: Sendable, Equatable {
        let contentHash: String
        let fileHash: String
        let size: Int
    }

    /// Writes every section of `schema`, inside the caller's read transaction
    /// on `connection`, to `file` (not committed: the caller decides).
    /// With `checkingRows`, a row a restore would refuse stops the write
    /// (`SnapshotValueError`) before the file is anything but a temporary.
    static func write(_ schema: SnapshotSchema, in connection: SQLiteConnection, checkingRows: Bool = true,
                      createdAt: Date, installationID: String, appVersion: String, to file: PendingFile) throws -> Written {
        let whole = try ContentHash(), content = try ContentHash()
        func emit(_ bytes: UnsafeRawBufferPointer) throws {
            try file.append(bytes)
            try whole.update(bytes)
        }
        try RecoverySnapshot.head(appVersion: appVersion).bytes.withUnsafeBytes(emit)
        let stream = SnapshotStream { chunk in
            try content.update(chunk)
            try emit(chunk)
        }
        try schema.stream(in: connection, checkingRows: checkingRows, to: stream)
        let contentHash = try content.finish()
        try RecoverySnapshot.tail(contentHash: contentHash, createdAt: createdAt, installationID: installationID)
            .bytes.withUnsafeBytes(emit)
        return Written(contentHash: contentHash, fileHash: try whole.finish(), size: whole.count)
    }
}
