import Cryptography
import Foundation
import Storage
import Vocabulary

/// A name in this installation's folder taken when it came to write it: another copy of it wrote there first.
struct NameTaken: Error {
    let name: String
    let first: Int
}

/// This installation's own files: signed with its key, linked into place only where the name is free, and
/// recorded, so a file in its folder that it did not write tells it was copied (DESIGN §8, Forks).
extension SyncWorker {
    /// This installation's Ed25519 key: its private seed (kept in `meta`, never in a snapshot, never in the sync
    /// folder) and its public key, made at its first sync.
    struct Signer {
        let seed: [UInt8]
        let publicKey: [UInt8]
    }

    /// Where the private key is kept.
    static let keyMark = "sync.key"
    /// Set once this installation records the files it writes (a data directory from before 0.3 adopts its own first).
    static let ledgerMark = "sync.ledger"

    func signer() throws -> Signer {
        if let seed = try store.read({ try SyncLedger.meta(Self.keyMark, in: $0) }).flatMap({ Hex.bytes($0) }), seed.count == Ed25519.seedBytes {
            return Signer(seed: seed, publicKey: try Ed25519.publicKey(ofSeed: seed))
        }
        let made = try Ed25519.newSeed()
        let seed = try store.write(notifying: false) { connection -> [UInt8] in
            // Another process may have made one meanwhile: the first kept stands.
            if let held = try SyncLedger.meta(Self.keyMark, in: connection).flatMap({ Hex.bytes($0) }), held.count == Ed25519.seedBytes { return held }
            try SyncLedger.setMeta(Self.keyMark, Hex.string(made), in: connection)
            return made
        }
        return Signer(seed: seed, publicKey: try Ed25519.publicKey(ofSeed: seed))
    }

    /// One of this device's files: written under a temporary name, the header (naming its key) saying `count`
    /// lines, then each line `lines` hands over and a newline, appended a megabyte at a time, then the signature
    /// of every byte before it, then linked into place under its own name, never over a file of that name
    /// (`NameTaken`), and recorded as this installation's. False, and nothing written, when the lines were not
    /// `count` (a file whose header disagrees would be refused anyway).
    func write(_ header: SyncSegment, count: Int, in own: SafeFolder, lines: ((String) throws -> Void) throws -> Void) throws -> Bool {
        let signer = try signer()
        var header = header
        header.key = signer.publicKey
        if !header.isCheckpoint, header.first > 1 {
            // The segment before, as this installation recorded writing it: the chain a reader follows back.
            header.previous = try store.read { connection in
                try connection.query("SELECT sha256 FROM sync_written WHERE last = ? AND name NOT LIKE 'checkpoint-%'",
                                     [.int(header.first - 1)]) { $0.text(0) }.first
            }.flatMap { Hex.bytes($0) }
        }
        let file = try files.pending(header.fileName, in: own, installation: header.installation)
        let digest = try ContentHash()
        func append(_ bytes: [UInt8]) throws {
            try bytes.withUnsafeBytes { try digest.update($0) }
            try file.append(bytes)
        }
        try append(header.bytes(count: count))
        var chunk: [UInt8] = []
        var written = 0
        try lines { line in
            chunk += Array(line.utf8)
            chunk.append(0x0A)
            written += 1
            if chunk.count > 1 << 20 {
                try append(chunk)
                chunk.removeAll(keepingCapacity: true)
            }
        }
        guard written == count else { return false }  // The temporary file goes with `file`.
        try append(chunk)
        let content = try digest.finishBytes()
        let signature = try Ed25519.sign(SyncSegment.signatureContext + content, seed: signer.seed)
        try file.append(Array("{\"signature\":\"\(Hex.string(signature))\"}\n".utf8))
        guard try file.commitNew() else { throw NameTaken(name: header.fileName, first: header.isCheckpoint ? header.last : header.first) }
        let status = own.fileStatus(header.fileName)
        try store.write(notifying: false) { connection in
            let clock = try ledger(header.installation).lastClock(in: connection)
            try connection.run("""
                INSERT OR REPLACE INTO sync_written(name, last, size, modified, sha256, ms, counter) VALUES(?, ?, ?, ?, ?, ?, ?)
                """, [.text(header.fileName), .int(header.last), .int(status?.size ?? -1), .int(status?.modifiedNs ?? -1),
                      .text(Hex.string(content)), .int(clock.ms), .int(clock.counter)])
            try SyncLedger.setMeta(Self.ledgerMark, "1", in: connection)
        }
        return true
    }

    /// Which key this installation's own files were found signed by: the seed itself (it sits beside it, in `keyMark`),
    /// so the check that it still is needs no cipher loaded. Checked once a key.
    static let keyCheckedMark = "sync.key.checked"

    /// Whether this installation can no longer sign as the key its peers pinned (DESIGN §8, Processes): its key is
    /// gone while it has written files, or files in its folder are signed by a key it no longer holds (a database
    /// restored by hand, a key removed). Then the first of its changes to send again under a new id and key, and
    /// the files of its folder that its peers refuse (signed by its new key under the old id), to remove; nil
    /// when it signs as before. The folder's headers are read once for each key, then the key is marked checked.
    func lostKey(root: SafeFolder, installation: String) throws -> (first: Int, refused: [String])? {
        let (seed, checked, written) = try store.read { connection in
            (try SyncLedger.meta(Self.keyMark, in: connection).flatMap { Hex.bytes($0) }, try SyncLedger.meta(Self.keyCheckedMark, in: connection),
             Int(try SyncLedger.meta(SyncLedger.Mark.written, in: connection) ?? "0") ?? 0)
        }
        guard let seed, seed.count == Ed25519.seedBytes else { return written > 0 ? (written + 1, []) : nil }
        guard checked != Hex.string(seed) else { return nil }
        let publicKey = try Ed25519.publicKey(ofSeed: seed)
        var ours: [(first: Int, name: String)] = [], other = false
        if root.entry(installation) == .folder {
            let own = try root.subfolder(installation, create: false)
            for name in try own.names() {
                guard let range = SyncSegment.range(ofName: name), !range.checkpoint,
                      let data = try? files.read(name, in: own, installation: installation, limit: SyncSegment.sizeLimit),  // Unreadable: it vouches for no key.
                      let key = SyncSegment.Reader.key(ofHeader: data, name: name, installation: installation) else { continue }
                if key == publicKey { ours.append((range.first, name)) } else { other = true }
            }
        }
        guard other else {
            try store.write(notifying: false) { try SyncLedger.setMeta(Self.keyCheckedMark, Hex.string(seed), in: $0) }
            return nil
        }
        return (ours.map(\.first).min() ?? written + 1, ours.map(\.name))
    }

    /// Forgets the record of files this installation removed from its folder.
    func forgetWritten(_ names: [String]) throws {
        try store.write(notifying: false) { connection in
            for name in names { try connection.run("DELETE FROM sync_written WHERE name = ?", [.text(name)]) }
        }
    }

    /// The SHA-256 of a file's bytes before its last line (its signature), as `write` records it; nil when it cannot be read.
    static func contentDigest(_ name: String, in folder: SafeFolder, installation: String, files: FolderFiles, limit: Int) -> String? {
        // Unreadable (or sealed under a key not held): not the file written.
        guard let data = try? files.read(name, in: folder, installation: installation, limit: limit) else { return nil }
        var end = data.count
        if end > 0, data[data.index(before: data.endIndex)] == 0x0A { end -= 1 }
        let body = data.prefix(end)
        let cut = body.lastIndex(of: 0x0A).map { $0 + 1 } ?? data.startIndex
        return try? ContentHash.sha256(data.prefix(upTo: cut))  // libcrypto missing: nothing to compare with.
    }

    /// Looks for files in this installation's own folder that it did not write: a copy of its data directory
    /// writing under the same id, or a file planted there. Found, it forks (`fork`). A data directory from
    /// before 0.3, which recorded nothing, takes the files it wrote (through its written mark) as its own first.
    func healFork(root: SafeFolder, installation: String, now: Date) throws -> (installation: String, note: String)? {
        guard root.entry(installation) == .folder else { return nil }
        let own = try root.subfolder(installation, create: false)
        let names = try own.names().filter { SyncSegment.range(ofName: $0) != nil }
        guard !names.isEmpty else { return nil }
        let (recorded, adopted, writtenMark) = try store.read { connection in
            let slots = names.map { _ in "?" }.joined(separator: ", ")
            let rows = try connection.query("SELECT name, size, modified, sha256 FROM sync_written WHERE name IN (\(slots))", names.map { .text($0) }) {
                ($0.text(0), (size: $0.int(1), modified: $0.int(2), sha: $0.text(3)))
            }
            return (Dictionary(rows, uniquingKeysWith: { first, _ in first }), try SyncLedger.meta(Self.ledgerMark, in: connection) != nil,
                    Int(try SyncLedger.meta(SyncLedger.Mark.written, in: connection) ?? "0") ?? 0)
        }
        var foreign: (name: String, first: Int)?
        var adopt: [(String, Int, (size: Int, modifiedNs: Int), String)] = []
        for name in names {
            guard let range = SyncSegment.range(ofName: name) else { continue }
            let limit = range.checkpoint ? SyncSegment.checkpointSizeLimit : SyncSegment.sizeLimit
            let first = range.checkpoint ? range.last : range.first
            var ours = false
            if let entry = recorded[name] {
                let status = own.fileStatus(name)
                ours = status.map { $0.size == entry.size && $0.modifiedNs == entry.modified } ?? false
                    || Self.contentDigest(name, in: own, installation: installation, files: files, limit: limit) == entry.sha
            } else if !adopted, range.last <= writtenMark, let status = own.fileStatus(name), let sha = Self.contentDigest(name, in: own, installation: installation, files: files, limit: limit) {
                ours = true
                adopt.append((name, range.last, status, sha))
            }
            if !ours, foreign.map({ first < $0.first }) ?? true { foreign = (name, first) }
        }
        if !adopted {
            try store.write(notifying: false) { connection in
                for (name, last, status, sha) in adopt {
                    try connection.run("INSERT OR REPLACE INTO sync_written(name, last, size, modified, sha256, ms, counter) VALUES(?, ?, ?, ?, ?, 0, 0)",
                                       [.text(name), .int(last), .int(status.size), .int(status.modifiedNs), .text(sha)])
                }
                try SyncLedger.setMeta(Self.ledgerMark, "1", in: connection)
            }
        }
        guard let foreign else { return nil }
        return try fork(installation: installation, now: now, foreignFirst: foreign.first,
                        why: Self.copied("\(foreign.name) in its folder was not written by it"))
    }

    /// This installation was copied (or its folder written by another): it takes a new id and key, in one
    /// transaction, and sends again under them, with the clocks they had, every change of its own past the
    /// last of its files that stands (its changes from `foreignFirst` on may have been replaced). The old id
    /// becomes a device like any other, read from there on, with its key pinned: no change of either copy is lost.
    /// What a fork says of a file in its folder that it did not write.
    static func copied(_ reason: String) -> String {
        "This installation's sync folder held a file it did not write (\(reason)): its data directory was copied, or the file was planted."
    }

    /// `why` is the sentence that opens the note, saying what made it fork.
    func fork(installation old: String, now: Date, foreignFirst: Int, why: String) throws -> (installation: String, note: String) {
        let oldSigner = try signer()
        let (oldKey, oldSeed) = (oldSigner.publicKey, oldSigner.seed)
        let fresh = UUID().uuidString.lowercased()
        let seed = try Ed25519.newSeed()
        let tables = store.schema.synced
        let ledger = self.ledger(fresh)
        let resent = try store.write(notifying: false) { connection -> Int in
            let floor = try connection.query("SELECT ms, counter FROM sync_written WHERE last < ? ORDER BY last DESC LIMIT 1", [.int(foreignFirst)]) {
                SyncClock(ms: $0.int(0), counter: $0.int(1), origin: old)
            }.first ?? SyncClock(ms: 0, counter: 0, origin: old)
            let written = Int(try SyncLedger.meta(SyncLedger.Mark.written, in: connection) ?? "0") ?? 0
            /// Whether a clock is one of this installation's own changes since the floor, to be sent again under the new id.
            func moves(_ clock: SyncClock) -> Bool { clock.origin == old && clock > floor }
            func moved(_ clock: SyncClock) -> SyncClock { moves(clock) ? SyncClock(ms: clock.ms, counter: clock.counter, origin: fresh) : clock }
            var keys: [(code: Int, k0: SQLValue, k1: SQLValue)] = []
            let rows = try connection.query("SELECT table_code, k0, k1, ms, counter, origin, clocks FROM sync_rows") {
                (code: $0.int(0), k0: $0.value(1) ?? .null, k1: $0.value(2) ?? .null, clock: SyncClock(ms: $0.int(3), counter: $0.int(4), origin: $0.text(5)),
                 clocks: $0.optionalText(6).flatMap(ColumnClocks.init(text:)) ?? ColumnClocks())
            }
            for row in rows {
                let columnsMove = row.clocks.byColumn.values.contains(where: moves)
                guard moves(row.clock) || columnsMove else { continue }
                var clocks = row.clocks
                for (column, clock) in row.clocks.byColumn { clocks[column] = moved(clock) }
                let clock = moved(row.clock)
                try connection.run("""
                    UPDATE sync_rows SET ms = ?, counter = ?, origin = ?, clocks = ? WHERE table_code = ? AND k0 = ? AND k1 = ?
                    """, [.int(clock.ms), .int(clock.counter), .text(clock.origin), clocks.isEmpty ? .null : .text(clocks.text),
                          .int(row.code), row.k0, row.k1])
                keys.append((row.code, row.k0, row.k1))
            }
            try connection.run("""
                UPDATE sync_adds SET origin = ? WHERE origin = ? AND (ms, counter) > (?, ?)
                """, [.text(fresh), .text(old), .int(floor.ms), .int(floor.counter)])
            // The lines again, as a checkpoint writes them: the rows that hold a version of this installation's since the floor.
            try connection.execute("DELETE FROM sync_out")
            var seq = 0
            for (code, k0, k1) in keys {
                guard let table = tables[code] else { continue }
                let key = table.table.key.count == 1 ? [k0] : [k0, k1]
                for line in try ledger.lines(of: table, key, in: connection, addsOnlyFrom: fresh) {
                    seq += 1
                    try connection.run("INSERT INTO sync_out(seq, line) VALUES(?, ?)", [.int(seq), .text(line)])
                }
            }
            try connection.run("UPDATE meta SET value = ? WHERE key = 'installationID'", [.text(fresh)])
            try SyncLedger.setMeta(Self.keyMark, Hex.string(seed), in: connection)
            try SyncLedger.setMeta("sync.seq", String(seq), in: connection)
            try SyncLedger.setMeta(SyncLedger.Mark.written, "0", in: connection)
            try SyncLedger.setMeta(SyncLedger.Mark.checkpoint, "0", in: connection)
            try connection.execute("DELETE FROM sync_written; UPDATE sync_peers SET seen_of_us = 0")
            try connection.run("""
                INSERT INTO sync_peers(installation, name, applied, key) VALUES(?, '', ?, ?)
                ON CONFLICT DO UPDATE SET applied = min(applied, excluded.applied), key = excluded.key, problem = NULL
                """, [.text(old), .int(max(0, min(foreignFirst - 1, written))), .text(Hex.string(oldKey))])
            return seq
        }
        try succeed(old: old, fresh: fresh, oldSeed: oldSeed, newSeed: seed)
        let note = why + " It now syncs as a new installation, \(fresh.prefix(8)), and sent \(counted(resent, "change")) "
            + "of its own again under it; the other copy goes on as \(old.prefix(8))."
        try store.write(notifying: false) { connection in
            try connection.run("INSERT INTO sync_notes(ms, text) VALUES(?, ?)", [.int(Int(now.timeIntervalSince1970 * 1000)), .text(note)])
        }
        return (fresh, note)
    }
}

extension SyncWorker {
    /// A fork in a private folder: the new installation is a member as the old one's successor, vouched for by the old
    /// key, with a new X25519 key. (A key that was lost vouches for nothing the others accept: that copy joins again.)
    func succeed(old: String, fresh: String, oldSeed: [UInt8], newSeed: [UInt8]) throws {
        guard var secrets = secretsFile.read(), secrets.installation == old else { return }
        let agreement = try Sealing.newAgreementKey()
        let key = Hex.string(try Ed25519.publicKey(ofSeed: newSeed)), share = Hex.string(try Sealing.agreementPublicKey(of: agreement))
        let vouch = Hex.string(try Ed25519.sign(MemberStatement.vouched(installation: fresh, key: key, agreement: share), seed: oldSeed))
        let name = secrets.statements.first?.name
        secrets.installation = fresh
        secrets.agreement = Hex.string(agreement)
        secrets.statements = [MemberStatement(kind: .successor, installation: fresh, key: key, agreement: share, name: name, of: old, vouch: vouch)]
        secrets.invites = []
        secrets.published = nil
        secrets.granted = nil
        try secretsFile.save(secrets)
        rosterCache = nil
        files = FolderFiles(secrets: secrets)
    }
}
