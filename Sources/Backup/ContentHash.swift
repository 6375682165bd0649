/// Backup owns recovery snapshots: their versioned, hashed JSON, the files
/// under `Backups/` (rotation, weekly copies, before-restore copies, the sync
/// folder mirror), restore and merge, and BackupFeature. It imports Storage
/// and Settings (and OpenSSL's libcrypto for the hash); no other feature.
import CCrypto
import Foundation

/// SHA-256 from OpenSSL's libcrypto, as lowercase hex.
enum ContentHash {
    static func sha256(_ data: Data) -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = data.withUnsafeBytes { bytes in
            EVP_Digest(bytes.baseAddress, bytes.count, &digest, &length, EVP_sha256(), nil)
        }
        guard ok == 1 else { return "" }
        return digest.prefix(Int(length)).map { String(format: "%02x", $0) }.joined()
    }
}
