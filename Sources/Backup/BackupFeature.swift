/// Backup owns recovery snapshots: their versioned, hashed JSON, the files
/// under `Backups/` (rotation, weekly copies, before-restore copies, the sync
/// folder mirror), restore and merge, and BackupFeature. It imports Storage,
/// Settings and Cryptography (the SHA-256 of a snapshot); no other feature:
/// each table's rows reach it through `SnapshotSchema`.
import Foundation
import Observation
import Settings
import Storage
import Vocabulary

/// Where a restore comes from.
public enum RestoreSource: Sendable, Equatable {
    case latest
    case previous
    case weekly(String)
    case beforeRestore(String)
    /// Another installation's latest snapshot in the sync folder, by id prefix.
    case sync(String)
    case file(URL)
}

/// A validated snapshot and what it would replace, for the confirmation.
public struct RestorePlan: Sendable {
    public let name: String
    public let snapshot: RecoverySnapshot
    public let currentEntries: Int
    public let currentHabits: Int
    public let currentFirst: Date?
    public let currentLast: Date?
    public let incomingFirst: Date?
    public let incomingLast: Date?
    /// The portable settings a replacing restore would change.
    public let settingChanges: [SettingsTable.Change]
    /// Settings in the snapshot a restore leaves out: device-local or unknown.
    public let ignoredSettings: Int
}

/// What a restore did.
public struct RestoreResult: Sendable, Equatable {
    public let name: String
    /// The copy of what was there, or nil when nothing was replaced (`unchanged`).
    public let beforeRestoreName: String?
    /// The snapshot held what the database holds already: nothing was written or journaled.
    public var unchanged: Bool { beforeRestoreName == nil }
    public let entries: Int
    public let habits: Int
    public let merged: MergeCounts?
}

/// The backup state shown by `backup status`.
public struct BackupStatus: Sendable, Equatable {
    public let lastBackupAt: Date?
    public let nextAutomaticAfter: Date?
    public let syncFolder: String?
    public let syncFolderWritable: Bool?
    public let folder: URL
    /// The last snapshot that could not be written, until one is.
    public let lastFailure: BackupFailure?
    /// A snapshot failed and the next automatic one is late (or none was ever written).
    public let overdue: Bool
}

/// A snapshot that could not be written: when, and why.
public struct BackupFailure: Sendable, Equatable {
    public let at: Date
    public let reason: String
}

/// Never lose a weigh-in: automatic snapshots (at launch, on becoming
/// active, after changes, before exit; at most one a day and only when
/// something changed), `backup now`, restore and merge, the sync folder.
/// `onRestore` refreshes every Feature after a restore; `AppModel.assemble(_:)` builds it.
@MainActor
@Observable
public final class BackupFeature {
    public private(set) var lastSnapshot: BackupListing?
    public private(set) var isBackingUp = false
    public private(set) var lastError: (any Error)?
    /// A problem with the sync folder that did not stop the local backup.
    public private(set) var syncWarning: String?

    @ObservationIgnored private let worker: BackupWorker
    @ObservationIgnored private let storage: LocalDataStore
    @ObservationIgnored private let files: RecoveryBackupFiles
    @ObservationIgnored private let acrossDevices: DeletionAcrossDevices
    @ObservationIgnored private let settings: UserSettingsStore
    @ObservationIgnored private let calendar: Calendar

    /// The person's time zone, the injected calendar's: the zone times are shown in.
    public var timeZone: TimeZone { calendar.timeZone }
    @ObservationIgnored private let currentDate: @MainActor () -> Date
    @ObservationIgnored private let onRestore: @MainActor () async -> Void
    @ObservationIgnored private let debounce: Duration
    @ObservationIgnored private let checking = SingleFlight()
    @ObservationIgnored private var pendingChange = false
    @ObservationIgnored private var debounceTask: Task<Void, Never>?
    /// Waits out the debounce: the real clock's sleep in the program, a timer the test moves in tests.
    @ObservationIgnored private let sleep: @Sendable (Duration) async throws -> Void
    @ObservationIgnored private var observing = false

    /// - Parameters:
    ///   - storage: the database the snapshots copy.
    ///   - schema: the table owners' sections a snapshot covers; `AppModel.assemble(_:)` lists them.
    ///   - files: the `Backups/` folder.
    ///   - settings: the settings (the sync folder is one).
    ///   - calendar: the person's calendar, for the ISO week of a weekly copy.
    ///   - currentDate: the clock.
    ///   - appVersion: written into every snapshot.
    ///   - debounce: how long the check waits after a change for things to settle.
    ///   - sleep: waits that long (`Task.sleep` in the program; a test's timer it advances).
    ///   - acrossDevices: what deleting all data does to the sync (AppCore wires it to `SyncFeature`).
    ///   - onRestore: refreshes every Feature after a restore.
    public init(storage: LocalDataStore, schema: SnapshotSchema, files: RecoveryBackupFiles, settings: UserSettingsStore,
                calendar: Calendar, currentDate: @escaping @MainActor () -> Date, appVersion: String, debounce: Duration,
                sleep: @escaping @Sendable (Duration) async throws -> Void, acrossDevices: DeletionAcrossDevices = .unsynced,
                onRestore: @escaping @MainActor () async -> Void) {
        self.storage = storage
        self.acrossDevices = acrossDevices
        self.files = files
        self.settings = settings
        self.calendar = calendar
        self.currentDate = currentDate
        self.debounce = debounce
        self.sleep = sleep
        self.onRestore = onRestore
        worker = BackupWorker(store: storage, schema: schema, files: files, appVersion: appVersion)
    }

    /// Listens for committed changes; each one (re)starts the debounced check.
    public func observeLocalChanges() {
        guard !observing else { return }
        observing = true
        storage.addChangeObserver { [weak self] in
            Task { @MainActor in self?.noteLocalChange() }
        }
    }

    /// Launch and became-active: run the check without waiting for it.
    public func startLoading() {
        checking.start { await self.performCheck(force: false) }
    }

    /// The automatic check (24-hour rule, content changed), joining one in flight.
    public func triggerDataBackupIfNeeded() async {
        await checking.run { await self.performCheck(force: false) }
    }

    /// Something was written: check once things settle.
    public func noteLocalChange() {
        pendingChange = true
        debounceTask?.cancel()
        let delay = debounce, sleep = sleep
        debounceTask = Task { @MainActor in
            do { try await sleep(delay) } catch { return }
            await self.flushPendingBackup()
        }
    }

    /// Runs a pending check now (before the process exits) and waits for any in flight.
    public func flushPendingBackup() async {
        debounceTask?.cancel()
        debounceTask = nil
        if pendingChange {
            pendingChange = false
            await triggerDataBackupIfNeeded()
        }
        await checking.run {}
    }

    /// A snapshot now, whatever the 24-hour rule says.
    public func backupNow() async throws -> BackupListing {
        await checking.run {}
        isBackingUp = true
        defer { isBackingUp = false }
        try await settings.ensureLoaded()
        let now = currentDate()
        try PlausibleTime.checkClock(now)
        do {
            let (check, warning) = try await worker.check(now: now, force: true, week: isoWeek(now), syncFolder: syncFolderURL)
            syncWarning = warning
            guard case let .written(listing) = check else {
                throw BackupFileError.cannotWrite(files.folder.path, reason: "no snapshot was written")
            }
            try await worker.clearFailure()
            lastSnapshot = listing
            lastError = nil
            return listing
        } catch BackupFileError.nothingToBackUp {
            throw BackupFileError.nothingToBackUp
        } catch {
            try? await worker.recordFailure(BackupFailure(at: now, reason: "\(error)"))  // The error itself is what the caller hears.
            throw error
        }
    }

    public func status() async throws -> BackupStatus {
        try await settings.ensureLoaded()
        let last = try await worker.lastBackupAt()
        let folder = settings.settings.syncFolder
        var writable: Bool?
        if let folder { writable = await worker.isWritable(folder) }
        let failure = try await worker.lastFailure()
        let next = last?.addingTimeInterval(BackupWorker.automaticInterval)
        return BackupStatus(lastBackupAt: last, nextAutomaticAfter: next, syncFolder: folder, syncFolderWritable: writable,
                            folder: files.folder, lastFailure: failure,
                            overdue: failure != nil && (next.map { currentDate() > $0 } ?? true))
    }

    /// Warnings to show now: what opening the database set aside, and, once a
    /// day while automatic snapshots fail, that they do. Saying one counts as
    /// showing it: the failure comes back a day later if still true.
    public func pendingWarnings() async -> [String] {
        var warnings = await worker.storageWarnings()
        let now = currentDate()
        guard let failure = try? await worker.lastFailure(),  // A database that cannot be read has its own error to show.
              (try? await worker.failureWarnedRecently(now: now)) == false else { return warnings }
        try? await worker.noteFailureWarned(now: now)  // At worst the warning comes again at the next command.
        warnings.append("the last backup snapshot could not be written (\(failure.reason)); 'backup status' shows it, 'backup now' tries again")
        return warnings
    }

    /// At exit, after the last backup check: closes the database so no `-wal` or `-shm` stays behind.
    public func closeStorage() async {
        await worker.closeStorage()
    }

    /// Every snapshot that can be restored, and the names of those that cannot be read.
    public func listings() async throws -> (listings: [BackupListing], unreadable: [String]) {
        try await settings.ensureLoaded()
        return try await worker.listings(syncFolder: syncFolderURL)
    }

    /// Reads and validates a snapshot and measures what it would replace. Changes nothing.
    /// With `skippingInvalid`, rows out of range are left out (the plan's
    /// `snapshot.dropped` lists them) instead of refusing the whole file.
    public func prepareRestore(from source: RestoreSource, skippingInvalid: Bool = false) async throws -> RestorePlan {
        try await settings.ensureLoaded()
        let (url, name) = try await worker.locate(source, syncFolder: syncFolderURL)
        let snapshot = try await worker.read(url, name: name, skippingInvalid: skippingInvalid)
        let current = try await worker.currentSummary()
        let currentSpan = current.spans["weights"]
        let incomingSpan = snapshot.content.dateSpan(of: "weights")
        let noSettings = SettingsTable.Part(rows: [])
        let incomingSettings = snapshot.content.part("settings", as: SettingsTable.Part.self) ?? noSettings
        return RestorePlan(name: name, snapshot: snapshot, currentEntries: current.counts["weights", default: 0],
                           currentHabits: current.counts["habits", default: 0],
                           currentFirst: currentSpan?.lowerBound, currentLast: currentSpan?.upperBound,
                           incomingFirst: incomingSpan?.lowerBound, incomingLast: incomingSpan?.upperBound,
                           settingChanges: SettingsTable.changes(
                               from: current.parts["settings"] as? SettingsTable.Part ?? noSettings, to: incomingSettings),
                           ignoredSettings: SettingsTable.ignoredCount(in: incomingSettings))
    }

    /// Writes a Before-restore copy, replaces (or merges into) everything in
    /// one transaction, then refreshes every Feature before returning.
    public func restore(_ plan: RestorePlan, merge: Bool = false) async throws -> RestoreResult {
        await checking.run {}
        let now = currentDate()
        try PlausibleTime.checkClock(now)
        let journal = JournalEntry(action: "restore", summary: "\(merge ? "merge" : "restore") of \(plan.name)", at: now)
        // On a device that syncs, a restore sets what its snapshot holds and deletes nothing the other devices have.
        let (copy, counts) = try await worker.restore(plan.snapshot, merge: merge, now: now, stamp: Self.stamp(now), journal: journal,
                                                      keepingSynced: syncFolderURL != nil)
        if copy != nil {
            pendingChange = false
            debounceTask?.cancel()
            await onRestore()
        }
        return RestoreResult(name: plan.name, beforeRestoreName: copy, entries: plan.snapshot.weighIns,
                             habits: plan.snapshot.habits, merged: counts)
    }

    /// Deletes every weigh-in, habit and setting after keeping a Before-restore
    /// copy, whose name it returns; nil when there was nothing to delete (nothing was changed).
    ///
    /// On a device that syncs, this device alone (the default) first leaves the sync: the others keep everything
    /// and are told it left. `everywhere`, the deletes travel, and the others say once who deleted all data, where
    /// `undo` brings it back (DESIGN §8).
    public func deleteAllData(everywhere: Bool = false) async throws -> String? {
        await checking.run {}
        let now = currentDate()
        try PlausibleTime.checkClock(now)
        let syncing = settings.settings.syncFolder != nil
        if syncing, !everywhere { try await acrossDevices.leave() }
        let empty = try RecoverySnapshot(content: try await worker.emptyContent(), createdAt: now, installationID: "",
                                         appVersion: "")
        let journal = JournalEntry(action: "delete-all-data", summary: "delete all data", at: now)
        let (copy, _) = try await worker.restore(empty, merge: false, now: now, stamp: Self.stamp(now), journal: journal)
        if copy != nil, syncing, everywhere { try await acrossDevices.announceDeletedEverywhere() }
        if copy != nil { await onRestore() }
        return copy
    }

    /// The sync folder went private (DESIGN §11): the snapshots this installation mirrored there in plain go.
    public func removePlainMirror() async {
        guard let syncFolderURL else { return }
        await worker.removePlainMirror(from: syncFolderURL)
    }

    private var syncFolderURL: URL? {
        settings.settings.syncFolder.map { URL(fileURLWithPath: $0) }
    }

    private func performCheck(force: Bool) async {
        isBackingUp = true
        defer { isBackingUp = false }
        do {
            try await settings.ensureLoaded()
            let now = currentDate()
            try PlausibleTime.checkClock(now)
            let (check, warning) = try await worker.check(now: now, force: force, week: isoWeek(now), syncFolder: syncFolderURL)
            syncWarning = warning
            if case let .written(listing) = check {
                lastSnapshot = listing
                try await worker.clearFailure()
            }
            lastError = nil
        } catch {
            lastError = error
            try? await worker.recordFailure(BackupFailure(at: currentDate(), reason: "\(error)"))  // Kept in lastError regardless.
        }
    }

    /// `2026-W48`: the ISO week of a moment, in the person's time zone.
    func isoWeek(_ date: Date) -> String {
        var iso = Calendar(identifier: .iso8601)
        iso.timeZone = calendar.timeZone
        let parts = iso.dateComponents([.yearForWeekOfYear, .weekOfYear], from: date)
        return String(format: "%04d-W%02d", parts.yearForWeekOfYear ?? 0, parts.weekOfYear ?? 0)
    }

    /// A file-name-safe UTC timestamp, `2026-11-29T13-40-05Z`.
    static func stamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH-mm-ss'Z'"
        return formatter.string(from: date)
    }
}

/// What deleting all data does to the sync, as AppCore wires it to `SyncFeature`: this device leaves it (the
/// others keep everything), or the others are told it deleted all data everywhere.
public struct DeletionAcrossDevices: Sendable {
    public let leave: @MainActor @Sendable () async throws -> Void
    public let announceDeletedEverywhere: @MainActor @Sendable () async throws -> Void

    public init(leave: @escaping @MainActor @Sendable () async throws -> Void,
                announceDeletedEverywhere: @escaping @MainActor @Sendable () async throws -> Void) {
        self.leave = leave
        self.announceDeletedEverywhere = announceDeletedEverywhere
    }

    /// A program without sync: nothing to leave, no one to tell.
    public static let unsynced = DeletionAcrossDevices(leave: {}, announceDeletedEverywhere: {})
}
