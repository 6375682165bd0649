import Cryptography
import Foundation
import Storage

/// Private sync (DESIGN §11): who belongs to the folder, the keys they share, and the commands that change it
/// (`sync invite`, `sync join`, `sync remove`, `sync private`). The statements and keys travel in each member's own
/// folder; the secrets stay in the data directory (`FolderSecretsFile`).
extension SyncWorker {
    /// The empty file a private folder's `trend/` holds (`PrivateSyncMarker`).
    static let privateMarker = PrivateSyncMarker.name

    /// Whether the folder is private: its marker, or a member's statements in any installation's folder.
    static func looksPrivate(_ root: SafeFolder) -> Bool {
        if root.entry(privateMarker) == .file { return true }
        return ((try? root.names()) ?? []).contains { name in
            SyncSegment.isInstallationName(name) && root.entry(name) == .folder
                && (try? root.subfolder(name, create: false))?.entry(MembersFile.members) == .file
        }
    }

    /// How this installation reads and writes the folder: sealed when it is a member of a private folder, plain in a
    /// plain one. A private folder this installation is not a member of is not touched (`SyncError.notMember`).
    func access(root: SafeFolder, folder: URL) throws -> FolderFiles {
        try accessAndRoster(root: root, folder: folder).files
    }

    /// `access`, and whether the roster stands as the last sync kept it (`rosterUnchanged`).
    func accessAndRoster(root: SafeFolder, folder: URL) throws -> (files: FolderFiles, rosterKept: Bool) {
        // A member as the last sync found it, nothing changed since: its secrets are read only if a file is.
        if try rosterUnchanged(root, folder: folder.standardizedFileURL.path) { return (FolderFiles(secretsIn: secretsFile), true) }
        if let secrets = secretsFile.read(for: folder) {
            return (FolderFiles(secrets: secrets), false)
        }
        guard !Self.looksPrivate(root) else { throw SyncError.notMember }
        return (FolderFiles(secrets: nil), false)
    }

    /// `set sync-folder`: a folder empty of others' files becomes private with this device its founder.
    func adopt(folder: URL, device: String) throws -> SyncFolderState {
        try store.exclusively("sync") {
            let root = try SafeFolder.open(folder, ["trend"], create: true)
            if secretsFile.read(for: folder) != nil { return .member }
            if Self.looksPrivate(root) { return .privateNotMember }
            let installation = try currentInstallation()
            let others = try root.names().contains { $0 != installation && SyncSegment.isInstallationName($0) && root.entry($0) == .folder }
            if others { return .plain }
            try found(root: root, folder: folder, installation: installation, device: device)
            return .madePrivate
        }
    }

    /// `sync private`: a plain folder (Trend 0.3) becomes private, this device its founder; its changes go out sealed
    /// from now on, starting with a checkpoint of every row, and an invite's code for the others.
    func makePrivate(folder: URL, device: String) throws -> InviteCode {
        try store.exclusively("sync") {
            let root = try SafeFolder.open(folder, ["trend"], create: true)
            if secretsFile.read(for: folder) != nil { throw SyncError.alreadyPrivate }
            guard !Self.looksPrivate(root) else { throw SyncError.notMember }
            let installation = try currentInstallation()
            try found(root: root, folder: folder, installation: installation, device: device)
            return try invite(root: root)
        }
    }

    private func currentInstallation() throws -> String {
        try store.read { try $0.storedInstallationID() } ?? store.installationID()
    }

    private func found(root: SafeFolder, folder: URL, installation: String, device: String) throws {
        let signer = try signer()
        let agreement = try Sealing.newAgreementKey()
        let key = Hex.string(signer.publicKey)
        var secrets = FolderSecrets(folder: folder.standardizedFileURL.path, installation: installation, founder: installation, founderKey: key,
                                    agreement: Hex.string(agreement), keys: [], statements: [])
        _ = secrets.add(try Sealing.randomBytes(Sealing.keyBytes), epoch: 1)
        secrets.statements = [MemberStatement(kind: .found, installation: installation, key: key,
                                              agreement: Hex.string(try Sealing.agreementPublicKey(of: agreement)), name: device)]
        try moveIn(secrets, root: root)
    }

    /// Becomes a member: the secrets kept, the marker and this installation's statements written, and its next sync
    /// sends a sealed checkpoint of every row (so a device joining later needs none of its plain files).
    private func moveIn(_ secrets: FolderSecrets, root: SafeFolder) throws {
        try secretsFile.save(secrets)
        if root.entry(Self.privateMarker) == .missing {
            let marker = try root.pending(Self.privateMarker)
            try marker.commit()
        }
        try store.write(notifying: false) { connection in
            try SyncLedger.setMeta(Self.sealedCheckpointMark, "due", in: connection)
            try SyncLedger.setMeta(Self.plainLeftMark, "1", in: connection)
        }
        try publish(secrets, root: root, force: true)
    }

    /// Set when this installation moved into a private folder: its next sync writes a sealed checkpoint, and its plain
    /// files go once every device it has seen is a member.
    static let sealedCheckpointMark = "sync.sealed-checkpoint"

    /// Set while this installation's folder may still hold files it wrote in plain, before the folder went private.
    static let plainLeftMark = "sync.plain-left"

    /// This installation's plain files (segments, checkpoints, notices written before it moved in), once its sealed
    /// checkpoint covers them and every device it has seen is a member (or was removed): none needs them then. A
    /// notice still to be heard is written again, sealed.
    func removePlainFiles(_ own: SafeFolder, installation: String, roster: Roster) throws {
        let (left, due, peers) = try store.read { connection in
            (try SyncLedger.meta(Self.plainLeftMark, in: connection) != nil, try SyncLedger.meta(Self.sealedCheckpointMark, in: connection) != nil,
             try connection.query("SELECT installation FROM sync_peers") { $0.text(0) })
        }
        guard left, !due, peers.allSatisfy({ roster.members[$0] != nil || roster.removed[$0] != nil }) else { return }
        var removed: [String] = []
        for name in try own.names() {
            let notice = SyncNotice.Kind.allCases.first { $0.fileName == name }
            guard SyncSegment.range(ofName: name) != nil || notice != nil else { continue }
            var head: [UInt8] = []
            try own.forEachChunk(of: name, in: 0..<min(SealedStream.magic.count, own.fileStatus(name)?.size ?? 0)) { head += $0 }
            guard !SealedStream.looksSealed(head) else { continue }
            if let notice, let data = try? own.read(name, limit: SyncNotice.sizeLimit) {  // Unreadable: nothing to keep.
                try files.replace(notice.fileName, in: own, installation: installation, with: Array(data))
                continue
            }
            own.remove(name)
            removed.append(name)
        }
        if !removed.isEmpty { try forgetWritten(removed) }
        try store.write(notifying: false) { try $0.run("DELETE FROM meta WHERE key = ?", [.text(Self.plainLeftMark)]) }
    }

    /// Writes this installation's `members` file when its statements or the key it is sealed under changed.
    func publish(_ secrets: FolderSecrets, root: SafeFolder, force: Bool = false) throws {
        let stamp = "\(secrets.statements.count):\(secrets.current.map { Hex.string((try? SealedStream.keyID(of: $0.bytes)) ?? []) } ?? "")"
        let own = try root.subfolder(secrets.installation, create: true)
        guard force || secrets.published != stamp || own.entry(MembersFile.members) != .file else { return }
        let files = FolderFiles(secrets: secrets)
        try files.replace(MembersFile.members, in: own, installation: secrets.installation,
                          with: try MembersFile.bytes(secrets.statements, seed: try signer().seed))
        var saved = secrets
        saved.published = stamp
        try secretsFile.save(saved)
    }

    // MARK: Invites, joining, removing

    /// `sync invite`: a code that lets one more device join.
    func invite(folder: URL) throws -> InviteCode {
        try store.exclusively("sync") {
            let root = try SafeFolder.open(folder, ["trend"], create: false)
            guard secretsFile.read(for: folder) != nil else {
                throw Self.looksPrivate(root) ? SyncError.notMember : SyncError.notPrivate
            }
            return try invite(root: root)
        }
    }

    private func invite(root: SafeFolder) throws -> InviteCode {
        guard var secrets = secretsFile.read() else { throw SyncError.notPrivate }
        let code = try InviteCode.make()
        let own = try root.subfolder(secrets.installation, create: true)
        try writeInvite(code, secrets: secrets, in: own)
        secrets.statements.append(MemberStatement(kind: .invite, invite: try code.id(), proof: Hex.string(try code.proofKey())))
        secrets.invites.append(Hex.string(code.secret))
        try secretsFile.save(secrets)
        try publish(secrets, root: root)
        return code
    }

    func writeInvite(_ code: InviteCode, secrets: FolderSecrets, in own: SafeFolder) throws {
        let content = InviteContent(founder: secrets.founder, founderKey: secrets.founderKey, inviter: secrets.installation, keys: secrets.keys)
        let name = try code.fileName
        let sealed = try SealedStream.seal(Array(try JSONEncoder().encode(content)), folderKey: try code.fileKey(),
                                           associated: FolderFiles.associated(secrets.installation, name))
        let file = try own.pending(name)
        try sealed.withUnsafeBytes { try file.append($0) }
        try file.commit()
    }

    /// `sync join CODE`: this installation becomes a member by the invite the code opens. A code that opens no
    /// invite in the folder, or one another device already used, is refused, and nothing changes.
    func join(folder: URL, code: InviteCode, device: String) throws {
        try store.exclusively("sync") {
            let root = try SafeFolder.open(folder, ["trend"], create: false)
            if secretsFile.read(for: folder) != nil { throw SyncError.alreadyMember }
            let name = try code.fileName
            var found: (inviter: String, content: InviteContent)?
            for peer in try root.names() where SyncSegment.isInstallationName(peer) && root.entry(peer) == .folder {
                guard let other = try? root.subfolder(peer, create: false), other.entry(name) == .file,
                      let data = try? other.read(name, limit: MembersFile.sizeLimit),
                      let opened = try? SealedStream.open(Array(data), folderKey: try code.fileKey(), associated: FolderFiles.associated(peer, name)),
                      let content = try? JSONDecoder().decode(InviteContent.self, from: Data(opened)), content.inviter == peer else { continue }
                found = (peer, content)
            }
            guard let found else { throw SyncError.noInvite }
            let installation = try currentInstallation()
            let signer = try signer()
            let agreement = try Sealing.newAgreementKey()
            let key = Hex.string(signer.publicKey), share = Hex.string(try Sealing.agreementPublicKey(of: agreement))
            var secrets = FolderSecrets(folder: folder.standardizedFileURL.path, installation: installation, founder: found.content.founder,
                                        founderKey: found.content.founderKey, agreement: Hex.string(agreement), keys: [], statements: [])
            for held in found.content.keys { _ = secrets.add(held.bytes, epoch: held.epoch) }
            // The invite must be a member's, and not used by another device.
            let (roster, _) = try readRoster(root, secrets: secrets)
            let id = try code.id()
            guard roster.invites[id]?.by == found.inviter, roster.members[found.inviter] != nil else { throw SyncError.noInvite }
            if let user = roster.used[id], user != installation { throw SyncError.codeUsed }
            secrets.statements = [MemberStatement(kind: .join, installation: installation, key: key, agreement: share, name: device, invite: id,
                                                  proof: try MemberStatement.joinProof(proofKey: try code.proofKey(), installation: installation,
                                                                                       key: key, agreement: share))]
            try moveIn(secrets, root: root)
        }
    }

    /// The members, as this installation's roster has them (for `sync devices`).
    func members(folder: URL, device: String) throws -> (installation: String, members: [Member]) {
        try store.exclusively("sync") {
            let root = try SafeFolder.open(folder, ["trend"], create: false)
            let files = try access(root: root, folder: folder)
            guard files.isPrivate else { throw SyncError.notPrivate }
            let (_, roster) = try membership(root: root, files: files)
            let installation = try files.secrets?.installation ?? ""
            return (installation, try named(roster, installation: installation, device: device))
        }
    }

    /// The members, each named as it last named itself: in its files' headers (this device: now), else as it joined.
    private func named(_ roster: Roster, installation: String, device: String) throws -> [Member] {
        let named = Dictionary(try store.read { try Self.peerRows(in: $0) }.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        let members = roster.members.values.map { member in
            let name = member.installation == installation ? device : named[member.installation].flatMap { $0.isEmpty ? nil : $0 } ?? member.name
            return Member(installation: member.installation, key: member.key, agreement: member.agreement, name: name)
        }
        return members.sorted { ($0.name, $0.installation) < ($1.name, $1.installation) }
    }

    /// `sync remove NAME`: the member goes, and a new folder key is made and sealed to the others only, so it reads
    /// nothing written from now on; its changes after what was applied here count for nothing anywhere.
    func remove(folder: URL, member name: String, device: String) throws -> Member {
        try store.exclusively("sync") {
            let root = try SafeFolder.open(folder, ["trend"], create: false)
            let files = try access(root: root, folder: folder)
            guard files.isPrivate else { throw SyncError.notPrivate }
            let (_, roster) = try membership(root: root, files: files)
            guard var secrets = secretsFile.read() else { throw SyncError.notPrivate }
            let typed = name.lowercased()
            let matches = try named(roster, installation: secrets.installation, device: device).filter { member in
                member.name.lowercased() == typed || (typed.count >= 4 && member.installation.hasPrefix(typed))
            }
            guard matches.count == 1, let target = matches.first else {
                throw matches.isEmpty ? SyncError.noSuchMember(name) : SyncError.ambiguousMember(name)
            }
            guard target.installation != secrets.installation else { throw SyncError.cannotRemoveSelf }
            let applied = try store.read { connection in
                try connection.scalarInt("SELECT applied FROM sync_peers WHERE installation = ?", [.text(target.installation)]) ?? 0
            }
            let seen = readStatementCount(root, installation: target.installation, secrets: secrets) ?? 0
            let epoch = max(roster.epoch, secrets.keys.map(\.epoch).max() ?? 1) + 1
            _ = secrets.add(try Sealing.randomBytes(Sealing.keyBytes), epoch: epoch)
            secrets.statements.append(MemberStatement(kind: .remove, installation: target.installation, through: applied, statements: seen, epoch: epoch))
            // This removal's own key is new: it needs no other.
            secrets.removalsKnown = (secrets.removalsKnown ?? roster.removed.keys.sorted()) + [target.installation]
            try secretsFile.save(secrets)
            rosterCache = nil
            _ = try membership(root: root, files: FolderFiles(secrets: secrets))
            return target
        }
    }

    private func readStatementCount(_ root: SafeFolder, installation: String, secrets: FolderSecrets) -> Int? {
        guard let folder = try? root.subfolder(installation, create: false),  // Gone: none of its statements seen.
              let data = try? FolderFiles(secrets: secrets).open(MembersFile.members, in: folder, installation: installation, limit: MembersFile.sizeLimit)
        else { return nil }
        return MembersFile.statements(data, installation: installation)?.count
    }
}

extension Roster {
    static var empty: Roster { Roster(statements: [:], founder: "", founderKey: "") }
}
