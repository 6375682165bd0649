import CCrypto
import Foundation
import SystemLibraries

/// Why sealing, opening or deriving a key failed.
public enum SealingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// libcrypto is not there, or lacks a function.
    case unavailable
    /// A key, nonce or length of the wrong size, or libcrypto refused.
    case failed(String)
    /// The sealed bytes were not sealed under this key and these associated bytes (or were changed since).
    case notAuthentic
    /// The bytes are not a sealed file at all (a plain file, or another program's).
    case notSealed
    /// Sealed under a folder key the reader does not hold.
    case unknownKey

    public var description: String {
        switch self {
        case .unavailable: "libcrypto (libcrypto.so.3) could not be opened"
        case let .failed(what): "libcrypto could not \(what)"
        case .notAuthentic: "the bytes are not what was sealed under this key: changed, cut short, or sealed under another"
        case .notSealed: "the bytes are not sealed"
        case .unknownKey: "the bytes are sealed under a key this device does not hold"
        }
    }
}

/// The primitives private sync is built from (DESIGN §11), as age uses them: ChaCha20-Poly1305 (RFC 8439),
/// HKDF-SHA256 (RFC 5869) and X25519 (RFC 7748), all from OpenSSL's libcrypto through its EVP interface, opened
/// on first use. Nothing is hand-rolled: this only moves bytes in and out of libcrypto.
public enum Sealing {
    public static let keyBytes = 32, nonceBytes = 12, tagBytes = 16

    private typealias CipherNew = @convention(c) () -> OpaquePointer?
    private typealias CipherFree = @convention(c) (OpaquePointer?) -> Void
    private typealias CipherKind = @convention(c) () -> OpaquePointer?
    private typealias CipherInit = @convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?, UnsafePointer<UInt8>?, UnsafePointer<UInt8>?) -> Int32
    private typealias CipherUpdate = @convention(c) (OpaquePointer?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<Int32>?, UnsafePointer<UInt8>?, Int32) -> Int32
    private typealias CipherFinal = @convention(c) (OpaquePointer?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<Int32>?) -> Int32
    private typealias CipherControl = @convention(c) (OpaquePointer?, Int32, Int32, UnsafeMutableRawPointer?) -> Int32
    private typealias KeyContextNewID = @convention(c) (Int32, OpaquePointer?) -> OpaquePointer?
    private typealias KeyContextNew = @convention(c) (OpaquePointer?, OpaquePointer?) -> OpaquePointer?
    private typealias KeyContextFree = @convention(c) (OpaquePointer?) -> Void
    private typealias DeriveInit = @convention(c) (OpaquePointer?) -> Int32
    private typealias SetDigest = @convention(c) (OpaquePointer?, OpaquePointer?) -> Int32
    private typealias SetBytes = @convention(c) (OpaquePointer?, UnsafePointer<UInt8>?, Int32) -> Int32
    private typealias Derive = @convention(c) (OpaquePointer?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<Int>?) -> Int32
    private typealias SetPeer = @convention(c) (OpaquePointer?, OpaquePointer?) -> Int32
    private typealias Digest = @convention(c) () -> OpaquePointer?
    private typealias NewRaw = @convention(c) (Int32, OpaquePointer?, UnsafePointer<UInt8>?, Int) -> OpaquePointer?
    private typealias FreeKey = @convention(c) (OpaquePointer?) -> Void
    private typealias RawPublic = @convention(c) (OpaquePointer?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<Int>?) -> Int32
    private typealias RandomBytes = @convention(c) (UnsafeMutablePointer<UInt8>?, Int32) -> Int32

    private struct Functions: @unchecked Sendable {
        // C function pointers from the library, never written after they are read: safe to share.
        let cipherNew: CipherNew, cipherFree: CipherFree, chacha: CipherKind
        let encryptInit: CipherInit, encryptUpdate: CipherUpdate, encryptFinal: CipherFinal
        let decryptInit: CipherInit, decryptUpdate: CipherUpdate, decryptFinal: CipherFinal, control: CipherControl
        let contextNewID: KeyContextNewID, contextNew: KeyContextNew, contextFree: KeyContextFree, deriveInit: DeriveInit
        let setDigest: SetDigest, setSalt: SetBytes, setKey: SetBytes, addInfo: SetBytes, derive: Derive, setPeer: SetPeer
        let sha256: Digest, newPrivate: NewRaw, newPublic: NewRaw, freeKey: FreeKey, rawPublic: RawPublic, random: RandomBytes
    }

    /// `EVP_PKEY_HKDF` and `EVP_PKEY_X25519` (NID_hkdf, NID_X25519); the AEAD controls of `evp.h`.
    private static let hkdfType: Int32 = 1036, x25519Type: Int32 = 1034
    private static let setIVLength: Int32 = 0x9, getTag: Int32 = 0x10, setTag: Int32 = 0x11

    private static let functions: Functions? = DynamicLibrary.first(of: DynamicLibrary.libcrypto) { library in
        func find<T>(_ name: String, _ type: T.Type) -> T? { library.function(name, as: type) }
        guard let cipherNew = find("EVP_CIPHER_CTX_new", CipherNew.self), let cipherFree = find("EVP_CIPHER_CTX_free", CipherFree.self),
              let chacha = find("EVP_chacha20_poly1305", CipherKind.self),
              let encryptInit = find("EVP_EncryptInit_ex", CipherInit.self), let encryptUpdate = find("EVP_EncryptUpdate", CipherUpdate.self),
              let encryptFinal = find("EVP_EncryptFinal_ex", CipherFinal.self), let decryptInit = find("EVP_DecryptInit_ex", CipherInit.self),
              let decryptUpdate = find("EVP_DecryptUpdate", CipherUpdate.self), let decryptFinal = find("EVP_DecryptFinal_ex", CipherFinal.self),
              let control = find("EVP_CIPHER_CTX_ctrl", CipherControl.self),
              let contextNewID = find("EVP_PKEY_CTX_new_id", KeyContextNewID.self), let contextNew = find("EVP_PKEY_CTX_new", KeyContextNew.self),
              let contextFree = find("EVP_PKEY_CTX_free", KeyContextFree.self), let deriveInit = find("EVP_PKEY_derive_init", DeriveInit.self),
              let setDigest = find("EVP_PKEY_CTX_set_hkdf_md", SetDigest.self), let setSalt = find("EVP_PKEY_CTX_set1_hkdf_salt", SetBytes.self),
              let setKey = find("EVP_PKEY_CTX_set1_hkdf_key", SetBytes.self), let addInfo = find("EVP_PKEY_CTX_add1_hkdf_info", SetBytes.self),
              let derive = find("EVP_PKEY_derive", Derive.self), let setPeer = find("EVP_PKEY_derive_set_peer", SetPeer.self),
              let sha256 = find("EVP_sha256", Digest.self), let newPrivate = find("EVP_PKEY_new_raw_private_key", NewRaw.self),
              let newPublic = find("EVP_PKEY_new_raw_public_key", NewRaw.self), let freeKey = find("EVP_PKEY_free", FreeKey.self),
              let rawPublic = find("EVP_PKEY_get_raw_public_key", RawPublic.self), let random = find("RAND_bytes", RandomBytes.self)
        else { return nil }
        return Functions(cipherNew: cipherNew, cipherFree: cipherFree, chacha: chacha, encryptInit: encryptInit, encryptUpdate: encryptUpdate,
                         encryptFinal: encryptFinal, decryptInit: decryptInit, decryptUpdate: decryptUpdate, decryptFinal: decryptFinal,
                         control: control, contextNewID: contextNewID, contextNew: contextNew, contextFree: contextFree, deriveInit: deriveInit,
                         setDigest: setDigest, setSalt: setSalt, setKey: setKey, addInfo: addInfo, derive: derive, setPeer: setPeer,
                         sha256: sha256, newPrivate: newPrivate, newPublic: newPublic, freeKey: freeKey, rawPublic: rawPublic, random: random)
    }

    private static func loaded() throws(SealingError) -> Functions {
        guard let functions else { throw .unavailable }
        return functions
    }

    /// `count` bytes from libcrypto's random generator.
    public static func randomBytes(_ count: Int) throws(SealingError) -> [UInt8] {
        let functions = try loaded()
        var bytes = [UInt8](repeating: 0, count: count)
        guard count == 0 || functions.random(&bytes, Int32(count)) == 1 else { throw .failed("make random bytes") }
        return bytes
    }

    // MARK: ChaCha20-Poly1305

    /// `plaintext` sealed under `key` with `nonce` (never used twice with one key), `associated` authenticated but not
    /// hidden: the ciphertext followed by the 16-byte tag.
    public static func seal(_ plaintext: [UInt8], key: [UInt8], nonce: [UInt8], associated: [UInt8] = []) throws(SealingError) -> [UInt8] {
        let functions = try loaded()
        guard key.count == keyBytes, nonce.count == nonceBytes, plaintext.count < Int(Int32.max) - 64 else { throw .failed("seal: a key, nonce or length of the wrong size") }
        guard let context = functions.cipherNew() else { throw .failed("seal") }
        defer { functions.cipherFree(context) }
        var output = [UInt8](repeating: 0, count: plaintext.count + tagBytes)
        var length: Int32 = 0, final: Int32 = 0
        guard functions.encryptInit(context, functions.chacha(), nil, nil, nil) == 1,
              functions.control(context, setIVLength, Int32(nonceBytes), nil) == 1,
              functions.encryptInit(context, nil, nil, key, nonce) == 1,
              associated.isEmpty || functions.encryptUpdate(context, nil, &length, associated, Int32(associated.count)) == 1,
              functions.encryptUpdate(context, &output, &length, plaintext, Int32(plaintext.count)) == 1,
              output.withUnsafeMutableBufferPointer({ functions.encryptFinal(context, $0.baseAddress.map { $0 + Int(length) }, &final) }) == 1,
              output.withUnsafeMutableBufferPointer({ functions.control(context, getTag, Int32(tagBytes), UnsafeMutableRawPointer($0.baseAddress.map { $0 + plaintext.count })) }) == 1
        else { throw .failed("seal") }
        return output
    }

    /// The plaintext of `sealed` (ciphertext and tag), when it was sealed under `key`, `nonce` and `associated`.
    public static func open(_ sealed: [UInt8], key: [UInt8], nonce: [UInt8], associated: [UInt8] = []) throws(SealingError) -> [UInt8] {
        let functions = try loaded()
        guard key.count == keyBytes, nonce.count == nonceBytes else { throw .failed("open: a key or nonce of the wrong size") }
        guard sealed.count >= tagBytes else { throw .notAuthentic }
        guard let context = functions.cipherNew() else { throw .failed("open") }
        defer { functions.cipherFree(context) }
        let body = Array(sealed.dropLast(tagBytes))
        var tag = Array(sealed.suffix(tagBytes))
        var output = [UInt8](repeating: 0, count: body.count + tagBytes)
        var length: Int32 = 0, final: Int32 = 0
        guard functions.decryptInit(context, functions.chacha(), nil, nil, nil) == 1,
              functions.control(context, setIVLength, Int32(nonceBytes), nil) == 1,
              functions.decryptInit(context, nil, nil, key, nonce) == 1,
              associated.isEmpty || functions.decryptUpdate(context, nil, &length, associated, Int32(associated.count)) == 1,
              functions.decryptUpdate(context, &output, &length, body, Int32(body.count)) == 1,
              functions.control(context, setTag, Int32(tagBytes), &tag) == 1
        else { throw .failed("open") }
        let written = Int(length)
        guard output.withUnsafeMutableBufferPointer({ functions.decryptFinal(context, $0.baseAddress.map { $0 + written }, &final) }) == 1 else {
            throw .notAuthentic
        }
        return Array(output.prefix(written + Int(final)))
    }

    // MARK: HKDF-SHA256

    /// `count` bytes of HKDF-SHA256 (RFC 5869) from `key`, `salt` and `info`.
    public static func hkdf(key: [UInt8], salt: [UInt8], info: [UInt8], count: Int) throws(SealingError) -> [UInt8] {
        let functions = try loaded()
        guard let context = functions.contextNewID(hkdfType, nil) else { throw .failed("derive a key") }
        defer { functions.contextFree(context) }
        var output = [UInt8](repeating: 0, count: count)
        var length = count
        guard functions.deriveInit(context) == 1, functions.setDigest(context, functions.sha256()) == 1,
              functions.setSalt(context, salt, Int32(salt.count)) == 1, functions.setKey(context, key, Int32(key.count)) == 1,
              functions.addInfo(context, info, Int32(info.count)) == 1, functions.derive(context, &output, &length) == 1, length == count
        else { throw .failed("derive a key") }
        return output
    }

    // MARK: X25519

    /// A new X25519 private key: 32 random bytes.
    public static func newAgreementKey() throws(SealingError) -> [UInt8] { try randomBytes(keyBytes) }

    /// The X25519 public key of a private key.
    public static func agreementPublicKey(of privateKey: [UInt8]) throws(SealingError) -> [UInt8] {
        let functions = try loaded()
        guard privateKey.count == keyBytes, let key = functions.newPrivate(x25519Type, nil, privateKey, privateKey.count) else {
            throw .failed("read an X25519 private key")
        }
        defer { functions.freeKey(key) }
        var output = [UInt8](repeating: 0, count: keyBytes)
        var length = keyBytes
        guard functions.rawPublic(key, &output, &length) == 1, length == keyBytes else { throw .failed("derive an X25519 public key") }
        return output
    }

    /// The X25519 shared secret of `privateKey` and the peer's `publicKey`.
    public static func sharedSecret(privateKey: [UInt8], publicKey: [UInt8]) throws(SealingError) -> [UInt8] {
        let functions = try loaded()
        guard privateKey.count == keyBytes, publicKey.count == keyBytes,
              let mine = functions.newPrivate(x25519Type, nil, privateKey, privateKey.count) else { throw .failed("read an X25519 key") }
        defer { functions.freeKey(mine) }
        guard let peer = functions.newPublic(x25519Type, nil, publicKey, publicKey.count) else { throw .failed("read an X25519 key") }
        defer { functions.freeKey(peer) }
        guard let context = functions.contextNew(mine, nil) else { throw .failed("agree on a key") }
        defer { functions.contextFree(context) }
        var output = [UInt8](repeating: 0, count: keyBytes)
        var length = keyBytes
        guard functions.deriveInit(context) == 1, functions.setPeer(context, peer) == 1, functions.derive(context, &output, &length) == 1,
              length == keyBytes else { throw .failed("agree on a key") }
        // An all-zero secret is a low-order peer key (RFC 7748 §6.1): refused, as age refuses it.
        guard output.contains(where: { $0 != 0 }) else { throw .failed("agree on a key with a low-order public key") }
        return output
    }
}
