import CCrypto
import Foundation
import SystemLibraries

/// Why a key could not be made, or a signature made or checked, by libcrypto.
public struct SigningError: Error, Equatable, Sendable, CustomStringConvertible {
    public let reason: String

    public init(_ reason: String) {
        self.reason = reason
    }

    public var description: String { "libcrypto could not \(reason)" }
}

/// Ed25519 from OpenSSL's libcrypto (EVP_PKEY, one-shot EVP_DigestSign and
/// EVP_DigestVerify), opened on first use as `ContentHash` is: an
/// installation's key pair, which signs the sync segments it writes so its
/// peers can tell them from anything else in the folder (DESIGN §8).
public enum Ed25519 {
    /// The private key's 32 bytes (the seed RFC 8032 names).
    public static let seedBytes = 32
    /// A public key's 32 bytes.
    public static let publicKeyBytes = 32
    /// A signature's 64 bytes.
    public static let signatureBytes = 64

    private typealias NewRaw = @convention(c) (Int32, OpaquePointer?, UnsafePointer<UInt8>?, Int) -> OpaquePointer?
    private typealias FreeKey = @convention(c) (OpaquePointer?) -> Void
    private typealias RawPublic = @convention(c) (OpaquePointer?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<Int>?) -> Int32
    private typealias NewContext = @convention(c) () -> OpaquePointer?
    private typealias FreeContext = @convention(c) (OpaquePointer?) -> Void
    private typealias SignInit = @convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?, OpaquePointer?, OpaquePointer?) -> Int32
    private typealias Sign = @convention(c) (OpaquePointer?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<Int>?,
                                             UnsafePointer<UInt8>?, Int) -> Int32
    private typealias Verify = @convention(c) (OpaquePointer?, UnsafePointer<UInt8>?, Int, UnsafePointer<UInt8>?, Int) -> Int32
    private typealias RandomBytes = @convention(c) (UnsafeMutablePointer<UInt8>?, Int32) -> Int32

    private struct Functions: @unchecked Sendable {
        // C function pointers from dlsym, never written after they are read: safe to share.
        let newPrivate: NewRaw, newPublic: NewRaw, free: FreeKey, rawPublic: RawPublic
        let newContext: NewContext, freeContext: FreeContext
        let signInit: SignInit, sign: Sign, verifyInit: SignInit, verify: Verify, random: RandomBytes
    }

    /// `EVP_PKEY_ED25519` (NID_ED25519).
    private static let keyType: Int32 = 1087

    private static let functions: Functions? = DynamicLibrary.first(of: DynamicLibrary.libcrypto) { library in
        guard let newPrivate = library.function("EVP_PKEY_new_raw_private_key", as: NewRaw.self),
              let newPublic = library.function("EVP_PKEY_new_raw_public_key", as: NewRaw.self),
              let free = library.function("EVP_PKEY_free", as: FreeKey.self), let rawPublic = library.function("EVP_PKEY_get_raw_public_key", as: RawPublic.self),
              let newContext = library.function("EVP_MD_CTX_new", as: NewContext.self), let freeContext = library.function("EVP_MD_CTX_free", as: FreeContext.self),
              let signInit = library.function("EVP_DigestSignInit", as: SignInit.self), let sign = library.function("EVP_DigestSign", as: Sign.self),
              let verifyInit = library.function("EVP_DigestVerifyInit", as: SignInit.self), let verify = library.function("EVP_DigestVerify", as: Verify.self),
              let random = library.function("RAND_bytes", as: RandomBytes.self)
        else { return nil }
        return Functions(newPrivate: newPrivate, newPublic: newPublic, free: free, rawPublic: rawPublic, newContext: newContext,
                         freeContext: freeContext, signInit: signInit, sign: sign, verifyInit: verifyInit, verify: verify, random: random)
    }

    private static func loaded() throws(SigningError) -> Functions {
        guard let functions else { throw SigningError("be opened (libcrypto.so.3)") }
        return functions
    }

    /// A new private key: 32 bytes from libcrypto's random generator.
    public static func newSeed() throws(SigningError) -> [UInt8] {
        let functions = try loaded()
        var seed = [UInt8](repeating: 0, count: seedBytes)
        guard functions.random(&seed, Int32(seedBytes)) == 1 else { throw SigningError("make a random key") }
        return seed
    }

    /// The public key of a private key's seed.
    public static func publicKey(ofSeed seed: [UInt8]) throws(SigningError) -> [UInt8] {
        let functions = try loaded()
        guard seed.count == seedBytes, let key = functions.newPrivate(keyType, nil, seed, seed.count) else {
            throw SigningError("read the private key")
        }
        defer { functions.free(key) }
        var out = [UInt8](repeating: 0, count: publicKeyBytes)
        var length = publicKeyBytes
        guard functions.rawPublic(key, &out, &length) == 1, length == publicKeyBytes else { throw SigningError("derive the public key") }
        return out
    }

    /// The signature of `message` by the private key `seed`.
    public static func sign(_ message: [UInt8], seed: [UInt8]) throws(SigningError) -> [UInt8] {
        let functions = try loaded()
        guard seed.count == seedBytes, let key = functions.newPrivate(keyType, nil, seed, seed.count) else {
            throw SigningError("read the private key")
        }
        defer { functions.free(key) }
        guard let context = functions.newContext() else { throw SigningError("sign") }
        defer { functions.freeContext(context) }
        var signature = [UInt8](repeating: 0, count: signatureBytes)
        var length = signatureBytes
        guard functions.signInit(context, nil, nil, nil, key) == 1,
              functions.sign(context, &signature, &length, message, message.count) == 1, length == signatureBytes
        else { throw SigningError("sign") }
        return signature
    }

    /// Whether `signature` is the signature of `message` by the holder of `publicKey`. False for a key or a
    /// signature of the wrong length, or when libcrypto cannot be opened (nothing unverified is taken as verified).
    public static func isValid(_ signature: [UInt8], of message: [UInt8], publicKey: [UInt8]) -> Bool {
        guard let functions, signature.count == signatureBytes, publicKey.count == publicKeyBytes,
              let key = functions.newPublic(keyType, nil, publicKey, publicKey.count) else { return false }
        defer { functions.free(key) }
        guard let context = functions.newContext() else { return false }
        defer { functions.freeContext(context) }
        return functions.verifyInit(context, nil, nil, nil, key) == 1
            && functions.verify(context, signature, signature.count, message, message.count) == 1
    }
}
