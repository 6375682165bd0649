import Testing
@testable import Cryptography

/// The primitives of private sync (issue 61, DESIGN §11) against their RFCs' own test vectors: ChaCha20-Poly1305
/// (RFC 8439 §2.8.2), HKDF-SHA256 (RFC 5869, test case 1) and X25519 (RFC 7748 §6.1), all libcrypto's.
@Suite struct SealingTests {
    static func bytes(_ hex: String) -> [UInt8] {
        let digits = Array(hex.filter(\.isHexDigit))
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16) ?? 0 }
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test func chacha20Poly1305SealsAsRFC8439SaysAndOpensOnlyWhatItSealed() throws {
        let key = Self.bytes("808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f")
        let nonce = Self.bytes("070000004041424344454647")
        let associated = Self.bytes("50515253c0c1c2c3c4c5c6c7")
        let plaintext = Array("Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it.".utf8)
        let sealed = try Sealing.seal(plaintext, key: key, nonce: nonce, associated: associated)
        #expect(sealed.count == plaintext.count + 16)
        #expect(Self.hex(Array(sealed.prefix(16))) == "d31a8d34648e60db7b86afbc53ef7ec2")
        #expect(Self.hex(Array(sealed.suffix(16))) == "1ae10b594f09e26a7e902ecbd0600691")
        #expect(try Sealing.open(sealed, key: key, nonce: nonce, associated: associated) == plaintext)
        // A flipped byte, other associated bytes, another key or a cut: none opens.
        var flipped = sealed
        flipped[5] ^= 1
        #expect(throws: SealingError.notAuthentic) { try Sealing.open(flipped, key: key, nonce: nonce, associated: associated) }
        #expect(throws: SealingError.notAuthentic) { try Sealing.open(sealed, key: key, nonce: nonce, associated: []) }
        var other = key
        other[0] ^= 1
        #expect(throws: SealingError.notAuthentic) { try Sealing.open(sealed, key: other, nonce: nonce, associated: associated) }
        #expect(throws: SealingError.notAuthentic) { try Sealing.open(Array(sealed.dropLast()), key: key, nonce: nonce, associated: associated) }
        #expect(throws: SealingError.notAuthentic) { try Sealing.open([1, 2, 3], key: key, nonce: nonce) }
    }

    @Test func hkdfDerivesAsRFC5869Says() throws {
        let derived = try Sealing.hkdf(key: [UInt8](repeating: 0x0b, count: 22), salt: Self.bytes("000102030405060708090a0b0c"),
                                       info: Self.bytes("f0f1f2f3f4f5f6f7f8f9"), count: 42)
        #expect(Self.hex(derived) == "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865")
    }

    @Test func x25519AgreesAsRFC7748SaysAndRefusesALowOrderKey() throws {
        let alice = Self.bytes("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a")
        let bob = Self.bytes("5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb")
        #expect(Self.hex(try Sealing.agreementPublicKey(of: alice)) == "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a")
        let bobPublic = try Sealing.agreementPublicKey(of: bob)
        #expect(Self.hex(bobPublic) == "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f")
        let shared = "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742"
        #expect(Self.hex(try Sealing.sharedSecret(privateKey: alice, publicKey: bobPublic)) == shared)
        #expect(Self.hex(try Sealing.sharedSecret(privateKey: bob, publicKey: try Sealing.agreementPublicKey(of: alice))) == shared)
        #expect(throws: SealingError.self) { try Sealing.sharedSecret(privateKey: alice, publicKey: [UInt8](repeating: 0, count: 32)) }
        #expect(try Sealing.newAgreementKey() != Sealing.newAgreementKey(), "random keys")
    }
}

/// A file sealed for the sync folder (`SealedStream`): it opens whole under its key and name, and a changed, cut,
/// extended, reordered or renamed file does not; the same bytes sealed twice share nothing.
@Suite struct SealedStreamTests {
    let key = (0..<32).map { UInt8($0) }

    @Test(arguments: [0, 1, SealedStream.chunkBytes - 1, SealedStream.chunkBytes, SealedStream.chunkBytes + 1, 3 * SealedStream.chunkBytes + 77])
    func aFileOpensWholeUnderItsKeyAndName(size: Int) throws {
        let plaintext = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let name = Array("trend/abc/1-10.jsonl".utf8)
        let sealed = try SealedStream.seal(plaintext, folderKey: key, associated: name)
        #expect(SealedStream.looksSealed(sealed) && !SealedStream.looksSealed(plaintext.prefix(20)))
        #expect(try SealedStream.open(sealed, folderKey: key, associated: name) == plaintext)
        #expect(throws: SealingError.notAuthentic) { try SealedStream.open(sealed, folderKey: key, associated: Array("trend/abc/11-20.jsonl".utf8)) }
        var other = key
        other[31] ^= 0x80
        #expect(throws: SealingError.notAuthentic) { try SealedStream.open(sealed, folderKey: other, associated: name) }
        var flipped = sealed
        flipped[flipped.count / 2] ^= 1
        #expect(throws: SealingError.notAuthentic) { try SealedStream.open(flipped, folderKey: key, associated: name) }
        // Cut at a chunk's end: the chunk before the cut was not sealed as the last one.
        let chunk = SealedStream.chunkBytes + Sealing.tagBytes, head = SealedStream.headerBytes
        if sealed.count > head + chunk {
            #expect(throws: SealingError.notAuthentic) { try SealedStream.open(Array(sealed.prefix(head + chunk)), folderKey: key, associated: name) }
        }
        #expect(throws: SealingError.notAuthentic) { try SealedStream.open(sealed + [0], folderKey: key, associated: name) }
        let again = try SealedStream.seal(plaintext, folderKey: key, associated: name)
        #expect(again != sealed && Array(again.prefix(head)) != Array(sealed.prefix(head)), "a fresh salt, so a fresh key, each time")
    }

    @Test func reorderedChunksDoNotOpen() throws {
        let plaintext = [UInt8](repeating: 7, count: 2 * SealedStream.chunkBytes) + [1, 2, 3]
        let sealed = try SealedStream.seal(plaintext, folderKey: key, associated: [])
        let head = SealedStream.headerBytes, chunk = SealedStream.chunkBytes + Sealing.tagBytes
        let first = sealed[head..<(head + chunk)], second = sealed[(head + chunk)..<(head + 2 * chunk)]
        let swapped = Array(sealed.prefix(head)) + Array(second) + Array(first) + Array(sealed[(head + 2 * chunk)...])
        #expect(throws: SealingError.notAuthentic) { try SealedStream.open(swapped, folderKey: key, associated: []) }
    }

    @Test(arguments: [1, 1000, SealedStream.chunkBytes, SealedStream.chunkBytes + 17])
    func aFileSealedAndOpenedInPiecesIsTheSame(piece: Int) throws {
        let plaintext = (0..<(2 * SealedStream.chunkBytes + 5)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        var sealer = try SealedStream.Sealer(folderKey: key, associated: [9])
        var sealed = sealer.header
        for start in stride(from: 0, to: plaintext.count, by: piece) {
            sealed += try sealer.add(plaintext[start..<min(plaintext.count, start + piece)])
        }
        sealed += try sealer.finish()
        #expect(try SealedStream.open(sealed, folderKey: key, associated: [9]) == plaintext)
        var opener = SealedStream.Opener(associated: [9]) { $0 == (try? SealedStream.keyID(of: key)) ? key : nil }
        var opened: [UInt8] = []
        for start in stride(from: 0, to: sealed.count, by: piece) { opened += try opener.take(sealed[start..<min(sealed.count, start + piece)]) }
        opened += try opener.finish()
        #expect(opened == plaintext)
        var stranger = SealedStream.Opener(associated: [9]) { _ in nil }
        #expect(throws: SealingError.unknownKey) { _ = try stranger.take(sealed[...]) }
        var plain = SealedStream.Opener(associated: [9]) { _ in key }
        #expect(throws: SealingError.notSealed) { _ = try plain.take(Array("{\"trend-sync\":2}\n".utf8)[...]) }
    }
}

/// A folder key sealed to one device's X25519 key (`KeyBox`): only that device's private key opens it.
@Suite struct KeyBoxTests {
    @Test func onlyTheRecipientOpensABox() throws {
        let alice = try Sealing.newAgreementKey(), bob = try Sealing.newAgreementKey()
        let secret = try Sealing.randomBytes(32)
        let box = try KeyBox.seal(secret, to: try Sealing.agreementPublicKey(of: alice))
        #expect(box.count == secret.count + KeyBox.overhead)
        #expect(KeyBox.open(box, privateKey: alice) == secret)
        #expect(KeyBox.open(box, privateKey: bob) == nil)
        var flipped = box
        flipped[40] ^= 1
        #expect(KeyBox.open(flipped, privateKey: alice) == nil)
        #expect(try KeyBox.seal(secret, to: try Sealing.agreementPublicKey(of: alice)) != box, "a fresh ephemeral key each time")
    }
}
