import Foundation

/// A file's bytes sealed for a folder others move (DESIGN §11), as age's payload is (its STREAM construction): a
/// header names the format and carries 16 random bytes; the file's own key is HKDF-SHA256 of the folder key with
/// those bytes as salt, so no two files share a key and a counter nonce never repeats under one; the body is sealed
/// in chunks of 64 KiB with ChaCha20-Poly1305, each nonce the chunk's number and a last-chunk flag. A changed, cut,
/// extended or reordered file does not open. `associated` binds it to where it belongs (its name), outside the seal.
public enum SealedStream {
    /// The first bytes of every sealed file.
    public static let magic = Array("trend-sealed 1\n".utf8)
    public static let saltBytes = 16
    /// Plaintext bytes a chunk holds (the last one fewer, possibly none).
    public static let chunkBytes = 64 * 1_024

    /// `plaintext` sealed under `folderKey`, bound to `associated`.
    public static func seal(_ plaintext: [UInt8], folderKey: [UInt8], associated: [UInt8]) throws(SealingError) -> [UInt8] {
        let salt = try Sealing.randomBytes(saltBytes)
        let key = try fileKey(folderKey: folderKey, salt: salt)
        var output = magic + salt
        output.reserveCapacity(output.count + plaintext.count + (plaintext.count / chunkBytes + 1) * Sealing.tagBytes)
        var start = 0, counter: UInt64 = 0
        repeat {
            let end = min(plaintext.count, start + chunkBytes)
            let last = end == plaintext.count
            output += try Sealing.seal(Array(plaintext[start..<end]), key: key, nonce: nonce(counter, last: last),
                                       associated: associated)
            start = end
            counter += 1
        } while start < plaintext.count
        return output
    }

    /// The plaintext of a sealed file, when it was sealed whole under `folderKey` and bound to `associated`.
    public static func open(_ sealed: [UInt8], folderKey: [UInt8], associated: [UInt8]) throws(SealingError) -> [UInt8] {
        guard sealed.count >= magic.count + saltBytes + Sealing.tagBytes, Array(sealed.prefix(magic.count)) == magic else {
            throw .notAuthentic
        }
        let salt = Array(sealed[magic.count..<(magic.count + saltBytes)])
        let key = try fileKey(folderKey: folderKey, salt: salt)
        let body = sealed[(magic.count + saltBytes)...]
        let sealedChunk = chunkBytes + Sealing.tagBytes
        var output: [UInt8] = []
        output.reserveCapacity(body.count)
        var start = body.startIndex, counter: UInt64 = 0
        while true {
            let end = min(body.endIndex, start + sealedChunk)
            let last = end == body.endIndex
            output += try Sealing.open(Array(body[start..<end]), key: key, nonce: nonce(counter, last: last), associated: associated)
            if last { return output }
            start = end
            counter += 1
        }
    }

    /// Whether `bytes` begin as a sealed file does (a plain file of an older Trend does not).
    public static func looksSealed(_ bytes: some Collection<UInt8>) -> Bool { bytes.starts(with: magic) }

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
