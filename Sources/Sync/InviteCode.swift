import Cryptography
import Foundation

/// A code that lets one more device join a private folder (DESIGN §11): 160 random bits, written in base32 in groups
/// of four (`trend-abcd-…`). From it come the invite's id (the name of its file in the inviter's folder), the key
/// that file is sealed with, and the key a join's proof is made with. The code itself is never stored in the folder.
struct InviteCode: Equatable, Sendable {
    static let secretBytes = 20
    private static let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567".utf8)

    let secret: [UInt8]

    static func make() throws -> InviteCode { InviteCode(secret: try Sealing.randomBytes(secretBytes)) }

    init(secret: [UInt8]) { self.secret = secret }

    /// A code as a person types it back: case, spaces and dashes do not matter; nil for anything that is not one.
    init?(text: String) {
        var letters = Array(text.lowercased().utf8.filter { $0 != 0x2D && $0 != 0x20 })
        if letters.starts(with: Array("trend".utf8)) { letters.removeFirst(5) }
        guard letters.count == Self.secretBytes * 8 / 5 else { return nil }
        var bits = 0, value = 0
        var bytes: [UInt8] = []
        for letter in letters {
            guard let digit = Self.alphabet.firstIndex(of: letter) else { return nil }
            value = (value << 5) | digit
            bits += 5
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8(truncatingIfNeeded: value >> bits))
                value &= (1 << bits) - 1
            }
        }
        secret = bytes
    }

    /// `trend-` and the secret in base32, in groups of four letters.
    var text: String {
        var letters: [UInt8] = []
        var bits = 0, value = 0
        for byte in secret {
            value = (value << 8) | Int(byte)
            bits += 8
            while bits >= 5 {
                bits -= 5
                letters.append(Self.alphabet[(value >> bits) & 31])
            }
            value &= (1 << bits) - 1
        }
        let groups = stride(from: 0, to: letters.count, by: 4).map { String(decoding: letters[$0..<min(letters.count, $0 + 4)], as: UTF8.self) }
        return "trend-" + groups.joined(separator: "-")
    }

    private func derived(_ info: String, _ count: Int) throws -> [UInt8] {
        try Sealing.hkdf(key: secret, salt: [], info: Array(info.utf8), count: count)
    }

    /// The invite's id: its file is `invite-<id>` in the inviter's folder.
    func id() throws -> String { Hex.string(try derived("trend invite id", 8)) }
    var fileName: String { get throws { "invite-" + (try id()) } }
    func fileKey() throws -> [UInt8] { try derived("trend invite key", Sealing.keyBytes) }
    func proofKey() throws -> [UInt8] { try derived("trend invite proof", Sealing.keyBytes) }
}

/// What an invite's file holds for the device that joins: who founded the folder, who invited, and the folder keys.
struct InviteContent: Codable, Equatable, Sendable {
    var founder: String
    var founderKey: String
    var inviter: String
    var keys: [FolderSecrets.FolderKey]
}
