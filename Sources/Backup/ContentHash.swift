/// Backup owns recovery snapshots: their versioned, hashed JSON, the files
/// under `Backups/` (rotation, weekly copies, before-restore copies, the sync
/// folder mirror), restore and merge, and BackupFeature. It imports Storage
/// and Settings (and OpenSSL's libcrypto for the hash); no other feature:
/// each table's rows reach it through `SnapshotSchema`.
import CCrypto
import Foundation

/// Why a content hash could not be made.
public struct ContentHashError: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String { "the SHA-256 of the snapshot could not be computed (libcrypto failed)" }
}

/// SHA-256 from OpenSSL's libcrypto, as lowercase hex, over bytes in memory
/// or given a chunk at a time (a snapshot as it is written or read back).
///
/// libcrypto is opened on the first hash, not linked: most commands never
/// hash, and loading it costs about a millisecond of every start-up.
final class ContentHash {
    private typealias NewContext = @convention(c) () -> OpaquePointer?
    private typealias FreeContext = @convention(c) (OpaquePointer?) -> Void
    private typealias Algorithm = @convention(c) () -> OpaquePointer?
    private typealias Initialize = @convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?) -> Int32
    private typealias Update = @convention(c) (OpaquePointer?, UnsafeRawPointer?, Int) -> Int32
    private typealias Finish = @convention(c) (OpaquePointer?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt32>?) -> Int32

    private struct Functions {
        let new: NewContext, free: FreeContext, sha256: Algorithm
        let initialize: Initialize, update: Update, finish: Finish
    }

    /// The EVP digest functions, from the first libcrypto that opens; nil when none does.
    private static let functions: Functions? = {
        for name in ["libcrypto.so.3", "libcrypto.so"] {
            guard let library = dlopen(name, RTLD_NOW | RTLD_LOCAL),
                  let new = dlsym(library, "EVP_MD_CTX_new"), let free = dlsym(library, "EVP_MD_CTX_free"),
                  let sha256 = dlsym(library, "EVP_sha256"), let initialize = dlsym(library, "EVP_DigestInit_ex"),
                  let update = dlsym(library, "EVP_DigestUpdate"), let finish = dlsym(library, "EVP_DigestFinal_ex")
            else { continue }
            return Functions(new: unsafeBitCast(new, to: NewContext.self), free: unsafeBitCast(free, to: FreeContext.self),
                             sha256: unsafeBitCast(sha256, to: Algorithm.self),
                             initialize: unsafeBitCast(initialize, to: Initialize.self),
                             update: unsafeBitCast(update, to: Update.self), finish: unsafeBitCast(finish, to: Finish.self))
        }
        return nil
    }()

    private let functions: Functions
    private let context: OpaquePointer
    /// How many bytes have been hashed.
    private(set) var count = 0

    /// A hash of nothing yet.
    init() throws {
        guard let functions = Self.functions, let context = functions.new() else { throw ContentHashError() }
        self.functions = functions
        self.context = context
        guard functions.initialize(context, functions.sha256(), nil) == 1 else { throw ContentHashError() }
    }

    deinit {
        functions.free(context)
    }

    /// Hashes the next bytes.
    func update(_ bytes: UnsafeRawBufferPointer) throws {
        guard functions.update(context, bytes.baseAddress, bytes.count) == 1 else { throw ContentHashError() }
        count += bytes.count
    }

    /// The hex SHA-256 of every byte given.
    func finish() throws -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard functions.finish(context, &digest, &length) == 1 else { throw ContentHashError() }
        let hex = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(Int(length) * 2)
        for byte in digest.prefix(Int(length)) {
            text.append(hex[Int(byte >> 4)])
            text.append(hex[Int(byte & 0xF)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    static func sha256(_ data: Data) throws -> String {
        try data.withUnsafeBytes { try sha256($0) }
    }

    /// The hex SHA-256 of bytes in memory, without copying them.
    static func sha256(_ bytes: UnsafeRawBufferPointer) throws -> String {
        let hash = try ContentHash()
        try hash.update(bytes)
        return try hash.finish()
    }
}
