import Cryptography
import Foundation

/// One statement an installation makes about the membership of a private folder (DESIGN §11), kept in its
/// `members` file: how it came in (`found`, `join`, `successor`), and what it did as a member (`invite`, `remove`).
struct MemberStatement: Codable, Equatable, Sendable {
    enum Kind: String, Codable, Sendable {
        /// The folder's first member (who the invites name as founder).
        case found
        /// A device that joined with an invite's code: `proof` shows it held the code.
        case join
        /// A copy of a member's data directory that took a new id: `vouch` is the member's signature for it.
        case successor
        /// An invite this member made: `proof` is the key a join's proof is checked with.
        case invite
        /// A member this one removed: its changes through `through` and its first `statements` statements stand;
        /// `epoch` is the folder key made then, which the removed device never holds.
        case remove
    }

    var kind: Kind
    /// The installation the statement is about (the writer itself for found, join and successor).
    var installation: String?
    /// Its Ed25519 public key (hex): what its statements and its successors' vouches are checked with.
    var key: String?
    /// Its X25519 public key (hex): what the folder keys are sealed to.
    var agreement: String?
    /// Its name when it came in, as `sync devices` shows it.
    var name: String?
    /// The invite's id: the one made (`invite`), or the one used (`join`).
    var invite: String?
    /// In an `invite`, the key a join's proof is checked with; in a `join`, the proof (`joinProof`), both hex.
    var proof: String?
    /// A successor's old installation, whose key signed `vouch`.
    var of: String?
    /// The old installation's Ed25519 signature of `vouched(installation:key:agreement:)`.
    var vouch: String?
    /// In a `remove`, the removed device's last change that stands, its statements that do, and the new key's epoch.
    var through: Int?, statements: Int?, epoch: Int?

    /// What a successor's vouch is a signature of.
    static func vouched(installation: String, key: String, agreement: String) -> [UInt8] {
        Array("trend successor\n\(installation)\n\(key)\n\(agreement)".utf8)
    }

    /// A join's proof: HKDF of the invite's proof key over who joins, which only a holder of the code can make.
    static func joinProof(proofKey: [UInt8], installation: String, key: String, agreement: String) throws -> String {
        Hex.string(try Sealing.hkdf(key: proofKey, salt: Array("\(installation)\n\(key)\n\(agreement)".utf8),
                                    info: Array("trend join proof".utf8), count: 32))
    }
}

/// A member of a private folder, as the statements admit it.
struct Member: Codable, Equatable, Sendable {
    let installation: String
    let key: [UInt8]
    let agreement: [UInt8]
    let name: String
}

/// Who belongs to a private folder, worked out from every installation's statements (DESIGN §11): the founder, each
/// device that joined by an invite a member made (one device an invite), each successor a member vouched for; less
/// those a member removed. A removed device's statements after its removal, and its changes after `through`, count
/// for nothing.
struct Roster: Codable, Equatable, Sendable {
    /// A removed installation: the last of its changes that stands, and how many of its statements do.
    struct Removal: Codable, Equatable, Sendable {
        var through: Int, statements: Int
    }

    /// An invite made: who made it, and the key a join's proof is checked with.
    struct Invite: Codable, Equatable, Sendable {
        var by: String, proof: [UInt8]
    }

    var members: [String: Member] = [:]
    var removed: [String: Removal] = [:]
    /// The removed members as they were admitted: their changes through `removed`'s `through` are checked by their key.
    var former: [String: Member] = [:]
    /// The newest folder key epoch a removal made: a member holding none that new seals with a key of its own.
    var epoch = 1
    /// Invites made (by id): who made them, their proof key; and which installation each was used by.
    var invites: [String: Invite] = [:]
    var used: [String: String] = [:]

    /// The roster from each installation's statements (verified as its own: `MembersFile.read`), starting at `founder`.
    init(statements: [String: [MemberStatement]], founder: String, founderKey: String) {
        var limits: [String: Int] = [:]
        // Removals can cut a remover's own statements short: worked out again until nothing changes (a few rounds).
        for _ in 0..<8 {
            let next = Self.admit(statements, limits: limits, founder: founder, founderKey: founderKey)
            var removed: [String: Removal] = [:]
            var epoch = 1
            for (writer, said) in statements where next.members[writer] != nil {
                for statement in said.prefix(limits[writer] ?? .max) where statement.kind == .remove {
                    guard let target = statement.installation, target != writer else { continue }
                    let through = max(0, statement.through ?? 0), count = max(0, statement.statements ?? 0)
                    let held = removed[target]
                    removed[target] = Removal(through: min(held?.through ?? .max, through), statements: min(held?.statements ?? .max, count))
                    epoch = max(epoch, min(statement.epoch ?? 1, 1 << 40))
                }
            }
            let newLimits = removed.mapValues(\.statements)
            self = next
            for target in removed.keys {
                former[target] = members[target]
                members[target] = nil
            }
            self.removed = removed
            self.epoch = epoch
            if newLimits == limits { return }
            limits = newLimits
        }
    }

    private init() {}

    /// A roster as worked out, with what it was worked out from (`SyncWorker.membership`): kept in memory, and in the
    /// database (`cacheMark`, `fromMark`), so the next sync, in this process or the next, opens no file while nothing
    /// changed.
    struct Cached: Sendable {
        var fingerprint: [String]
        var roster: Roster
    }

    static let cacheMark = "sync.roster", fromMark = "sync.roster.from"

    /// Everyone admitted (before removals), each installation's statements cut at `limits`.
    private static func admit(_ statements: [String: [MemberStatement]], limits: [String: Int], founder: String, founderKey: String) -> Roster {
        var roster = Roster()
        func member(_ statement: MemberStatement, _ writer: String) -> Member? {
            guard statement.installation == writer, let key = statement.key.flatMap({ Hex.bytes($0) }), key.count == Ed25519.publicKeyBytes,
                  let agreement = statement.agreement.flatMap({ Hex.bytes($0) }), agreement.count == Sealing.keyBytes else { return nil }
            return Member(installation: writer, key: key, agreement: agreement, name: String((statement.name ?? "").prefix(64)))
        }
        if let first = statements[founder]?.first, first.kind == .found, first.key == founderKey, let founding = member(first, founder) {
            roster.members[founder] = founding
        }
        var changed = true
        while changed {
            changed = false
            // The invites of the members so far.
            for (writer, said) in statements where roster.members[writer] != nil {
                for statement in said.prefix(limits[writer] ?? .max) where statement.kind == .invite {
                    guard let id = statement.invite, let proof = statement.proof.flatMap({ Hex.bytes($0) }), roster.invites[id] == nil else { continue }
                    roster.invites[id] = Invite(by: writer, proof: proof)
                }
            }
            // Each invite admits one device: of those that claim it with a good proof, the lowest id.
            for writer in statements.keys.sorted() where roster.members[writer] == nil {
                guard let first = statements[writer]?.first, let candidate = member(first, writer) else { continue }
                switch first.kind {
                case .join:
                    guard let id = first.invite, let invite = roster.invites[id], roster.used[id] == nil || roster.used[id] == writer,
                          let key = first.key, let agreement = first.agreement,
                          (try? MemberStatement.joinProof(proofKey: invite.proof, installation: writer, key: key, agreement: agreement)) == first.proof
                    else { continue }
                    roster.used[id] = writer
                case .successor:
                    guard let old = first.of.flatMap({ roster.members[$0] }), let vouch = first.vouch.flatMap({ Hex.bytes($0) }),
                          let key = first.key, let agreement = first.agreement,
                          Ed25519.isValid(vouch, of: MemberStatement.vouched(installation: writer, key: key, agreement: agreement), publicKey: old.key)
                    else { continue }
                default:
                    continue
                }
                roster.members[writer] = candidate
                changed = true
            }
        }
        return roster
    }
}

/// The files membership travels in, in each installation's own folder: `members` (its statements, signed by its key
/// and sealed under a folder key) and `keys` (the folder keys it hands on, each sealed to one member's X25519 key).
enum MembersFile {
    static let members = "members", keys = "keys"
    static let sizeLimit = 1_048_576
    static let signatureContext = Array("trend members\n".utf8)
    static let keysContext = Array("trend keys\n".utf8)

    /// The statements as the file's plaintext: a line of JSON each, then the signature of every byte before it.
    static func bytes(_ statements: [MemberStatement], seed: [UInt8]) throws -> [UInt8] {
        try signed(statements, context: signatureContext, seed: seed)
    }

    /// The statements of a `members` file's plaintext, when they are its installation's: signed by the key its first
    /// statement names for it. (Whether that statement admits it is the roster's to say.)
    static func statements(_ plaintext: [UInt8], installation: String) -> [MemberStatement]? {
        // The key the file is checked by is the one its own first statement names.
        guard let (lines, _) = signedLines(plaintext), let first = lines.first.flatMap({ try? JSONDecoder().decode(MemberStatement.self, from: Data($0)) }),
              first.installation == installation, let key = first.key.flatMap({ Hex.bytes($0) }), key.count == Ed25519.publicKeyBytes
        else { return nil }
        return items(plaintext, context: signatureContext, key: key)
    }

    /// A key handed on: its epoch, sealed to one member (`KeyBox`), with a hint of whose key it was sealed to (the
    /// first 4 bytes of a hash of it: a reader tries only its own, and the hint names no one).
    struct Box: Codable, Equatable {
        var epoch: Int
        var hint: String
        var box: String
    }

    static func hint(_ agreementPublicKey: [UInt8]) -> String {
        String(((try? ContentHash.sha256(Data(agreementPublicKey))) ?? "").prefix(8))
    }

    /// A `keys` file's bytes: a line a box, then the writer's signature.
    static func keysBytes(_ boxes: [Box], seed: [UInt8]) throws -> [UInt8] {
        try signed(boxes, context: keysContext, seed: seed)
    }

    /// The boxes of a `keys` file, when `key` signed it.
    static func boxes(_ bytes: [UInt8], key: [UInt8]) -> [Box]? {
        items(bytes, context: keysContext, key: key)
    }

    /// Items as a file's bytes: a line of JSON each, then the signature (under `context`) of every byte before it.
    private static func signed<Item: Encodable>(_ items: [Item], context: [UInt8], seed: [UInt8]) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var body: [UInt8] = []
        for item in items { body += try encoder.encode(item) + [0x0A] }
        let signature = try Ed25519.sign(context + body, seed: seed)
        return body + Array("{\"signature\":\"\(Hex.string(signature))\"}\n".utf8)
    }

    /// The items of a file `signed` wrote, when `key` signed it under `context` and every line reads.
    private static func items<Item: Decodable>(_ bytes: [UInt8], context: [UInt8], key: [UInt8]) -> [Item]? {
        guard let (lines, signature) = signedLines(bytes),
              Ed25519.isValid(signature, of: context + Array(bytes.prefix(bytes.count - signatureLineBytes)), publicKey: key) else { return nil }
        let decoder = JSONDecoder()
        let items = lines.compactMap { try? decoder.decode(Item.self, from: Data($0)) }
        return items.count == lines.count ? items : nil
    }

    /// `{"signature":"<128 hex>"}\n`
    private static let signatureLineBytes = 14 + 128 + 3

    private static func signedLines(_ bytes: [UInt8]) -> (lines: [ArraySlice<UInt8>], signature: [UInt8])? {
        guard bytes.count >= signatureLineBytes, bytes.last == 0x0A, bytes.count <= sizeLimit else { return nil }
        let line = String(decoding: bytes.suffix(signatureLineBytes).dropLast(), as: UTF8.self)
        let prefix = #"{"signature":""#, suffix = #""}"#
        guard line.hasPrefix(prefix), line.hasSuffix(suffix), let signature = Hex.bytes(line.dropFirst(prefix.count).dropLast(suffix.count)),
              signature.count == Ed25519.signatureBytes else { return nil }
        let body = bytes.prefix(bytes.count - signatureLineBytes)
        guard body.isEmpty || body.last == 0x0A else { return nil }
        return (body.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast().map { $0 }, signature)
    }
}
