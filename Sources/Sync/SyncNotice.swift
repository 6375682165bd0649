import Cryptography
import Foundation
import Storage
import TextFormats
import Vocabulary

/// What one installation tells the others through its folder, beside its changes, signed by its key: that it left
/// the sync (`delete-all-data` on that device alone), or that it deleted all data on every device. A peer says it in
/// words once, and only when it is signed by the key it knows for that installation (DESIGN §8, Undo, restore and
/// delete on one device of many).
struct SyncNotice: Equatable {
    enum Kind: String, CaseIterable {
        /// The device left: its data stays on the others, and it reads and writes the folder no more.
        case left
        /// The device deleted all data on every device, with its changes through `through`.
        case deletedAll = "deleted-all"

        /// The file in the installation's folder that holds this kind's notice.
        var fileName: String { "\(rawValue).notice" }
    }

    let kind: Kind
    let installation: String
    let device: String
    /// When, by the writer's clock (ms).
    let atMs: Int
    /// The writer's last change the notice covers (its deletes, for `deletedAll`).
    let through: Int

    /// The most a notice file may hold.
    static let sizeLimit = 4_096
    static let signatureContext = Array("trend sync notice\n".utf8)

    /// The file's bytes: one line of JSON, then the Ed25519 signature of that line by `seed`'s key.
    func bytes(seed: [UInt8]) throws -> [UInt8] {
        var line = CanonicalJSON()
        line.raw("{\"trend-notice\":1,\"kind\":")
        line.string(kind.rawValue)
        line.raw(",\"installation\":")
        line.string(installation)
        line.raw(",\"device\":")
        line.string(device)
        line.raw(",\"at\":\(atMs),\"through\":\(through)}")
        let body = line.bytes
        let signature = try Ed25519.sign(Self.signatureContext + body, seed: seed)
        return body + Array("\n{\"signature\":\"\(Hex.string(signature))\"}\n".utf8)
    }

    /// The notice of `kind` in `folder`, when it is there, is of `installation`, and is signed by `key`; nil otherwise
    /// (a file anyone could have planted says nothing).
    static func read(_ kind: Kind, in folder: SafeFolder, installation: String, key: [UInt8]?, files: FolderFiles) -> SyncNotice? {
        guard let key, folder.entry(kind.fileName) == .file,
              let data = try? files.read(kind.fileName, in: folder, installation: installation, limit: sizeLimit) else { return nil }  // Unreadable: no notice.
        let lines = data.split(separator: 0x0A, omittingEmptySubsequences: false)
        guard lines.count >= 2, let body = lines.first, let fields = members(Array(body)),
              case let .string(signatureText)? = members(Array(lines[1]))?["signature"], let signature = Hex.bytes(signatureText),
              Ed25519.isValid(signature, of: signatureContext + Array(body), publicKey: key),
              fields["kind"] == .string(kind.rawValue), fields["installation"] == .string(installation),
              case let .number(at)? = fields["at"], case let .number(through)? = fields["through"],
              let atMs = Int(exactly: at), let last = Int(exactly: through), atMs >= 0, (0...SyncSegment.sequenceLimit).contains(last)
        else { return nil }
        var device = ""
        if case let .string(name)? = fields["device"] { device = String(name.prefix(64)) }
        return SyncNotice(kind: kind, installation: installation, device: device, atMs: atMs, through: last)
    }

    /// A line's members, when it is one flat JSON object of a few.
    private static func members(_ line: [UInt8]) -> [String: FlatJSON.Value]? {
        var members: [String: FlatJSON.Value] = [:]
        let flat = line.withUnsafeBytes { bytes in
            FlatJSON.object(bytes) { key, value in
                members[key] = value
                return members.count <= 16
            }
        }
        return flat ? members : nil
    }

    /// The device as a note names it: its name, or its id's first characters.
    var name: String { device.isEmpty ? String(installation.prefix(8)) : device }

    /// The day of the notice, as a note says it ("Sun 6 Dec").
    func day(in timeZone: TimeZone) -> String {
        DayNumber.spoken(LocalDays.shared(for: timeZone).day(of: Date(timeIntervalSince1970: Double(atMs) / 1000)))
    }
}
