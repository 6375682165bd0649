import Foundation

/// A file's bytes sealed for a folder others move (DESIGN §11), as age's payload is (its STREAM construction): a
/// header names the format, which folder key sealed it (8 bytes derived from the key, never the key) and carries 16
/// random bytes; the file's own key is HKDF-SHA256 of the folder key with those bytes as salt, so no two files share
/// a key and a counter nonce never repeats under one; the body is sealed in chunks of 64 KiB with
/// ChaCha20-Poly1305, each nonce the chunk's number and a last-chunk flag. A changed, cut, extended or reordered
/// file does not open. `associated` binds it to where it belongs (its name), outside the seal.
public enum SealedStream {
    /// The first bytes of every sealed file.
    public static let magic = Array("trend-sealed 1\n".utf8)
    public static let keyIDBytes = 8, saltBytes = 16
    /// The bytes before the first chunk: the magic, the key's id, the salt.
    public static let headerBytes = magic.count + keyIDBytes + saltBytes
    /// Plaintext bytes a chunk holds (the last one fewer, possibly none).
    public static let chunkBytes = 64 * 1_024
    static let sealedChunkBytes = chunkBytes + Sealing.tagBytes

    /// `plaintext` sealed under `folderKey`, bound to `associated`.
    public static func seal(_ plaintext: [UInt8], folderKey: [UInt8], associated: [UInt8]) throws(SealingError) -> [UInt8] {
        var sealer = try Sealer(folderKey: folderKey, associated: associated)
        var output = sealer.header
        output.reserveCapacity(output.count + plaintext.count + (plaintext.count / chunkBytes + 1) * Sealing.tagBytes)
        output += try sealer.add(plaintext[...])
        output += try sealer.finish()
        return output
    }

    /// The plaintext of a sealed file, when it was sealed whole under `folderKey` and bound to `associated`.
    public static func open(_ sealed: [UInt8], folderKey: [UInt8], associated: [UInt8]) throws(SealingError) -> [UInt8] {
        var opener = Opener(associated: associated) { _ in folderKey }
        var output = try opener.take(sealed[...])
        output += try opener.finish()
        return output
    }

    /// Whether `bytes` begin as a sealed file does (a plain file of an older Trend does not).
    public static func looksSealed(_ bytes: some Collection<UInt8>) -> Bool { bytes.starts(with: magic) }

    /// The id a sealed file's header gives its folder key by: the first 8 bytes of an HKDF of it, which tell the key
    /// among a folder's keys without saying anything of it.
    public static func keyID(of folderKey: [UInt8]) throws(SealingError) -> [UInt8] {
        guard folderKey.count == Sealing.keyBytes else { throw .failed("seal: a folder key of the wrong size") }
        return try Sealing.hkdf(key: folderKey, salt: [], info: Array("trend folder key id".utf8), count: keyIDBytes)
    }

    /// Seals a file as its bytes come: the header first, then whole chunks as they fill, the last at `finish`.
    public struct Sealer {
        public let header: [UInt8]
        private let key: [UInt8]
        private let associated: [UInt8]
        private var pending: [UInt8] = []
        private var counter: UInt64 = 0

        public init(folderKey: [UInt8], associated: [UInt8]) throws(SealingError) {
            let salt = try Sealing.randomBytes(saltBytes)
            key = try fileKey(folderKey: folderKey, salt: salt)
            header = magic + (try keyID(of: folderKey)) + salt
            self.associated = associated
        }

        /// The sealed chunks `bytes` complete (a chunk is sealed once a byte past it comes: the last waits for `finish`).
        public mutating func add(_ bytes: ArraySlice<UInt8>) throws(SealingError) -> [UInt8] {
            pending += bytes
            let (key, associated) = (key, associated)
            return try whole(chunksOf: chunkBytes, from: &pending, counter: &counter) { chunk, nonce throws(SealingError) in
                try Sealing.seal(chunk, key: key, nonce: nonce, associated: associated)
            }
        }

        /// The last chunk (what is left, possibly nothing), sealed as the last.
        public mutating func finish() throws(SealingError) -> [UInt8] {
            defer { pending = [] }
            return try Sealing.seal(pending, key: key, nonce: nonce(counter, last: true), associated: associated)
        }
    }

    /// Each whole chunk of `size` bytes in `pending` that is not the last (a byte past it has come), through `transform`
    /// with its nonce, in order; what is left stays pending. Sealing and opening both go chunk by chunk like this.
    private static func whole(chunksOf size: Int, from pending: inout [UInt8], counter: inout UInt64,
                              _ transform: ([UInt8], [UInt8]) throws(SealingError) -> [UInt8]) throws(SealingError) -> [UInt8] {
        var output: [UInt8] = []
        var start = 0
        while pending.count - start > size {
            output += try transform(Array(pending[start..<(start + size)]), nonce(counter, last: false))
            counter += 1
            start += size
        }
        if start > 0 { pending.removeFirst(start) }
        return output
    }

    /// Opens a sealed file as its bytes come, under the key its header names (`key` finds it by its id; nil: a key
    /// this reader does not hold): the plaintext of each chunk once it is known not to be the last, the last at
    /// `finish`. Nothing it hands on is to be trusted before `finish` returns: a file cut short fails there.
    public struct Opener {
        private let associated: [UInt8]
        private let find: ([UInt8]) -> [UInt8]?
        private var key: [UInt8]?
        private var pending: [UInt8] = []
        private var counter: UInt64 = 0
        /// The id of the key the header names, once it is read.
        public private(set) var keyID: [UInt8]?

        public init(associated: [UInt8], key: @escaping ([UInt8]) -> [UInt8]?) {
            self.associated = associated
            find = key
        }

        /// The plaintext of the chunks `bytes` complete.
        public mutating func take(_ bytes: ArraySlice<UInt8>) throws(SealingError) -> [UInt8] {
            pending += bytes
            if key == nil {
                guard pending.count >= headerBytes else {
                    guard magic.starts(with: pending.prefix(magic.count)) else { throw .notSealed }
                    return []
                }
                guard looksSealed(pending) else { throw .notSealed }
                let id = Array(pending[magic.count..<(magic.count + keyIDBytes)])
                keyID = id
                guard let folderKey = find(id) else { throw .unknownKey }
                key = try fileKey(folderKey: folderKey, salt: Array(pending[(magic.count + keyIDBytes)..<headerBytes]))
                pending.removeFirst(headerBytes)
            }
            guard let key else { return [] }
            let associated = associated
            return try whole(chunksOf: sealedChunkBytes, from: &pending, counter: &counter) { chunk, nonce throws(SealingError) in
                try Sealing.open(chunk, key: key, nonce: nonce, associated: associated)
            }
        }

        /// The last chunk's plaintext, once the file is found whole and authentic.
        public mutating func finish() throws(SealingError) -> [UInt8] {
            guard let key else { throw pending.isEmpty || looksSealed(pending) || magic.starts(with: pending) ? .notAuthentic : .notSealed }
            defer { pending = [] }
            return try Sealing.open(pending, key: key, nonce: nonce(counter, last: true), associated: associated)
        }
    }

    private static func fileKey(folderKey: [UInt8], salt: [UInt8]) throws(SealingError) -> [UInt8] {
        guard folderKey.count == Sealing.keyBytes else { throw .failed("seal: a folder key of the wrong size") }
        return try Sealing.hkdf(key: folderKey, salt: salt, info: Array("trend sealed file".utf8), count: Sealing.keyBytes)
    }

    /// The chunk's number, big-endian in 11 bytes, and 1 for the last chunk (age's STREAM nonce).
    private static func nonce(_ counter: UInt64, last: Bool) -> [UInt8] {
        var nonce = [UInt8](repeating: 0, count: Sealing.nonceBytes)
        for index in 0..<8 { nonce[10 - index] = UInt8(truncatingIfNeeded: counter >> (8 * UInt64(index))) }
        nonce[11] = last ? 1 : 0
        return nonce
    }
}

/// A secret sealed to one X25519 public key, as age's X25519 recipient stanza seals a file key: a fresh ephemeral
/// key pair, the shared secret of its private half and the recipient's key, HKDF-SHA256 over both public keys, and
/// ChaCha20-Poly1305 under that (a key used once, so a zero nonce). Only the holder of the recipient's private key
/// opens it; the box names no one.
public enum KeyBox {
    public static let overhead = Sealing.keyBytes + Sealing.tagBytes

    /// `secret` sealed to `recipient` (an X25519 public key): the ephemeral public key, then the sealed secret.
    public static func seal(_ secret: [UInt8], to recipient: [UInt8]) throws(SealingError) -> [UInt8] {
        let ephemeral = try Sealing.newAgreementKey()
        let share = try Sealing.agreementPublicKey(of: ephemeral)
        let key = try wrapKey(try Sealing.sharedSecret(privateKey: ephemeral, publicKey: recipient), share: share, recipient: recipient)
        return share + (try Sealing.seal(secret, key: key, nonce: [UInt8](repeating: 0, count: Sealing.nonceBytes)))
    }

    /// The secret in `box`, when it was sealed to the public key of `privateKey`; nil when it was sealed to another.
    public static func open(_ box: [UInt8], privateKey: [UInt8]) -> [UInt8]? {
        guard box.count >= overhead, let recipient = try? Sealing.agreementPublicKey(of: privateKey) else { return nil }
        let share = Array(box.prefix(Sealing.keyBytes))
        guard let shared = try? Sealing.sharedSecret(privateKey: privateKey, publicKey: share),
              let key = try? wrapKey(shared, share: share, recipient: recipient) else { return nil }
        return try? Sealing.open(Array(box.dropFirst(Sealing.keyBytes)), key: key, nonce: [UInt8](repeating: 0, count: Sealing.nonceBytes))
    }

    private static func wrapKey(_ shared: [UInt8], share: [UInt8], recipient: [UInt8]) throws(SealingError) -> [UInt8] {
        try Sealing.hkdf(key: shared, salt: share + recipient, info: Array("trend key box".utf8), count: Sealing.keyBytes)
    }
}
