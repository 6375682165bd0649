import Foundation
import Storage
import Vocabulary

/// The file and database work of backups, off the main actor.
actor BackupWorker {
    let store: LocalDataStore
    let schema: SnapshotSchema
    let files: RecoveryBackupFiles
    let appVersion: String

    static let automaticInterval: TimeInterval = 24 * 60 * 60

    enum Check: Sendable, Equatable {
        case written(BackupListing)
        case tooSoon(lastAt: Date)
        case unchanged
    }

    /// Runs on the store's own thread: file and database work never blocks the main actor or the pool.
    nonisolated var unownedExecutor: UnownedSerialExecutor { store.executor.asUnownedSerialExecutor() }

    init(store: LocalDataStore, schema: SnapshotSchema, files: RecoveryBackupFiles, appVersion: String) {
        self.store = store
        self.schema = schema
        self.files = files
        self.appVersion = appVersion
    }

    /// The automatic rule: at most one snapshot per 24 hours, and only when
    /// the content changed since the last one. `force` (backup now) skips both.
    /// An empty database never replaces a snapshot. Previous keeps the last
    /// snapshot whose content differs from Latest: an unchanged `backup now`
    /// rewrites Latest and rotates nothing.
    ///
    /// The snapshot is written from the rows as they are read (see
    /// `SnapshotWriter`), each checked as a restore checks it: a row a restore
    /// would refuse leaves the last snapshot in place. The written file is read
    /// back and must hash as it was written; a failure throws, the file stays.
    /// Removes this installation's plain snapshots from a sync folder that went private (best effort).
    func removePlainMirror(from syncFolder: URL) {
        guard PrivateSyncMarker.isPrivate(syncFolder), let installationID = try? store.installationID() else { return }  // No id: none mirrored.
        RecoveryBackupFiles.removeMirror(of: installationID, in: syncFolder)
    }

    func check(now: Date, force: Bool, week: String, syncFolder: URL?) throws -> (Check, syncWarning: String?) {
        // A snapshot's temporary left by a killed process (up to 17 MB each) goes at the next check.
        files.removeStaleTemporaries()
        // A sync folder that went private keeps no snapshot in plain (DESIGN §11).
        if let syncFolder, PrivateSyncMarker.isPrivate(syncFolder) {
            RecoveryBackupFiles.removeMirror(of: try store.installationID(), in: syncFolder)
        }
        let latestExists = files.hasLatest
        let lastAt = try lastBackupAt()
        if !force, latestExists, let lastAt, now.timeIntervalSince(lastAt) < Self.automaticInterval, now >= lastAt {
            return (.tooSoon(lastAt: lastAt), nil)
        }
        let changeCount = try store.metaValue("changeCount") ?? "0"
        if !force, latestExists, try store.metaValue("backupChangeCount") == changeCount {
            return (.unchanged, nil)
        }
        let installationID = try store.installationID()
        let snapshot: (file: PendingFile, written: SnapshotWriter.Written)?
        do {
            snapshot = try store.readConsistently { connection in
                // Nothing worth keeping, and an empty snapshot must never push a real one out of Latest.
                guard try schema.holdsRows(in: ["weights", "habits"], in: connection) else { return nil }
                let file = try files.pendingLatest()
                let written = try SnapshotWriter.write(schema, in: connection, createdAt: now, installationID: installationID,
                                                       appVersion: appVersion, to: file)
                return (file, written)
            }
        } catch let error as SnapshotValueError {
            throw BackupFileError.refusedContent(error.detail)
        }
        guard let snapshot else {
            if force { throw BackupFileError.nothingToBackUp }
            return (.unchanged, nil)
        }
        let unchanged = try latestExists && store.metaValue("lastBackupHash") == snapshot.written.contentHash
        if !force, unchanged {
            snapshot.file.discard()
            try store.setMetaValue(changeCount, for: "backupChangeCount")
            return (.unchanged, nil)
        }
        try files.commitLatest(snapshot.file, rotating: !unchanged)
        try verify(snapshot.written, in: files.latest)
        try files.writeWeekly(week: week)
        try store.setMetaValue(String(now.timeIntervalSince1970), for: "lastBackupAt")
        try store.setMetaValue(snapshot.written.contentHash, for: "lastBackupHash")
        try store.setMetaValue(changeCount, for: "backupChangeCount")
        var warning: String?
        if let syncFolder {
            do {
                try files.mirrorLatest(fileHash: snapshot.written.fileHash, week: week, rotating: !unchanged, to: syncFolder,
                                       installationID: installationID)
            } catch {
                warning = "the sync folder was not written (\(error)); the local backup is fine"
            }
        }
        let listing = BackupListing(name: "latest", kind: .latest, createdAt: now, installationID: installationID,
                                    entries: snapshot.written.rowCounts["weights", default: 0],
                                    habits: snapshot.written.rowCounts["habits", default: 0],
                                    file: files.latest)
        return (.written(listing), warning)
    }

    /// Reads a written snapshot back, a chunk at a time: it must be the bytes
    /// that were written (its size and SHA-256), so its content member is the
    /// canonical content whose hash it records. Its values were checked row by
    /// row as they were written.
    private func verify(_ written: SnapshotWriter.Written, in file: SnapshotFile) throws {
        let (hash, size) = try file.sha256()
        guard hash == written.fileHash, size == written.size else {
            throw BackupFileError.verifyFailed(file.url.path, reason: "the file reads back different from what was written")
        }
    }

    /// Every snapshot here and, with a sync folder, other installations' latest ones.
    /// Files that cannot be read, and what was passed over (links, FIFOs), are reported by name.
    func listings(syncFolder: URL?) throws -> (listings: [BackupListing], unreadable: [String]) {
        var listings: [BackupListing] = []
        let (local, skipped) = try files.files()
        var unreadable = skipped
        var candidates = local
        if let syncFolder {
            let own = try store.installationID()
            do {
                for other in try RecoveryBackupFiles.otherInstallations(in: syncFolder, excluding: own) {
                    candidates.append((.sync, "sync \(other.id.prefix(8))", other.file))
                }
            } catch {
                unreadable.append("the sync folder (\(error))")
            }
        }
        for (kind, name, file) in candidates {
            do {
                listings.append(try listing(of: file, kind: kind, name: name))
            } catch {
                unreadable.append(name)
            }
        }
        return (listings, unreadable)
    }

    /// A snapshot's listing from one pass over its bytes (`SnapshotSummary`):
    /// its content must hash, as written, to the hash it records. A file whose
    /// content was re-indented is read whole, as a restore would read it.
    /// Its values are checked when it is restored.
    private func listing(of file: SnapshotFile, kind: BackupListing.Kind, name: String) throws -> BackupListing {
        let summary = try SnapshotSummary.read(file, name: name)
        guard summary.contentHashAsWritten == summary.contentHash else {
            return listing(try read(file, name: name), kind: kind, name: name, file: file)
        }
        return BackupListing(name: name, kind: kind, createdAt: summary.createdAt, installationID: summary.installationID,
                             entries: summary.counts["weights", default: 0], habits: summary.counts["habits", default: 0], file: file)
    }

    func read(_ file: SnapshotFile, name: String, skippingInvalid: Bool = false) throws -> RecoverySnapshot {
        try RecoverySnapshot.read(file, name: name, schema: schema, skippingInvalid: skippingInvalid)
    }

    /// The last failed snapshot, kept in the database until one succeeds.
    func lastFailure() throws -> BackupFailure? {
        guard let at = try store.metaValue("backupFailureAt").flatMap(Double.init),
              let reason = try store.metaValue("backupFailureReason") else { return nil }
        return BackupFailure(at: Date(timeIntervalSince1970: at), reason: reason)
    }

    func recordFailure(_ failure: BackupFailure) throws {
        try store.setMetaValue(String(failure.at.timeIntervalSince1970), for: "backupFailureAt")
        try store.setMetaValue(String(failure.reason.prefix(500)), for: "backupFailureReason")
    }

    func clearFailure() throws {
        try store.removeMetaValues(["backupFailureAt", "backupFailureReason", "backupFailureWarnedAt"])
    }

    func failureWarnedRecently(now: Date) throws -> Bool {
        guard let warned = try store.metaValue("backupFailureWarnedAt").flatMap(Double.init) else { return false }
        // A clock set back counts the same as one moved on: not again within a day either way.
        return abs(now.timeIntervalSince1970 - warned) < Self.automaticInterval
    }

    func storageWarnings() -> [String] {
        store.takeWarnings()
    }

    /// Closes the database at exit; see `LocalDataStore.close()`.
    func closeStorage() {
        store.close()
    }

    func noteFailureWarned(now: Date) throws {
        try store.setMetaValue(String(now.timeIntervalSince1970), for: "backupFailureWarnedAt")
    }

    func installationID() throws -> String {
        try store.installationID()
    }

    /// When the last snapshot was written, as the database remembers it.
    func lastBackupAt() throws -> Date? {
        try store.metaValue("lastBackupAt").flatMap(Double.init).map(Date.init(timeIntervalSince1970:))
    }

    /// What a restore would replace: counts, spans and the settings, without reading every row.
    func currentSummary() throws -> SnapshotSummaryOfStore {
        try store.readConsistently { try schema.summary(reading: ["settings"], in: $0) }
    }

    /// Content with nothing in it, for `delete-all-data`.
    func emptyContent() throws -> SnapshotContent {
        try schema.emptyContent()
    }

    /// Keeps a copy of what is there, then replaces (or merges into) it in one transaction.
    /// Cancelling the awaiting task before the transaction commits leaves everything as it was.
    /// `keepingSynced`: the device syncs, so a row the other devices have stays where the snapshot does not hold it.
    func restore(_ snapshot: RecoverySnapshot, merge: Bool, now: Date, stamp: String, journal: JournalEntry,
                 keepingSynced: Bool = false) async throws -> (beforeRestore: String?, merged: MergeCounts?) {
        // What is there now, as it is: even a row a restore would refuse is kept in the copy.
        let installationID = try store.installationID()
        files.removeStaleTemporaries()
        var current: String?
        let copy = try files.writeBeforeRestore(stamp: stamp) { file in
            current = try store.readConsistently { connection in
                try SnapshotWriter.write(schema, in: connection, checkingRows: false, createdAt: now, installationID: installationID,
                                         appVersion: appVersion, to: file)
            }.contentHash
        }
        // The same content as is here already: nothing is written, journaled or kept (each such restore
        // of 196k weigh-ins added 34 MB of journal, and a copy of the same).
        if !merge, snapshot.dropped.isEmpty, current == snapshot.contentHash {
            files.removeBeforeRestore(copy)
            return (nil, nil)
        }
        let result: (String?, MergeCounts?) = try await store.cancellable {
            if merge {
                let counts = try store.write(journal: journal) { try schema.merge(snapshot.content, in: $0) }
                return (copy, MergeCounts(counts))
            }
            try store.replaceContent(with: snapshot.content, schema: schema, journal: journal, keepingSynced: keepingSynced)
            return (copy, nil)
        }
        // A restore rewrites everything: fold the WAL in and shrink it now.
        try store.checkpoint()
        return result
    }

    /// Where a restore's snapshot is, and how messages name it.
    func locate(_ source: RestoreSource, syncFolder syncFolderURL: URL?) throws -> (SnapshotFile, String) {
        switch source {
        case .latest: return (try files.file(kind: .latest, name: nil), "latest")
        case .previous: return (try files.file(kind: .previous, name: nil), "previous")
        case let .weekly(week): return (try files.file(kind: .weekly, name: week), "weekly \(week)")
        case let .beforeRestore(name): return (try files.file(kind: .beforeRestore, name: name), "before-restore \(name)")
        case let .file(url):
            guard FileManager.default.fileExists(atPath: url.path) else { throw BackupFileError.noSuchBackup(url.path) }
            return (.named(url), url.path)
        case let .sync(prefix):
            guard let syncFolderURL else { throw BackupFileError.noSyncFolder }
            let own = try installationID()
            let typed = IDPrefix(prefix)
            let matches = try RecoveryBackupFiles.otherInstallations(in: syncFolderURL, excluding: own).filter { typed.matches($0.id) }
            guard matches.count == 1, let match = matches.first else {
                throw BackupFileError.noSuchBackup("sync \(prefix)")
            }
            return (match.file, "sync \(match.id.prefix(8))")
        }
    }

    func isWritable(_ path: String) -> Bool {
        FileManager.default.isWritableFile(atPath: path)
    }

    func listing(_ snapshot: RecoverySnapshot, kind: BackupListing.Kind, name: String, file: SnapshotFile) -> BackupListing {
        BackupListing(name: name, kind: kind, createdAt: snapshot.createdAt, installationID: snapshot.installationID,
                      entries: snapshot.weighIns, habits: snapshot.habits, file: file)
    }
}
