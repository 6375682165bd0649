import Cryptography
import Foundation
import Storage

/// What makes this installation a member of a private sync folder (DESIGN §11): the folder's keys, its own X25519
/// key that other members seal new keys to, who founded the folder, the statements it made about membership, and the
/// invites it has out. Kept in the data directory as `sync-secrets.json` at mode 0600, never in the database (so
/// never in a snapshot), never in the folder, never printed except as an invite code.
struct FolderSecrets: Codable, Equatable, Sendable {
    /// The sync folder these secrets belong to (another folder set is another membership).
    var folder: String
    /// The installation these secrets belong to: a fork takes a new id, and its membership is made again.
    var installation: String
    /// The founder of the folder and its Ed25519 public key (hex): where membership starts.
    var founder: String
    var founderKey: String
    /// This installation's X25519 private key (hex).
    var agreement: String
    /// Every folder key this installation holds (new ones come at each removal).
    var keys: [FolderKey]
    /// This installation's own membership statements, in order: what its `members` file holds.
    var statements: [MemberStatement]
    /// The secrets of the invites made here not used yet (hex): an invite's file is rewritten with newer keys.
    var invites: [String] = []
    /// What this installation's `members` file was last written from (its statement count and key id), and the
    /// member-and-key pairs its `keys` file seals keys for: each is written again only when these change.
    var published: String?
    var granted: [String]?
    /// The removed installations this one knew of when it last made or took its newest key (nil: not counted yet).
    /// A removal it learns of later may have been made while another member still sealed the newest key to the
    /// device that removal took out (two removals at once): it then makes a key of a new epoch.
    var removalsKnown: [String]?

    struct FolderKey: Codable, Equatable, Sendable {
        var epoch: Int
        var key: String

        var bytes: [UInt8] { Hex.bytes(key) ?? [] }
    }

    /// The key this installation seals with: the newest (the highest epoch; between two made at once, the highest id).
    var current: FolderKey? {
        keys.max { ($0.epoch, Hex.string((try? SealedStream.keyID(of: $0.bytes)) ?? [])) < ($1.epoch, Hex.string((try? SealedStream.keyID(of: $1.bytes)) ?? [])) }
    }

    /// The folder key whose id a sealed file's header names, if this installation holds it.
    func key(id: [UInt8]) -> [UInt8]? {
        keys.lazy.map(\.bytes).first { (try? SealedStream.keyID(of: $0)) == id }
    }

    /// Adds a key not held yet; whether it was new.
    mutating func add(_ key: [UInt8], epoch: Int) -> Bool {
        guard key.count == Sealing.keyBytes, !keys.contains(where: { $0.bytes == key }) else { return false }
        keys.append(FolderKey(epoch: epoch, key: Hex.string(key)))
        return true
    }

    var agreementKey: [UInt8] { Hex.bytes(agreement) ?? [] }

    /// The public half of `agreement`, which this installation's statement names.
    func agreementPublicKey() throws -> [UInt8] { try Sealing.agreementPublicKey(of: agreementKey) }
}

/// Where the secrets are kept: `sync-secrets.json` in the data directory (0600, written whole or not at all), or in
/// memory for a database in memory.
final class FolderSecretsFile: @unchecked Sendable {
    private let url: URL?
    // Only the sync worker's thread touches it (the store's executor).
    private var held: FolderSecrets?
    /// How many times the held secrets changed (an in-memory store's `stamp`).
    private var generation = 0

    init(directory: URL?) {
        url = directory?.appendingPathComponent(Self.name)
    }

    static let name = "sync-secrets.json"

    /// The secrets, when this installation holds some; an unreadable file is none (and `save` replaces it).
    func read() -> FolderSecrets? {
        guard let url else { return held }
        // The file as last read, while it is the same file (a prompt syncs often, and it seldom changes).
        let stamp = self.stamp
        if let lastRead, lastRead.stamp == stamp { return lastRead.secrets }
        guard let data = try? Data(contentsOf: url) else { return nil }  // None yet.
        let secrets = try? JSONDecoder().decode(FolderSecrets.self, from: data)  // Damaged: as none; the folder says what to do.
        lastRead = (stamp, secrets)
        return secrets
    }

    /// The secrets of `folder`, when this installation holds that folder's (none, or another folder's: nil).
    func read(for folder: URL) -> FolderSecrets? {
        read().flatMap { $0.folder == folder.standardizedFileURL.path ? $0 : nil }
    }

    /// What `read` last read, and from which version of the file.
    private var lastRead: (stamp: String, secrets: FolderSecrets?)?

    /// Which version of the file is there: its inode, size and time (each save is a new file), without reading it.
    var stamp: String {
        guard let url else { return "held \(generation)" }
        var info = stat()
        guard stat(url.path, &info) == 0 else { return "none" }
        return "\(info.st_ino):\(info.st_size):\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
    }

    func save(_ secrets: FolderSecrets) throws {
        guard let url else { held = secrets; generation += 1; return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let file = try AtomicFile(url: url)
        try file.append(String(decoding: try encoder.encode(secrets), as: UTF8.self) + "\n")
        try file.commit()
    }

    func remove() {
        guard let url else { held = nil; generation += 1; return }
        unlink(url.path)
    }
}
