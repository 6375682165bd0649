/// Cryptography holds what Trend asks of OpenSSL's libcrypto, opened when
/// first needed: SHA-256 (a snapshot's content hash, a sync segment's digest)
/// and Ed25519 (the key that signs this installation's sync segments). It
/// imports only CCrypto and Foundation; nothing here is hand-rolled.
import CCrypto
import Foundation
import SystemLibraries

/// Why a content hash could not be made.
public struct ContentHashError: Error, Equatable, Sendable, CustomStringConvertible {
    public init() {}

    public var description: String { "the SHA-256 of the snapshot could not be computed (libcrypto failed)" }
}

/// SHA-256 from OpenSSL's libcrypto, as lowercase hex, over bytes in memory
/// or given a chunk at a time (a snapshot as it is written or read back).
///
/// libcrypto is opened on the first hash, not linked: most commands never
/// hash, and loading it costs about a millisecond of every start-up.
public final class ContentHash {
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
    private static let functions: Functions? = DynamicLibrary.first(of: DynamicLibrary.libcrypto) { library in
        guard let new = library.function("EVP_MD_CTX_new", as: NewContext.self), let free = library.function("EVP_MD_CTX_free", as: FreeContext.self),
              let sha256 = library.function("EVP_sha256", as: Algorithm.self), let initialize = library.function("EVP_DigestInit_ex", as: Initialize.self),
              let update = library.function("EVP_DigestUpdate", as: Update.self), let finish = library.function("EVP_DigestFinal_ex", as: Finish.self)
        else { return nil }
        return Functions(new: new, free: free, sha256: sha256, initialize: initialize, update: update, finish: finish)
    }

    private let functions: Functions
    private let context: OpaquePointer
    /// How many bytes have been hashed.
    public private(set) var count = 0

    /// A hash of nothing yet.
    public init() throws {
        guard let functions = Self.functions, let context = functions.new() else { throw ContentHashError() }
        self.functions = functions
        self.context = context
        guard functions.initialize(context, functions.sha256(), nil) == 1 else { throw ContentHashError() }
    }

    deinit {
        functions.free(context)
    }

    /// Hashes the next bytes.
    public func update(_ bytes: UnsafeRawBufferPointer) throws {
        guard functions.update(context, bytes.baseAddress, bytes.count) == 1 else { throw ContentHashError() }
        count += bytes.count
    }

    /// The hex SHA-256 of every byte given.
    public func finish() throws -> String {
        Hex.string(try finishBytes())
    }

    /// The SHA-256 of every byte given, as its 32 bytes.
    public func finishBytes() throws -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard functions.finish(context, &digest, &length) == 1 else { throw ContentHashError() }
        return Array(digest.prefix(Int(length)))
    }

    public static func sha256(_ data: Data) throws -> String {
        try data.withUnsafeBytes { try sha256($0) }
    }

    /// The hex SHA-256 of bytes in memory, without copying them.
    public static func sha256(_ bytes: UnsafeRawBufferPointer) throws -> String {
        let hash = try ContentHash()
        try hash.update(bytes)
        return try hash.finish()
    }
}

/// Bytes written as hex, and read back.
public enum Hex {
    /// Bytes as lowercase hex.
    public static func string(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes of hex, nil for anything else (an odd length, another character).
    public static func bytes(_ text: some StringProtocol) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case 0x30...0x39: c - 0x30
            case 0x61...0x66: c - 0x61 + 10
            case 0x41...0x46: c - 0x41 + 10
            default: nil
            }
        }
        var out = [UInt8]()
        out.reserveCapacity(utf8.count / 2)
        var index = 0
        while index < utf8.count {
            guard let high = nibble(utf8[index]), let low = nibble(utf8[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }
}
