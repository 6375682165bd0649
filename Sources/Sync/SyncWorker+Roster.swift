import Cryptography
import Foundation
import Storage

/// Who the members of a private folder are (DESIGN §11), worked out from their files, and kept while nothing it
/// came from changes.
extension SyncWorker {
    /// The roster of the folder, the keys handed to this installation taken, a key made where a removal calls for one
    /// this installation lacks, and its own files brought up to date: its statements, the keys it hands on to each
    /// member, its invites (a used one goes). Read again only when a member's files changed.
    func membership(root: SafeFolder, files: FolderFiles) throws -> (FolderFiles, Roster) {
        guard var secrets = try files.secrets else { return (files, Roster.empty) }
        let installation = secrets.installation
        // Most syncs find the roster as the last one left it: no member's files and no secret changed since.
        if let roster = try keptRoster(matching: try fingerprint(root, folder: secrets.folder)) { return (files, roster) }
        let before = secrets
        var roster = Roster.empty
        var unreadable: [String] = []
        // A member that made a new key (at a removal) seals its own `members` file under it: it is known by the roster
        // this installation last worked out until that file opens, so the key it hands on is taken from its `keys` file.
        let previous = try lastRoster()
        for _ in 0..<4 {
            (roster, unreadable) = try readRoster(root, secrets: secrets)
            guard try takeKeys(root, roster: roster, known: previous, into: &secrets) else { break }
        }
        guard roster.members[installation] != nil else {
            if roster.removed[installation] != nil { throw SyncError.removed }
            throw SyncError.notAdmitted(unreadable: unreadable.count)
        }
        // A removal made a key this installation does not hold yet: it makes its own of that epoch, sealed to the members.
        if (secrets.current?.epoch ?? 0) < roster.epoch { _ = secrets.add(try Sealing.randomBytes(Sealing.keyBytes), epoch: roster.epoch) }
        // A removal made elsewhere, learned of now: while it was made, another member may have sealed the newest key to
        // the device it took out (two removals at once, each sealing its new key to the other's removed device). A key
        // of the next epoch, sealed to the members as they stand now, is the one written with from here on.
        let removed = roster.removed.keys.sorted()
        if let known = secrets.removalsKnown, !Set(removed).isSubset(of: known) {
            _ = secrets.add(try Sealing.randomBytes(Sealing.keyBytes), epoch: max(secrets.current?.epoch ?? 1, roster.epoch) + 1)
        }
        secrets.removalsKnown = removed
        let own = try root.subfolder(installation, create: true)
        // Invites: a used one goes; the others carry every key held.
        var pending: [String] = []
        for text in secrets.invites {
            guard let secret = Hex.bytes(text) else { continue }
            let code = InviteCode(secret: secret)
            if roster.used[try code.id()] != nil {
                own.remove(try code.fileName)
            } else {
                pending.append(text)
                if secrets.keys != before.keys { try writeInvite(code, secrets: secrets, in: own) }
            }
        }
        secrets.invites = pending
        try grant(secrets: &secrets, roster: roster, in: own)
        if secrets != before { try secretsFile.save(secrets) }
        try publish(secrets, root: root)
        let saved = secretsFile.read() ?? secrets
        try keep(roster, fingerprint: try fingerprint(root, folder: saved.folder))
        return (FolderFiles(secrets: saved), roster)
    }

    /// Whether the roster stands as the last sync worked it out, in this process or another: nothing it came from
    /// changed. The files' sizes and times alone say so, so a sync with nothing new opens no file and loads no cipher.
    func rosterUnchanged(_ root: SafeFolder, folder: String) throws -> Bool {
        let fingerprint = try fingerprint(root, folder: folder)
        if let cached = rosterCache, cached.fingerprint == fingerprint { return true }
        return try store.read { try SyncLedger.meta(Roster.fromMark, in: $0) } == fingerprint.joined(separator: "\n")
    }

    /// The roster kept by the last sync, when it was worked out from what `fingerprint` describes (none when unreadable:
    /// it is worked out again).
    private func keptRoster(matching fingerprint: [String]) throws -> Roster? {
        if let cached = rosterCache, cached.fingerprint == fingerprint { return cached.roster }
        let (from, text) = try store.read { (try SyncLedger.meta(Roster.fromMark, in: $0), try SyncLedger.meta(Roster.cacheMark, in: $0)) }
        guard from == fingerprint.joined(separator: "\n"), let text,
              let roster = try? JSONDecoder().decode(Roster.self, from: Data(text.utf8)) else { return nil }
        rosterCache = Roster.Cached(fingerprint: fingerprint, roster: roster)
        return roster
    }

    /// The roster this installation last worked out, whatever changed since (none when there is none or it is unreadable).
    private func lastRoster() throws -> Roster? {
        if let cached = rosterCache { return cached.roster }
        guard let text = try store.read({ try SyncLedger.meta(Roster.cacheMark, in: $0) }) else { return nil }
        return try? JSONDecoder().decode(Roster.self, from: Data(text.utf8))
    }

    /// Keeps the roster just worked out, in memory and in the database, with what it was worked out from.
    private func keep(_ roster: Roster, fingerprint: [String]) throws {
        rosterCache = Roster.Cached(fingerprint: fingerprint, roster: roster)
        let text = String(decoding: try JSONEncoder().encode(roster), as: UTF8.self)
        try store.write(notifying: false) { connection in
            try SyncLedger.setMeta(Roster.fromMark, fingerprint.joined(separator: "\n"), in: connection)
            try SyncLedger.setMeta(Roster.cacheMark, text, in: connection)
        }
    }

    /// What the roster is worked out from: the folder, the secrets, and each installation's `members` and `keys`
    /// files, by size and time. A change to any reads it again.
    private func fingerprint(_ root: SafeFolder, folder: String) throws -> [String] {
        var found = [folder, secretsFile.stamp]
        for name in try root.names().sorted() where SyncSegment.isInstallationName(name) && root.entry(name) == .folder {
            guard let folder = try? root.subfolder(name, create: false) else { continue }  // Gone since it was listed.
            for file in [MembersFile.members, MembersFile.keys] {
                if let status = folder.fileStatus(file) { found.append("\(name)/\(file):\(status.size):\(status.modifiedNs)") }
            }
        }
        return found
    }

    /// The roster as the statements this installation can open say it, and the installations whose statements it
    /// could not open (sealed under a key it does not hold yet).
    func readRoster(_ root: SafeFolder, secrets: FolderSecrets) throws -> (Roster, [String]) {
        let files = FolderFiles(secrets: secrets)
        var statements: [String: [MemberStatement]] = [secrets.installation: secrets.statements]
        var unreadable: [String] = []
        for name in try root.names() where name != secrets.installation && SyncSegment.isInstallationName(name) && root.entry(name) == .folder {
            guard let folder = try? root.subfolder(name, create: false), folder.entry(MembersFile.members) == .file else { continue }
            guard let data = try? files.open(MembersFile.members, in: folder, installation: name, limit: MembersFile.sizeLimit),
                  let said = MembersFile.statements(data, installation: name) else {
                unreadable.append(name)
                continue
            }
            statements[name] = said
        }
        return (Roster(statements: statements, founder: secrets.founder, founderKey: secrets.founderKey), unreadable)
    }

    /// Takes the folder keys the members (and the founder) sealed to this installation; whether any was new.
    private func takeKeys(_ root: SafeFolder, roster: Roster, known previous: Roster?, into secrets: inout FolderSecrets) throws -> Bool {
        let agreement = secrets.agreementKey
        let hint = MembersFile.hint(try secrets.agreementPublicKey())
        var signers = roster.members.mapValues(\.key)
        for (installation, member) in previous?.members ?? [:] where signers[installation] == nil && roster.removed[installation] == nil {
            signers[installation] = member.key
        }
        if signers[secrets.founder] == nil, let key = Hex.bytes(secrets.founderKey), roster.removed[secrets.founder] == nil {
            signers[secrets.founder] = key
        }
        var gained = false
        for (writer, key) in signers where writer != secrets.installation {
            guard root.entry(writer) == .folder, let folder = try? root.subfolder(writer, create: false), folder.entry(MembersFile.keys) == .file,
                  let data = try? folder.read(MembersFile.keys, limit: MembersFile.sizeLimit),
                  let boxes = MembersFile.boxes(Array(data), key: key) else { continue }
            for box in boxes where box.hint == hint {
                guard let sealed = Hex.bytes(box.box), let folderKey = KeyBox.open(sealed, privateKey: agreement), box.epoch >= 1 else { continue }
                if secrets.add(folderKey, epoch: min(box.epoch, 1 << 40)) { gained = true }
            }
        }
        return gained
    }

    /// Seals every folder key this installation holds to every other member, in its `keys` file, when a member or a
    /// key is new since it last wrote it (a removed device is sealed nothing more).
    private func grant(secrets: inout FolderSecrets, roster: Roster, in own: SafeFolder) throws {
        let members = roster.members.values.filter { $0.installation != secrets.installation }.sorted { $0.installation < $1.installation }
        let wanted = members.flatMap { member in secrets.keys.map { "\(member.installation):\(Hex.string((try? SealedStream.keyID(of: $0.bytes)) ?? []))" } }
        guard wanted != (secrets.granted ?? []) || (own.entry(MembersFile.keys) != .file && !wanted.isEmpty) else { return }
        var boxes: [MembersFile.Box] = []
        for member in members {
            for key in secrets.keys {
                boxes.append(MembersFile.Box(epoch: key.epoch, hint: MembersFile.hint(member.agreement),
                                             box: Hex.string(try KeyBox.seal(key.bytes, to: member.agreement))))
            }
        }
        let file = try own.pending(MembersFile.keys)
        try MembersFile.keysBytes(boxes, seed: try signer().seed).withUnsafeBytes { try file.append($0) }
        try file.commit()
        secrets.granted = wanted
    }
}
