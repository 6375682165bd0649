import Foundation
import Storage
import Vocabulary

/// A file read from one device's folder: its changes to apply, in order, and what reading made ready of each.
struct PeerBatch: Sendable {
    let segment: SyncSegment
    var changes: [SyncChange]
    var ready: [SyncLedger.Ready]
}

/// The sync work, on the store's own thread: reading the other devices'
/// folders, one transaction that stamps this device's changes and merges
/// theirs, then this device's new segments written to its own folder.
actor SyncWorker {
    let store: LocalDataStore
    let ledger: @Sendable (String) -> SyncLedger
    /// How many of this device's changes since its last checkpoint make it write a new one.
    private let checkpointEvery: Int
    /// The most changes merged at once (`changesPerMerge`; fewer in tests, to merge a device's files in several steps).
    private let mergeLimit: Int
    /// This installation's membership of a private folder (DESIGN §11), in the data directory.
    let secretsFile: FolderSecretsFile
    /// How this sync reads and writes the folder's files: sealed in a private folder (set as each sync begins).
    var files = FolderFiles(secrets: nil)
    /// The roster as last read, and what it was read from: read again only when a member's files change.
    var rosterCache: Roster.Cached?

    init(store: LocalDataStore, checkpointEvery: Int = 5_000, changesPerMerge: Int = SyncWorker.changesPerMerge,
         timeZone: TimeZone = TimeZone(secondsFromGMT: 0) ?? .current) {
        self.store = store
        self.checkpointEvery = checkpointEvery
        mergeLimit = changesPerMerge
        secretsFile = FolderSecretsFile(directory: store.directory)
        let tables = store.schema.synced
        ledger = { SyncLedger(installation: $0, tables: tables, timeZone: timeZone) }
    }

    nonisolated var unownedExecutor: UnownedSerialExecutor { store.executor.asUnownedSerialExecutor() }

    /// The most changes merged at once: a device's files are read and merged a segment's worth at a time, so a
    /// history joining is never held whole (a million weigh-ins joining peaked at 1 GB read whole, 0.2 GB in
    /// 50,000s), and the next files are read while these are merged (a hundred thousand joining: 0.80 s at 137 MB
    /// in 50,000s one after the other; 0.66-0.68 s at 84-100 MB in 10,000s, reading beside merging).
    static let changesPerMerge = 10_000

    /// How far ahead of this device's clock a change may be (a day); a segment further ahead waits.
    static let aheadLimitMs = 86_400_000

    /// One sync: the other devices' files in, this installation's out. Processes on one data directory (the prompt,
    /// `-c`, the reminder watcher) sync one at a time, under the data directory's sync lock: reserving the next
    /// sequence number, writing the file and recording it as written are one step for them all, so none takes
    /// another's file for a copy of itself (DESIGN §8, Processes). A sync that waits finds the other's work done.
    func run(folder: URL, device: String, now: Date) throws -> SyncReport {
        try store.exclusively("sync") { try runAlone(folder: folder, device: device, now: now) }
    }

    private func runAlone(folder: URL, device: String, now: Date) throws -> SyncReport {
        let root = try SafeFolder.open(folder, ["trend"], create: true)
        // A private folder this installation is not a member of is neither read nor written.
        let kept: Bool
        (files, kept) = try accessAndRoster(root: root, folder: folder)
        var report = SyncReport()
        // A copy of this data directory (or a file planted in its folder) is found before anything is written.
        let started = try store.read { try $0.storedInstallationID() } ?? store.installationID()
        var installation = started
        if let forked = try healFork(root: root, installation: installation, now: now) {
            installation = forked.installation
            report.notes.append(forked.note)
        } else if let lost = try lostKey(root: root, installation: installation) {
            // Its peers refuse what it signs now: the files they refuse go, and their changes are sent again under a new id.
            if !lost.refused.isEmpty {
                let own = try root.subfolder(installation, create: false)
                for name in lost.refused { own.remove(name) }
            }
            let forked = try fork(installation: installation, now: now, foreignFirst: lost.first,
                                  why: "This installation can no longer sign as the key its other devices know (its key was lost or replaced).")
            installation = forked.installation
            report.notes.append(forked.note)
        }
        // In a private folder: who the members are (a fork took a new id, and made its membership again). When nothing
        // it is worked out from changed since the last sync, it is read only once a device has something new.
        var roster: Roster?
        let rosterKept = kept && installation == started
        if files.isPrivate, !rosterKept {
            let member: Roster
            (files, member) = try membership(root: root, files: installation == started ? files : try access(root: root, folder: folder))
            roster = member
        }
        func currentRoster() throws -> Roster? {
            if roster == nil, rosterKept { (files, roster) = try membership(root: root, files: files) }
            return roster
        }
        // What this device knows, in one read (most syncs find nothing to do): the devices seen, what it has to send.
        let (peers, outgoing) = try store.read { connection in (try Self.peerRows(in: connection), try Self.outgoing(in: connection)) }
        let stored = Dictionary(peers.compactMap { peer in peer.problem.map { (peer.id, $0) } }, uniquingKeysWith: { first, _ in first })
        var problems: [String: String] = [:]
        var available: [String: Int] = [:]
        let nowMs = Int(now.timeIntervalSince1970 * 1000)
        // What to read from each device, from the names in its folder alone: the files are read in the transaction,
        // a few at a time, so a long history joining is never held in memory whole.
        var plans: [PeerPlan] = []
        let known = Dictionary(peers.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        // What the devices told in notices (one left the sync, one deleted all data everywhere), not said here yet.
        var deletions: [String: SyncNotice] = [:]
        var departures: [SyncNotice] = []
        for peer in try root.names() where peer != installation && SyncSegment.isInstallationName(peer) && root.entry(peer) == .folder {
            // A member with nothing new as the roster last stood: nothing to read, so no roster to read either.
            if files.isPrivate, roster == nil, let row = known[peer], row.problem == nil, let quiet = try Self.quietPlan(peer, in: root, known: row) {
                available[peer] = quiet.available
                continue
            }
            // In a private folder the roster says whose files count, by which key, and how far.
            var pinned = known[peer]?.key, cap = Int.max
            if let roster = try currentRoster() {
                if let member = roster.members[peer] {
                    pinned = member.key
                } else if let former = roster.former[peer], let removed = roster.removed[peer] {
                    (pinned, cap) = (former.key, removed.through)
                } else {
                    if let stranger = try? root.subfolder(peer, create: false),  // Gone since it was listed: nothing to say.
                       try stranger.names().contains(where: { SyncSegment.range(ofName: $0) != nil }) {
                        let problem = "its files are not applied: it is not a member of this private folder"
                        problems[peer] = problem
                        report.problems.append("\(peer.prefix(8)): \(problem)")
                    }
                    continue
                }
            }
            do {
                let plan = try Self.plan(peer, in: root, known: known[peer], pinned: pinned, through: cap, files: files, problems: &report.problems)
                let (left, deletedAll) = try unsaidNotices(of: peer, in: plan.folder, key: pinned)
                if let left { departures.append(left) }
                if let deletedAll { deletions[peer] = deletedAll }
                available[peer] = plan.available
                if !plan.segments.isEmpty || !plan.checkpoints.isEmpty { plans.append(plan) }
            } catch {
                problems[peer] = "\(error)"
                report.problems.append("\(peer.prefix(8)): \(error); it is tried again at the next sync")
            }
        }
        // Whether this sync writes to the database, so the devices it shows are read again.
        var wrote = false
        if outgoing.changedHere || !plans.isEmpty {
            wrote = true
            let ledger = ledger(installation)
            let check = ledger.check
            // A long history joining touches many pages of several tables and indexes: keep them in memory, not
            // spilled, and write them once, as a large import does (the rollback journal, not the WAL and its checkpoint).
            let large = plans.reduce(0) { $0.addingReportingOverflow($1.changes).overflow ? .max : $0 + $1.changes } > 10_000
            let limit = mergeLimit
            let result = try store.write(journal: JournalEntry(action: JournalEntry.mergeAction, summary: "sync", at: now), notifying: !plans.isEmpty,
                                         bulk: large) { connection in
                _ = try ledger.stamp(now: now, in: connection)
                if large { try connection.execute("PRAGMA cache_size = -32768; PRAGMA temp.cache_size = -16384") }
                defer {
                    // Best effort: the default sizes only give memory back; a failure here changes no data.
                    if large { try? connection.execute("PRAGMA cache_size = -2000; PRAGMA temp.cache_size = -2000") }
                }
                // A device's files are merged a few at a time, in the order it wrote them, on the stage's thread while
                // this one reads and parses the next (a history joining comes in many).
                var read = ReadProblems()
                var merged = Merging()
                let merging = BackgroundStage<MergeItem>(depth: 1, freeingOnSender: true) { item in try merged.take(item, ledger: ledger, in: connection) }
                // The connection is the stage's until it is done, whatever ends the reading.
                defer { merging.drain() }
                // The first piece is parsed on every core; the next ones on the cores a merge leaves.
                let cores = ProcessInfo.processInfo.activeProcessorCount
                var sent = 0
                var reached: [String: Int] = [:]
                for plan in plans {
                    reached[plan.peer] = try Self.read(plan, limit: limit, threads: { sent == 0 ? cores : max(1, cores - 1) }, check: check,
                                                       nowMs: nowMs, problems: &read) { item in
                        try merging.send(item)
                        sent += 1
                    }
                }
                try merging.finish()
                var (applied, names) = (merged.applied, merged.names)
                try ledger.unpark(in: connection, applied: &applied)
                try ledger.unite(in: connection, applied: &applied)
                let deletedBy = try Self.say(deletions, reached: reached, timeZone: ledger.timeZone, applied: &applied, in: connection)
                for note in applied.notes {
                    try connection.run("INSERT INTO sync_notes(ms, text) VALUES(?, ?)", [.int(nowMs), .text(note)])
                }
                try connection.run("DELETE FROM sync_notes WHERE id <= (SELECT max(id) FROM sync_notes) - 50")
                if !deletedBy.isEmpty {
                    try connection.describeRecordedChange(deletedBy.joined(separator: "; "), action: SyncNotice.Kind.deletedAll.rawValue)
                } else if applied.rows > 0 {
                    try connection.describeRecordedChange("sync: \(counted(applied.rows, "change")) from \(SyncReport.sentence(from: names))")
                } else {
                    // Only bookkeeping came (another device's tip deck): nothing for `history` to list.
                    try connection.keepRecordedChangeOutOfHistory()
                }
                return (applied, names, read, reached)
            }
            report.received = result.0.rows
            report.notes += result.0.notes
            report.from = result.1
            report.problems += result.2.said
            report.leftOut = result.2.leftOut
            problems.merge(result.2.byPeer) { _, read in read }
            // How far each device's readable files reach: a file passed over is not waited for.
            for plan in plans {
                let reached = result.3[plan.peer] ?? plan.applied
                let failed = (result.2.failed[plan.peer] ?? []).subtracting(result.2.waiting[plan.peer] ?? [])
                available[plan.peer] = SyncFile.reach(from: reached, through: (plan.segments + plan.checkpoints).filter { !failed.contains($0.name) })
            }
        }
        report.notes += try say(departures, timeZone: ledger(installation).timeZone, nowMs: nowMs)
        // What stops a device's changes is kept for `sync` while it lasts, and forgotten once its files read whole.
        if problems != stored.filter({ available[$0.key] != nil || problems[$0.key] != nil }) {
            wrote = true
            try store.write(notifying: false) { connection in
                for (peer, _) in stored where problems[peer] == nil && available[peer] != nil {
                    try connection.run("UPDATE sync_peers SET problem = NULL WHERE installation = ?", [.text(peer)])
                }
                for (peer, problem) in problems {
                    try connection.run("""
                        INSERT INTO sync_peers(installation, problem) VALUES(?, ?) ON CONFLICT DO UPDATE SET problem = excluded.problem
                        """, [.text(peer), .text(problem)])
                }
            }
        }
        // Nothing of this device's to send (no change, no line waiting, no checkpoint due) and nothing new from the
        // others: the folder listing was all.
        if outgoing.hasChanges || checkpointDue(outgoing) || !plans.isEmpty || wrote {
            var own = try root.subfolder(installation, create: true)
            own.removeStaleTemporaries()
            while true {
                do {
                    report.sent += try writeSegments(to: own, installation: installation, device: device, now: now)
                    try writePendingNotice(in: own, installation: installation, device: device)
                    try checkpointAndPrune(own, ledger: ledger(installation), device: device, now: now)
                    if let roster = try currentRoster() { try removePlainFiles(own, installation: installation, roster: roster) }
                    break
                } catch let taken as NameTaken {
                    // Another installation with this id wrote the name first: this one is a copy, and takes a new id.
                    let forked = try fork(installation: installation, now: now, foreignFirst: taken.first,
                                          why: Self.copied("\(taken.name) in its folder was written by another copy of this data directory"))
                    installation = forked.installation
                    report.notes.append(forked.note)
                    own = try root.subfolder(installation, create: true)
                }
            }
        }
        report.devices = try (wrote ? store.read { try Self.peerRows(in: $0) } : peers).map { Self.device($0, available: available) }
        return report
    }

    /// What to read from `peer`'s folder: its files past what was applied here, by the numbers their names give. A
    /// name that looks like a segment's but whose numbers cannot be right is passed over, and named in `problems`.
    static func plan(_ peer: String, in root: SafeFolder, known: PeerRow?, pinned: [UInt8]?, through cap: Int = .max, files: FolderFiles,
                     problems: inout [String]) throws -> PeerPlan {
        let folder = try root.subfolder(peer, create: false)
        let applied = known?.applied ?? 0
        var segments: [SyncFile] = [], checkpoints: [SyncFile] = []
        for name in try folder.names() {
            guard let range = SyncSegment.range(ofName: name) else {
                if SyncSegment.looksLikeSegment(name) {
                    problems.append("\(peer.prefix(8)): \(name) is passed over: its numbers cannot be a device's changes")
                }
                continue
            }
            guard range.last > applied, range.last <= cap else { continue }
            let file = SyncFile(name: name, first: range.first, last: range.last, checkpoint: range.checkpoint)
            if range.checkpoint { checkpoints.append(file) } else { segments.append(file) }
        }
        segments.sort { ($0.first, -$0.last) < ($1.first, -$1.last) }
        checkpoints.sort { $0.last > $1.last }
        // A bound of the changes to read (checkpoints' included): every term is at most 2^50, and the sum saturates.
        var changes = 0
        for file in segments + checkpoints {
            let (sum, overflow) = changes.addingReportingOverflow(file.last - max(file.first, applied + 1) + 1)
            changes = overflow ? .max : sum
        }
        return PeerPlan(peer: peer, folder: folder, files: files, applied: applied, pinned: pinned, segments: segments, checkpoints: checkpoints,
                        changes: changes, available: SyncFile.reach(from: applied, through: segments + checkpoints))
    }

    /// `plan` for a device whose folder holds nothing new, no notice and no misnamed file: nil when it holds any.
    private static func quietPlan(_ peer: String, in root: SafeFolder, known: PeerRow) throws -> PeerPlan? {
        var problems: [String] = []
        let plan = try plan(peer, in: root, known: known, pinned: known.key, files: FolderFiles(secrets: nil), problems: &problems)
        let notices = SyncNotice.Kind.allCases.contains { plan.folder.entry($0.fileName) != .missing }
        return plan.segments.isEmpty && plan.checkpoints.isEmpty && problems.isEmpty && !notices ? plan : nil
    }

    /// Writes the changes queued in `sync_out` as segments in this device's folder, then forgets them.
    private func writeSegments(to own: SafeFolder, installation: String, device: String, now: Date) throws -> Int {
        var sent = 0
        while true {
            let (lines, seen) = try store.read { connection in
                (try connection.query("SELECT seq, line FROM sync_out ORDER BY seq LIMIT ?", [.int(SyncSegment.changesPerSegment)]) {
                    ($0.int(0), $0.text(1))
                 },
                 Dictionary(try connection.query("SELECT installation, applied FROM sync_peers") { ($0.text(0), $0.int(1)) },
                            uniquingKeysWith: { first, _ in first }))
            }
            guard let first = lines.first?.0, let last = lines.last?.0 else { return sent }
            // The lines as they were queued: each is a change's `line()` already.
            let header = SyncSegment(installation: installation, device: device, first: first, last: last, isCheckpoint: false,
                                     writtenMs: Int(now.timeIntervalSince1970 * 1000), seen: seen, changes: [])
            guard try write(header, count: lines.count, in: own, lines: { line in for (_, text) in lines { try line(text) } }) else {
                throw FolderError.cannotWrite(own.path + "/" + header.fileName, reason: "its lines were not as many as queued")
            }
            try store.write(notifying: false) { connection in
                try connection.run("DELETE FROM sync_out WHERE seq <= ?", [.int(last)])
                try SyncLedger.setMeta(SyncLedger.Mark.written, String(last), in: connection)
            }
            sent += lines.count
        }
    }

    /// Now and then a checkpoint of every row this device knows (`checkpoint-<seq>.jsonl`), so a device that
    /// joins late starts from it; then this device's segments every device seen has read, and older checkpoints, go.
    private func checkpointAndPrune(_ own: SafeFolder, ledger: SyncLedger, device: String, now: Date) throws {
        let (marks, seen) = try store.read { connection in
            (try Self.outgoing(in: connection), try connection.query("SELECT seen_of_us FROM sync_peers") { $0.int(0) })
        }
        let seq = marks.written
        var through = marks.checkpoint
        if marks.sealedDue, seq == 0 {
            // Nothing of this installation's to cover yet: its first segment is sealed.
            try store.write(notifying: false) { try $0.run("DELETE FROM meta WHERE key = ?", [.text(Self.sealedCheckpointMark)]) }
        } else if checkpointDue(marks) {
            let header = SyncSegment(installation: ledger.installation, device: device, first: 1, last: seq, isCheckpoint: true,
                                     writtenMs: Int(now.timeIntervalSince1970 * 1000), seen: [:], changes: [])
            // The lines go to the file as they are made, never held whole; a count that disagrees (another program
            // changed the tables) leaves the checkpoint for the next sync.
            let count = try store.read { try ledger.checkpointLineCount(in: $0) }
            let written = try write(header, count: count, in: own) { line in
                try store.read { connection in try ledger.checkpointLines(in: connection, each: line) }
            }
            if written {
                try store.write(notifying: false) { connection in
                    try SyncLedger.setMeta(SyncLedger.Mark.checkpoint, String(seq), in: connection)
                    try connection.run("DELETE FROM meta WHERE key = ?", [.text(Self.sealedCheckpointMark)])
                }
                through = seq
            }
        }
        guard through > 0 else { return }
        // A segment goes once a checkpoint covers it and every device seen has read it.
        let readByAll = seen.min() ?? 0
        var removed: [String] = []
        for name in try own.names() {
            guard let range = SyncSegment.range(ofName: name) else { continue }
            if range.checkpoint ? range.last < through : range.last <= min(through, readByAll) {
                own.remove(name)
                removed.append(name)
            }
        }
        if !removed.isEmpty { try forgetWritten(removed) }
    }

    /// What this device has to send, and how far it has written its changes out and checkpointed them.
    struct Outgoing {
        /// The journal moved past the last stamp, or an undo or a redo touched rows: changes to stamp.
        let changedHere: Bool
        /// Lines stamped here wait for a segment (a sync stopped between stamping and writing them).
        let unsent: Bool
        /// This device's last change written out in a segment, and the last its checkpoint covers.
        let written: Int, checkpoint: Int
        /// It moved into a private folder, and a sealed checkpoint of every row is to be written.
        var sealedDue = false

        /// Anything of this device's to send: changes to stamp, or lines not yet in a segment.
        var hasChanges: Bool { changedHere || unsent }
    }

    /// `Outgoing`, read in one statement: every sync asks, and most find nothing.
    static func outgoing(in connection: SQLiteConnection) throws -> Outgoing {
        try connection.query("""
            SELECT (SELECT value FROM meta WHERE key = ?), (SELECT ifnull(max(id), 0) FROM journal_changes),
                EXISTS (SELECT 1 FROM sync_dirty), EXISTS (SELECT 1 FROM sync_out),
                (SELECT value FROM meta WHERE key = ?), (SELECT value FROM meta WHERE key = ?), EXISTS (SELECT 1 FROM meta WHERE key = ?)
            """, [.text(SyncLedger.Mark.stamped), .text(SyncLedger.Mark.written), .text(SyncLedger.Mark.checkpoint),
                  .text(sealedCheckpointMark)]) { row in
            Outgoing(changedHere: row.optionalText(0).flatMap { Int($0) } != row.int(1) || row.int(2) == 1, unsent: row.int(3) == 1,
                     written: row.optionalText(4).flatMap { Int($0) } ?? 0, checkpoint: row.optionalText(5).flatMap { Int($0) } ?? 0,
                     sealedDue: row.int(6) == 1)
        }[0]
    }

    /// Whether this device's changes since its last checkpoint make it write a new one (`checkpointAndPrune`).
    private func checkpointDue(_ marks: Outgoing) -> Bool {
        marks.written - marks.checkpoint >= checkpointEvery || marks.sealedDue && files.isPrivate
    }
}
