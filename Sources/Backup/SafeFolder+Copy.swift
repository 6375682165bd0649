import Cryptography
import Foundation
import Storage

/// Copies and hashes of a folder's files, with the content hash a snapshot is named by.
extension SafeFolder {
    /// Writes a copy of the regular file `name` in `source` as `target`, a
    /// megabyte at a time, through a pending file; returns the copy's SHA-256.
    /// With `expecting`, a copy of other bytes (the source changed meanwhile)
    /// is discarded and the old `target` stands.
    func copy(_ name: String, from source: SafeFolder, as target: String, rotatingTo previous: String? = nil,
              expecting: String? = nil) throws -> String {
        let file = try pending(target)
        let hash = try ContentHash()
        try source.forEachChunk(of: name) { chunk in
            try file.append(chunk)
            try hash.update(chunk)
        }
        let copied = try hash.finish()
        if let expecting, copied != expecting {
            file.discard()
            throw BackupFileError.verifyFailed(file.path, reason: "\(source.path)/\(name) changed while it was copied")
        }
        try file.commit(rotatingTo: previous)
        return copied
    }

    /// The SHA-256 of the regular file `name` and its size, read back a
    /// megabyte at a time (a large snapshot is checked without a copy of it in memory).
    func sha256(of name: String) throws -> (hash: String, size: Int) {
        let hash = try ContentHash()
        try forEachChunk(of: name) { try hash.update($0) }
        return (try hash.finish(), hash.count)
    }

}
