import Cryptography
import Foundation
import Storage

/// What the reading thread hands the merging one: whole files, merged together, or a large file a piece at a
/// time, from its first piece to its last; `abandon` undoes what its pieces did when the rest of it cannot be read.
enum MergeItem: Sendable {
    case files([PeerBatch])
    case piece(PeerBatch, first: Bool, last: Bool)
    case abandon
}

extension SyncWorker {
    /// What reading a device's files found wrong: for `sync`, each in a sentence, and the device's problem.
    struct ReadProblems {
        var said: [String] = []
        var byPeer: [String: String] = [:]
        /// The files passed over, by device: those that cannot be right (not counted as changes to come), and those
        /// that wait (cut short while still copied, or dated ahead), which are.
        var failed: [String: Set<String>] = [:]
        var waiting: [String: Set<String>] = [:]
        /// Changes left out, each named in `said`.
        var leftOut = 0
    }

    /// Reads the plan's files in order and hands them to `send`: files smaller than `limit` changes together, as
    /// many as make `limit`; a larger one (a checkpoint) `limit` changes at a time, so it is never held whole.
    /// A file that cannot be applied (cut short, unsigned, signed by another key, not what its name says) is
    /// passed over, named in `problems`, for another that covers the same changes: no bad file hides a good one.
    /// What its pieces did is undone, and the files before it stand. Returns the last change read.
    static func read(_ plan: PeerPlan, limit: Int, threads: () -> Int, check: @escaping @Sendable (SyncChange) -> SyncLedger.Checked,
                     nowMs: Int, problems: inout ReadProblems, send: (MergeItem) throws -> Void) throws -> Int {
        /// The merge's refusal of an item, which fails the sync, told apart from what is wrong with a file.
        struct Refused: Error { let error: any Error }
        func hand(_ item: MergeItem) throws {
            do { try send(item) } catch { throw Refused(error: error) }
        }
        var group: [PeerBatch] = []
        var count = 0
        func flush() throws {
            guard !group.isEmpty else { return }
            try hand(.files(group))
            (group, count) = ([], 0)
        }
        /// A file's changes dated too far ahead of this device's clock make it wait.
        func checkAhead(_ piece: SyncSegment, _ name: String) throws {
            if let ahead = piece.changes.first(where: { $0.clock.ms > nowMs + aheadLimitMs }) {
                let days = max(1, (ahead.clock.ms - nowMs) / 86_400_000)
                throw SyncSegment.Problem.unreadable("\(name) holds a change dated \(days) \(days == 1 ? "day" : "days") ahead of this device's clock; it waits")
            }
        }
        var cursor = plan.applied
        var failed: Set<String> = []
        let byFirst = Dictionary(grouping: plan.segments, by: \.first)
        // The key of the device's first file read here is the one its others must be signed by, in this sync too.
        var pinned = plan.pinned
        var prefetched: [String: Result<SyncSegment, any Error>] = [:]
        /// The next file to read: a segment that takes up at the next change (the longest first), one that reaches past
        /// the cursor from before it, or else a checkpoint past it (the latest first); none that was passed over.
        func next() -> SyncFile? {
            if let file = byFirst[cursor + 1]?.first(where: { !failed.contains($0.name) }) { return file }
            if let file = plan.segments.filter({ $0.first <= cursor && $0.last > cursor && !failed.contains($0.name) }).max(by: { $0.last < $1.last }) {
                return file
            }
            return plan.checkpoints.first { $0.last > cursor && !failed.contains($0.name) }
        }
        var blocked: String?
        while let file = next() {
            let name = file.name
            var begun = false
            let said = problems.said.count, leftOut = problems.leftOut
            do {
                if prefetched[name] == nil, let pinned {
                    let window = Self.smallFilesAhead(from: file, byFirst: byFirst, failed: failed)
                    // Every core: the merge of such files waits on their signatures more than it works.
                    if window.count > 1 {
                        prefetched = Self.readWhole(window, of: plan, pinned: pinned, threads: ProcessInfo.processInfo.activeProcessorCount, check: check)
                    }
                }
                if let ready = prefetched.removeValue(forKey: name) {
                    let whole = try ready.get()
                    try checkAhead(whole, name)
                    group.append(PeerBatch(whole, peer: plan.peer, name: name, problems: &problems))
                    count += whole.changes.count
                    if count >= limit { try flush() }
                    cursor = file.last
                    blocked = nil
                    continue
                }
                var reader = try SyncSegment.Reader(name: name, installation: plan.peer, pinned: pinned, piece: limit, threads: threads(),
                                                    check: check)
                /// A piece of a large file handed on as it is read (the files before it first).
                func piece(_ piece: SyncSegment, last: Bool, begun: inout Bool) throws {
                    try checkAhead(piece, name)
                    let batch = PeerBatch(piece, peer: plan.peer, name: name, problems: &problems)
                    if !begun { try flush() }
                    try hand(.piece(batch, first: !begun, last: last))
                    begun = true
                    reader.threads = threads()
                }
                try plan.files.forEachChunk(of: name, in: plan.folder, installation: plan.peer,
                                            limit: file.checkpoint ? SyncSegment.checkpointSizeLimit : SyncSegment.sizeLimit) { bytes in
                    for part in try reader.take(bytes) { try piece(part, last: false, begun: &begun) }
                }
                let last = try reader.finish()
                if begun {
                    try piece(last, last: true, begun: &begun)
                } else {
                    try checkAhead(last, name)
                    group.append(PeerBatch(last, peer: plan.peer, name: name, problems: &problems))
                    count += last.changes.count
                    if count >= limit { try flush() }
                }
                pinned = pinned ?? last.key
                cursor = file.last
                blocked = nil
            } catch let refused as Refused {
                throw refused.error
            } catch {
                if begun { try send(.abandon) }
                problems.said.removeSubrange(said...)  // What its undone pieces left out is not said.
                problems.leftOut = leftOut
                failed.insert(name)
                if let problem = error as? SyncSegment.Problem, problem.waits {
                    problems.waiting[plan.peer, default: []].insert(name)
                } else {
                    problems.failed[plan.peer, default: []].insert(name)
                }
                blocked = "\(error)"
                problems.said.append("\(plan.peer.prefix(8)): \(error); it is passed over, and tried again at the next sync")
            }
        }
        if let blocked { problems.byPeer[plan.peer] = blocked }
        do { try flush() } catch let refused as Refused { throw refused.error }
        return cursor
    }

    /// A file of at most this many changes is small: a run of them ahead is read on every core at once.
    static let smallFile = 64

    /// The small segments that follow one another from `file` on, as `read` will take them if each reads whole
    /// (at most a thousand).
    private static func smallFilesAhead(from file: SyncFile, byFirst: [Int: [SyncFile]], failed: Set<String>) -> [SyncFile] {
        var window: [SyncFile] = []
        var at: SyncFile? = file
        while let next = at, window.count < 1_024, !next.checkpoint, next.last - next.first < smallFile {
            window.append(next)
            at = byFirst[next.last + 1]?.first { !failed.contains($0.name) }
        }
        return window
    }

    /// Each of `files` read whole and checked (signed by `pinned`), on `threads` threads: a device that never compacted
    /// wrote a file a change. A signature costs more than reading such a file, so not every one is checked: the last
    /// file's is, and a file the next one's `previous` names by the SHA-256 its signature is over is vouched for by
    /// that one (its bytes are the ones its writer signed). A file the chain does not reach is checked on its own.
    private static func readWhole(_ files: [SyncFile], of plan: PeerPlan, pinned: [UInt8], threads: Int,
                                  check: @escaping @Sendable (SyncChange) -> SyncLedger.Checked) -> [String: Result<SyncSegment, any Error>] {
        /// A file read, its signature not yet checked: what to check it by, the SHA-256 it names before it, its changes.
        typealias Unverified = (signed: SyncSegment.Reader.Signed?, previous: [UInt8]?, segment: Result<SyncSegment, SyncSegment.Problem>)
        let folder = plan.folder, peer = plan.peer, sealed = plan.files
        let read: [Result<Unverified, any Error>] = onLanes(files.count, threads: threads) { index in
            Result {
                var reader = try SyncSegment.Reader(name: files[index].name, installation: peer, pinned: pinned, piece: .max,
                                                    threads: 1, check: check)
                try sealed.forEachChunk(of: files[index].name, in: folder, installation: peer, limit: SyncSegment.sizeLimit) { bytes in
                    _ = try reader.take(bytes)
                }
                let signed = try reader.signed()
                return (signed, reader.header?.previous, Result { () throws(SyncSegment.Problem) in try reader.rest() })
            }
        }
        // A file the next one chains to stands or falls with it; the others (the last among them) are checked.
        let chained = files.indices.map { index in
            guard index + 1 < files.count, case let .success(this) = read[index], case let .success(next) = read[index + 1],
                  let content = this.signed?.content, next.signed != nil else { return false }
            return next.previous == content
        }
        var verified: [Int: Bool] = [:]
        /// Checks the signatures of the files at `indices` (on every lane), into `verified`.
        func verify(_ indices: [Int]) {
            let found: [Bool] = onLanes(indices.count, threads: threads) { place in
                guard case let .success(file) = read[indices[place]], let signed = file.signed else { return true }
                return (try? signed.verify()) != nil
            }
            for (index, good) in zip(indices, found) { verified[index] = good }
        }
        // The files nothing chains to are checked first (the last among them); back from the last, a chained file stands
        // with its successor; one whose successor proved false is checked on its own, in the next round.
        var authentic = Array(repeating: false, count: files.count)
        var pending = files.indices.filter { !chained[$0] }
        while !pending.isEmpty {
            verify(pending)
            pending = []
            for index in files.indices.reversed() {
                if let good = verified[index] {
                    authentic[index] = good
                } else if authentic[index + 1] {  // Chained: every file nothing chains to, the last among them, is verified.
                    authentic[index] = true
                } else {
                    pending.append(index)
                }
            }
        }
        let checked: [Result<SyncSegment, any Error>] = files.indices.map { index in
            Result {
                let file = try read[index].get()
                if let signed = file.signed, !authentic[index] { throw SyncSegment.Problem.badSignature(signed.name) }
                return try file.segment.get()
            }
        }
        return Dictionary(zip(files.map(\.name), checked), uniquingKeysWith: { first, _ in first })
    }

    /// `make(index)` for each index below `count`, on `threads` lanes (each takes every `threads`th index).
    private static func onLanes<Value: Sendable>(_ count: Int, threads: Int, _ make: @Sendable (Int) -> Value) -> [Value] {
        var results: [Value?] = Array(repeating: nil, count: count)
        let lanes = max(1, min(threads, count))
        results.withUnsafeMutableBufferPointer { slots in
            // Each slot is written by one lane only, and read once all are done.
            nonisolated(unsafe) let slots = slots
            BlockingPool.shared.forEachLane(lanes) { lane in
                for index in stride(from: lane, to: count, by: lanes) { slots[index] = make(index) }
            }
        }
        return results.compactMap { $0 }  // Every slot is set: each index below `count` falls to one lane.
    }

    /// The merging thread's side: what it is in the middle of, and what it has applied.
    struct Merging {
        var applied = SyncLedger.Applied()
        var names: [String] = []
        /// The large file begun: its header, whether it is past what was applied here, and what was applied before it.
        var open: (segment: SyncSegment, taken: Bool, applied: SyncLedger.Applied, names: [String], lastMs: Int?)?

        /// Merges one item, inside the sync's transaction.
        mutating func take(_ item: MergeItem, ledger: SyncLedger, in connection: SQLiteConnection) throws {
            switch item {
            case let .files(batches):
                try SyncWorker.merge(batches, ledger: ledger, in: connection, applied: &applied, names: &names)
            case let .piece(batch, first, last):
                if first {
                    let segment = batch.segment
                    let done = try connection.scalarInt("SELECT applied FROM sync_peers WHERE installation = ?", [.text(segment.installation)]) ?? 0
                    let taken = segment.follows(done)
                    if taken { try connection.execute("SAVEPOINT sync_file") }
                    open = (segment, taken, applied, names, nil)
                }
                guard let file = open, file.taken else {
                    if last { open = nil }
                    return
                }
                try SyncWorker.apply(batch.changes, ready: batch.ready, device: SyncWorker.deviceName(file.segment), ledger: ledger,
                                     in: connection, applied: &applied)
                let lastMs = [file.lastMs, batch.segment.lastMs].compactMap { $0 }.max()
                open?.lastMs = lastMs
                guard last else { return }
                open = nil
                try SyncWorker.record(file.segment, lastMs: lastMs, ledger: ledger, in: connection, received: applied.rows - file.applied.rows)
                if applied.rows > file.applied.rows, !names.contains(file.segment.device) { names.append(file.segment.device) }
                try connection.execute("RELEASE sync_file")
            case .abandon:
                guard let file = open else { return }
                open = nil
                guard file.taken else { return }
                try connection.execute("ROLLBACK TO sync_file; RELEASE sync_file")
                (applied, names) = (file.applied, file.names)
            }
        }
    }

    /// The name a device's changes are told by: the one it gave, or the start of its installation id.
    static func deviceName(_ segment: SyncSegment) -> String {
        segment.device.isEmpty ? String(segment.installation.prefix(8)) : segment.device
    }

    /// Merges one device's whole files, in the order it wrote them, inside the sync's transaction: those past what
    /// was applied here.
    static func merge(_ batches: [PeerBatch], ledger: SyncLedger, in connection: SQLiteConnection,
                      applied: inout SyncLedger.Applied, names: inout [String]) throws {
        guard let first = batches.first else { return }
        var done = try connection.scalarInt("SELECT applied FROM sync_peers WHERE installation = ?", [.text(first.segment.installation)]) ?? 0
        let taken = batches.filter { batch in
            guard batch.segment.follows(done) else { return false }
            done = batch.segment.last
            return true
        }
        guard let segment = taken.last?.segment else { return }
        let before = applied.rows
        // One merge for the lot, in the order they were written: a device that never compacted sends a file a change,
        // and a merge each (its savepoints, its statements) cost more than the change.
        if taken.count == 1 {
            try apply(taken[0].changes, ready: taken[0].ready, device: deviceName(segment), ledger: ledger, in: connection, applied: &applied)
        } else {
            var changes: [SyncChange] = [], ready: [SyncLedger.Ready] = []
            changes.reserveCapacity(taken.reduce(0) { $0 + $1.changes.count })
            ready.reserveCapacity(changes.capacity)
            for batch in taken {
                changes += batch.changes
                ready += batch.ready.count == batch.changes.count ? batch.ready : batch.changes.map { SyncLedger.Ready(of: $0) }
            }
            try apply(changes, ready: ready, device: deviceName(segment), ledger: ledger, in: connection, applied: &applied)
        }
        try record(segment, lastMs: taken.compactMap(\.segment.lastMs).max(), seenOfUs: taken.map { $0.segment.seen[ledger.installation] ?? 0 }.max(),
                   ledger: ledger, in: connection, received: applied.rows - before)
        if applied.rows > before, !names.contains(segment.device) { names.append(segment.device) }
    }

    /// Applies changes from one device: tables that merge in bulk a batch at a time; the rest, and a batch the
    /// database refuses, one by one.
    static func apply(_ changes: [SyncChange], ready: [SyncLedger.Ready], device: String, ledger: SyncLedger, in connection: SQLiteConnection,
                      applied: inout SyncLedger.Applied) throws {
        // Each change's table, by code where it merges in bulk.
        var codes: [Int?] = []
        codes.reserveCapacity(changes.count)
        var last: (name: String, bulk: Int?) = ("", nil)  // A run of changes to one table is the common case.
        var newest: SyncClock?
        // By place, not by element: a change is read where it lies, not copied.
        for index in changes.indices {
            if changes[index].table != last.name {
                let name = changes[index].table
                let table = ledger.byName[name]
                last = (name, try table.map { try ledger.mergesInBulk($0, in: connection) } == true ? table?.table.code : nil)
            }
            codes.append(last.bulk)
            if newest.map({ $0 < changes[index].clock }) ?? true { newest = changes[index].clock }
        }
        var one: [SyncChange] = []
        var bulk: [Int: (changes: [SyncChange], ready: [SyncLedger.Ready])] = [:]
        if let code = codes.first ?? nil, !codes.contains(where: { $0 != code }), ready.count == changes.count {
            bulk[code] = (changes, ready)  // All to one table that merges in bulk (a history joining): as they came, not copied.
        } else {
            for (index, change) in changes.enumerated() {
                guard let code = codes[index] else { one.append(change); continue }
                bulk[code, default: ([], [])].changes.append(change)
                bulk[code, default: ([], [])].ready.append(index < ready.count ? ready[index] : .init(of: change))
            }
        }
        for code in bulk.keys.sorted() {
            guard let table = ledger.tables[code], let (changes, ready) = bulk[code] else { continue }
            try connection.execute("SAVEPOINT sync_batch")
            do {
                try ledger.applyBulk(changes, ready: ready, table: table, from: device, in: connection, applied: &applied)
                try connection.execute("RELEASE sync_batch")
            } catch {
                try connection.execute("ROLLBACK TO sync_batch; RELEASE sync_batch")
                // Merged one by one, the table's versions are no longer only those its bulk merges wrote.
                ledger.prepared.written[code] = .some(nil)
                one += changes
            }
        }
        for change in one {
            try connection.execute("SAVEPOINT sync_change")
            do {
                try ledger.apply(change, from: device, in: connection, applied: &applied)
                try connection.execute("RELEASE sync_change")
            } catch {
                try connection.execute("ROLLBACK TO sync_change; RELEASE sync_change")
                applied.note("a change from \(device) was refused by the database: \(error)")
            }
        }
        if let newest { try ledger.receive(newest, in: connection) }
    }

    /// Notes a device's file applied through its last change: how far, when it last changed something, how far it had read ours.
    static func record(_ segment: SyncSegment, lastMs: Int?, seenOfUs: Int? = nil, ledger: SyncLedger, in connection: SQLiteConnection,
                       received: Int) throws {
        try connection.run("""
            INSERT INTO sync_peers(installation, name, applied, last_change_ms, seen_of_us, received, key) VALUES(?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT DO UPDATE SET name = excluded.name, applied = excluded.applied,
                last_change_ms = max(ifnull(last_change_ms, 0), ifnull(excluded.last_change_ms, 0)),
                seen_of_us = max(seen_of_us, excluded.seen_of_us), received = received + excluded.received, problem = NULL,
                key = ifnull(key, excluded.key)
            """, [.text(segment.installation), .text(segment.device), .int(segment.last), lastMs.map(SQLValue.int) ?? .null,
                  .int(seenOfUs ?? segment.seen[ledger.installation] ?? 0), .int(received), segment.key.map { .text(Hex.string($0)) } ?? .null])
    }
}

extension PeerBatch {
    /// A file (or a piece of one) as it is merged: its changes but those left out, each named in `problems`.
    init(_ segment: SyncSegment, peer: String, name: String, problems: inout SyncWorker.ReadProblems) {
        self.init(segment: segment, changes: segment.changes, ready: segment.ready)
        guard !segment.leftOut.isEmpty else { return }
        let kept = segment.changes.indices.filter { segment.leftOut[$0] == nil }
        (changes, ready) = (kept.map { segment.changes[$0] }, kept.map { segment.ready[$0] })
        let device = SyncWorker.deviceName(segment)
        for index in segment.leftOut.keys.sorted() {
            problems.said.append("\(device), \(name) \(segment.leftOut[index] ?? ""): left out")
        }
        problems.leftOut += segment.leftOut.count
    }
}
