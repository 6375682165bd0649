import Foundation
import Storage

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
    func check(now: Date, force: Bool, week: String, syncFolder: URL?) throws -> (Check, syncWarning: String?) {
        let latestExists = FileManager.default.fileExists(atPath: files.latestURL.path)
        let lastAt = try lastBackupAt()
        if !force, latestExists, let lastAt, now.timeIntervalSince(lastAt) < Self.automaticInterval, now >= lastAt {
            return (.tooSoon(lastAt: lastAt), nil)
        }
        let changeCount = try store.metaValue("changeCount") ?? "0"
        if !force, latestExists, try store.metaValue("backupChangeCount") == changeCount {
            return (.unchanged, nil)
        }
        let content = try store.readContent(schema)
        if !force, content.rowCount(of: "weights") == 0, content.rowCount(of: "habits") == 0 {
            // Nothing worth keeping yet; the first real change gets the first snapshot.
            return (.unchanged, nil)
        }
        let snapshot = try RecoverySnapshot(content: content, createdAt: now, installationID: try store.installationID(),
                                        appVersion: appVersion)
        let hash = snapshot.contentHash
        if !force, latestExists, try store.metaValue("lastBackupHash") == hash {
            try store.setMetaValue(changeCount, for: "backupChangeCount")
            return (.unchanged, nil)
        }
        let data = snapshot.encoded()
        try files.writeLatest(data)
        try files.writeWeekly(data, week: week, sameAs: files.latestURL)
        try store.setMetaValue(String(now.timeIntervalSince1970), for: "lastBackupAt")
        try store.setMetaValue(hash, for: "lastBackupHash")
        try store.setMetaValue(changeCount, for: "backupChangeCount")
        var warning: String?
        if let syncFolder {
            do {
                try files.mirror(data, week: week, to: syncFolder, installationID: snapshot.installationID)
            } catch {
                warning = "the sync folder could not be written (\(error)); the local backup is fine"
            }
        }
        return (.written(listing(snapshot, kind: .latest, name: "latest", url: files.latestURL)), warning)
    }

    /// Every snapshot here and, with a sync folder, other installations' latest ones.
    /// Files that cannot be read are reported by name.
    func listings(syncFolder: URL?) throws -> (listings: [BackupListing], unreadable: [String]) {
        var listings: [BackupListing] = []
        var unreadable: [String] = []
        var candidates = try files.files().map { ($0.kind, $0.name, $0.url) }
        if let syncFolder {
            let own = try store.installationID()
            for other in try RecoveryBackupFiles.otherInstallations(in: syncFolder, excluding: own) {
                candidates.append((.sync, "sync \(other.id.prefix(8))", other.url))
            }
        }
        for (kind, name, url) in candidates {
            do {
                listings.append(listing(try read(url, name: name), kind: kind, name: name, url: url))
            } catch {
                unreadable.append(name)
            }
        }
        return (listings, unreadable)
    }

    func read(_ url: URL, name: String) throws -> RecoverySnapshot {
        let data: Data
        do {
            let handle = try FileHandle(forReadingFrom: url)
            // Closing a file only read cannot lose data.
            defer { try? handle.close() }
            // Snapshots of a lifetime of weigh-ins stay far below this; anything larger is not ours.
            data = try handle.read(upToCount: 512 * 1024 * 1024) ?? Data()
        } catch {
            throw SnapshotError.unreadable(name, reason: (error as NSError).localizedDescription)
        }
        return try RecoverySnapshot.decode(data, name: name, schema: schema)
    }

    func installationID() throws -> String {
        try store.installationID()
    }

    /// When the last snapshot was written, as the database remembers it.
    func lastBackupAt() throws -> Date? {
        try store.metaValue("lastBackupAt").flatMap(Double.init).map(Date.init(timeIntervalSince1970:))
    }

    func currentContent() throws -> SnapshotContent {
        try store.readContent(schema)
    }

    /// Content with nothing in it, for `delete-all-data`.
    func emptyContent() throws -> SnapshotContent {
        try schema.emptyContent()
    }

    /// Keeps a copy of what is there, then replaces (or merges into) it in one transaction.
    /// Cancelling the awaiting task before the transaction commits leaves everything as it was.
    func restore(_ snapshot: RecoverySnapshot, merge: Bool, now: Date, stamp: String) async throws -> (beforeRestore: String, merged: MergeCounts?) {
        let current = try RecoverySnapshot(content: try store.readContent(schema), createdAt: now,
                                           installationID: try store.installationID(), appVersion: appVersion)
        let copy = try files.writeBeforeRestore(current.encoded(), stamp: stamp)
        return try await store.cancellable {
            if merge {
                let counts = try store.write { try schema.merge(snapshot.content, in: $0) }
                return (copy, MergeCounts(counts))
            }
            try store.replaceContent(with: snapshot.content, schema: schema)
            return (copy, nil)
        }
    }

    /// Where a restore's snapshot is, and how messages name it.
    func locate(_ source: RestoreSource, syncFolder syncFolderURL: URL?) throws -> (URL, String) {
        switch source {
        case .latest: return (try files.url(kind: .latest, name: nil), "latest")
        case .previous: return (try files.url(kind: .previous, name: nil), "previous")
        case let .weekly(week): return (try files.url(kind: .weekly, name: week), "weekly \(week)")
        case let .beforeRestore(name): return (try files.url(kind: .beforeRestore, name: name), "before-restore \(name)")
        case let .file(url):
            guard FileManager.default.fileExists(atPath: url.path) else { throw BackupFileError.noSuchBackup(url.path) }
            return (url, url.path)
        case let .sync(prefix):
            guard let syncFolderURL else { throw BackupFileError.noSyncFolder }
            let own = try installationID()
            let matches = try RecoveryBackupFiles.otherInstallations(in: syncFolderURL, excluding: own)
                .filter { $0.id.hasPrefix(prefix.lowercased()) }
            guard prefix.count >= 4, matches.count == 1, let match = matches.first else {
                throw BackupFileError.noSuchBackup("sync \(prefix)")
            }
            return (match.url, "sync \(match.id.prefix(8))")
        }
    }

    func isWritable(_ path: String) -> Bool {
        FileManager.default.isWritableFile(atPath: path)
    }

    func listing(_ snapshot: RecoverySnapshot, kind: BackupListing.Kind, name: String, url: URL) -> BackupListing {
        BackupListing(name: name, kind: kind, createdAt: snapshot.createdAt, installationID: snapshot.installationID,
                      entries: snapshot.weighIns, habits: snapshot.habits, url: url)
    }
}
