import Foundation
import Storage

/// One snapshot file the person can restore from.
public struct BackupListing: Sendable, Equatable {
    /// Where a snapshot sits: Latest, Previous, a weekly copy, a before-restore copy, or another installation's in the sync folder.
    public enum Kind: String, Sendable, Equatable {
        case latest, previous, weekly, beforeRestore = "before-restore", sync
    }

    /// How `restore` names it: `latest`, `previous`, `weekly 2026-W48`,
    /// `before-restore 2026-11-29T13-40-05Z`, `sync 1a2b3c4d`.
    public let name: String
    public let kind: Kind
    public let createdAt: Date
    public let installationID: String
    public let entries: Int
    public let habits: Int
    public let file: SnapshotFile
    /// Where the file is, for people.
    public var url: URL { file.url }
}

/// Where one snapshot file is: a trusted root (the data directory, the sync
/// folder, or the folder of a file the person named), the folders below it,
/// and the file's name. It is read through `SafeFolder`, so no link on the
/// way is followed and a FIFO is never opened.
public struct SnapshotFile: Sendable, Equatable, SnapshotByteSource {
    public let root: URL
    public let folders: [String]
    public let name: String

    public var url: URL { folders.reduce(root) { $0.appendingPathComponent($1) }.appendingPathComponent(name) }

    /// Snapshots of a lifetime of weigh-ins stay far below this; anything larger is not Trend's.
    static let sizeLimit = 512 * 1_048_576

    /// A file a person named on the command line: its own folder is the root.
    public static func named(_ url: URL) -> SnapshotFile {
        SnapshotFile(root: url.deletingLastPathComponent(), folders: [], name: url.lastPathComponent)
    }

    func read() throws -> Data {
        try SafeFolder.open(root, folders).read(name, limit: Self.sizeLimit)
    }

    /// Calls `body` with the file's bytes, a megabyte at a time.
    func forEachChunk(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        try SafeFolder.open(root, folders).forEachChunk(of: name, body)
    }

    /// The bytes of `range`, read again a megabyte at a time (a streamed member: see `StreamedMember`).
    public func forEachChunk(in range: Range<Int>, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        try SafeFolder.open(root, folders).forEachChunk(of: name, in: range, body)
    }

    /// The file's SHA-256 and size, read a chunk at a time.
    func sha256() throws -> (hash: String, size: Int) {
        try SafeFolder.open(root, folders).sha256(of: name)
    }
}

/// What went wrong with a backup file or folder (the folder rules are `SafeFolder`'s, in Storage).
public typealias BackupFileError = FolderError

/// The recovery files under `<data dir>/Backups/`: `Latest.json` and
/// `Previous.json` (rotated), `Weekly/<YYYY>-W<ww>.json` (one per ISO week,
/// never overwritten) and `Before-restore/<timestamp>.json`. Every write
/// goes to a temporary file that is synced and then renamed, so a killed
/// process leaves the old file or the new one, never half of either. Every
/// step below the data directory is taken without following a link.
public struct RecoveryBackupFiles: Sendable {
    public let folder: URL

    public init(folder: URL) {
        self.folder = folder
    }

    private var dataDirectory: URL { folder.deletingLastPathComponent() }
    private var folderName: String { folder.lastPathComponent }

    static let latest = "Latest.json", previous = "Previous.json", weekly = "Weekly", beforeRestore = "Before-restore"

    var latest: SnapshotFile { SnapshotFile(root: dataDirectory, folders: [folderName], name: Self.latest) }

    /// The Backups folder, made when `create` is true.
    private func backups(create: Bool) throws -> SafeFolder {
        try SafeFolder.open(dataDirectory, [folderName], create: create, createRoot: create)
    }

    /// Whether Latest exists (as a regular file).
    var hasLatest: Bool {
        (try? backups(create: false).entry(Self.latest)) == .file  // No folder yet means no Latest.
    }

    /// A new Latest, written before it replaces the old one: `commitLatest(_:rotating:)` puts it in place.
    func pendingLatest() throws -> PendingFile {
        try backups(create: true).pending(Self.latest)
    }

    /// Puts a written Latest in place; with `rotating`, the old Latest becomes Previous.
    func commitLatest(_ file: PendingFile, rotating: Bool) throws {
        try file.commit(rotatingTo: rotating ? Self.previous : nil)
    }

    /// Writes the week's copy of Latest unless it exists; true when written.
    /// The copy is a hard link to Latest: no second write of a large file,
    /// and a later rotation of Latest leaves it as it was (where links cannot
    /// be made, a copy). A planted link or FIFO in its place is removed, never taken for the copy.
    @discardableResult
    public func writeWeekly(week: String) throws -> Bool {
        try Self.writeWeekly(week: week, in: try backups(create: true))
    }

    static func writeWeekly(week: String, in backups: SafeFolder) throws -> Bool {
        let weekly = try backups.subfolder(Self.weekly, create: true)
        let name = "\(week).json"
        if weekly.entry(name) == .file { return false }
        weekly.removePlanted(name)
        if weekly.link(name, to: Self.latest, in: backups) { return true }
        _ = try weekly.copy(Self.latest, from: backups, as: name)
        return true
    }

    /// How many Before-restore copies are kept whatever their day, and for how
    /// many days besides the newest copy of each day (60 attempts made 830 MB).
    static let beforeRestoreKept = 10, beforeRestoreDays = 30

    /// Removes what killed processes left in the backup folders (their temporaries).
    func removeStaleTemporaries() {
        guard let backups = try? backups(create: false) else { return }  // No folder yet: nothing was left.
        backups.removeStaleTemporaries()
        for sub in [Self.weekly, Self.beforeRestore] {
            (try? backups.subfolder(sub, create: false))?.removeStaleTemporaries()  // Missing: nothing to clean.
        }
    }

    /// Keeps the newest `beforeRestoreKept` Before-restore copies and the newest
    /// copy of each of the last `beforeRestoreDays` days that have one; removes the rest.
    func pruneBeforeRestore() throws {
        let folder = try backups(create: false).subfolder(Self.beforeRestore, create: false)
        // Names are UTC stamps (`2026-11-29T13-40-05Z`, then `-2` …): in name order is in time order.
        let names = try folder.names().filter { $0.hasSuffix(".json") }.sorted(by: >)
        var days: Set<Substring> = []
        for (index, name) in names.enumerated() {
            let day = name.prefix(10)
            let newestOfItsDay = days.insert(day).inserted
            if index < Self.beforeRestoreKept || (newestOfItsDay && days.count <= Self.beforeRestoreDays) { continue }
            folder.remove(name)
        }
    }

    /// Removes the Before-restore copy `name` (a restore that found nothing to replace keeps none).
    func removeBeforeRestore(_ name: String) {
        // Best effort: a copy that stays is only a duplicate of what is here.
        (try? backups(create: false).subfolder(Self.beforeRestore, create: false))?.remove("\(name).json")
    }

    /// Keeps what is about to be replaced, written by `write`; returns the copy's name.
    func writeBeforeRestore(stamp: String, _ write: (PendingFile) throws -> Void) throws -> String {
        let folder = try backups(create: true).subfolder(Self.beforeRestore, create: true)
        var name = stamp
        var counter = 1
        while folder.entry("\(name).json") != .missing {
            counter += 1
            name = "\(stamp)-\(counter)"
        }
        let file = try folder.pending("\(name).json")
        try write(file)
        try file.commit()
        try pruneBeforeRestore()
        return name
    }

    /// Mirrors Latest to `<sync folder>/Backups/<installationID>/`, a chunk at
    /// a time, and checks the copy's bytes hash to `fileHash`. The sync folder
    /// must exist (it is never made); when this installation's folder there is
    /// a link or not a folder, nothing is written.
    func mirrorLatest(fileHash: String, week: String, rotating: Bool, to syncFolder: URL, installationID: String) throws {
        guard SafeFolder.isPlainName(installationID) else { throw BackupFileError.outsideBackupFolder(installationID) }
        // A private sync folder holds nothing readable (DESIGN §11): no snapshot is mirrored there, and one mirrored
        // before it went private goes.
        guard !PrivateSyncMarker.isPrivate(syncFolder) else { return Self.removeMirror(of: installationID, in: syncFolder) }
        let own = try SafeFolder.open(syncFolder, ["Backups", installationID], create: true)
        _ = try own.copy(Self.latest, from: try backups(create: false), as: Self.latest, rotatingTo: rotating ? Self.previous : nil,
                         expecting: fileHash)
        _ = try Self.writeWeekly(week: week, in: own)
    }

    /// Removes this installation's mirrored snapshots from the sync folder (best effort: what cannot be removed stays).
    static func removeMirror(of installationID: String, in syncFolder: URL) {
        guard let own = try? SafeFolder.open(syncFolder, ["Backups", installationID]) else { return }  // None mirrored.
        for name in (try? own.names()) ?? [] where own.entry(name) == .file { own.remove(name) }
        if let weekly = try? own.subfolder(weekly, create: false) {  // No weekly copies: nothing more.
            for name in (try? weekly.names()) ?? [] where weekly.entry(name) == .file { weekly.remove(name) }
        }
    }

    /// The file behind a backup name, refusing anything that would leave the folder.
    public func file(kind: BackupListing.Kind, name: String?) throws -> SnapshotFile {
        switch kind {
        case .latest: return try existing([], Self.latest, name: "latest")
        case .previous: return try existing([], Self.previous, name: "previous")
        case .weekly:
            guard let name, name.range(of: #"^\d{4}-W\d{2}$"#, options: .regularExpression) != nil else {
                throw BackupFileError.noSuchBackup("weekly \(name ?? "")")
            }
            return try existing([Self.weekly], "\(name).json", name: "weekly \(name)")
        case .beforeRestore:
            guard let name, SafeFolder.isPlainName(name) else { throw BackupFileError.outsideBackupFolder(name ?? "") }
            return try existing([Self.beforeRestore], "\(name).json", name: "before-restore \(name)")
        case .sync:
            throw BackupFileError.noSuchBackup("sync \(name ?? "")")
        }
    }

    private func existing(_ folders: [String], _ file: String, name: String) throws -> SnapshotFile {
        let location = SnapshotFile(root: dataDirectory, folders: [folderName] + folders, name: file)
        let entry: SafeFolder.Entry
        do {
            entry = try SafeFolder.open(dataDirectory, [folderName] + folders).entry(file)
        } catch BackupFileError.missingFolder {
            throw BackupFileError.noSuchBackup(name)
        }
        switch entry {
        case .file: return location
        case .missing: throw BackupFileError.noSuchBackup(name)
        case .link: throw BackupFileError.linkRefused(location.url.path)
        case .folder, .other: throw BackupFileError.notARegularFile(location.url.path)
        }
    }

    /// The snapshot files here, newest first within each kind, and what was
    /// passed over (a link, a FIFO) with why.
    public func files() throws -> (files: [(kind: BackupListing.Kind, name: String, file: SnapshotFile)], skipped: [String]) {
        var found: [(BackupListing.Kind, String, SnapshotFile)] = []
        var skipped: [String] = []
        let backups: SafeFolder
        do {
            backups = try self.backups(create: false)
        } catch BackupFileError.missingFolder {
            return ([], [])
        }
        func note(_ folder: SafeFolder, _ file: String) -> Bool {
            switch folder.entry(file) {
            case .file: return true
            case .missing: return false
            case .link: skipped.append("\(folder.path)/\(file) (a symbolic link)"); return false
            case .folder, .other: skipped.append("\(folder.path)/\(file) (not a regular file)"); return false
            }
        }
        for (kind, file, name) in [(BackupListing.Kind.latest, Self.latest, "latest"), (.previous, Self.previous, "previous")]
        where note(backups, file) {
            found.append((kind, name, SnapshotFile(root: dataDirectory, folders: [folderName], name: file)))
        }
        for (kind, sub, prefix) in [(BackupListing.Kind.weekly, Self.weekly, "weekly "), (.beforeRestore, Self.beforeRestore, "before-restore ")] {
            let folder: SafeFolder
            do {
                folder = try backups.subfolder(sub, create: false)
            } catch BackupFileError.missingFolder {
                continue
            }
            for file in try folder.names().filter({ $0.hasSuffix(".json") }).sorted(by: >) where note(folder, file) {
                found.append((kind, prefix + String(file.dropLast(5)),
                              SnapshotFile(root: dataDirectory, folders: [folderName, sub], name: file)))
            }
        }
        return (found, skipped)
    }

    /// The Latest snapshots of other installations in the sync folder. Links,
    /// FIFOs and anything else that is not a folder holding a regular
    /// Latest.json are passed over.
    public static func otherInstallations(in syncFolder: URL, excluding installationID: String) throws -> [(id: String, file: SnapshotFile)] {
        let backups: SafeFolder
        do {
            backups = try SafeFolder.open(syncFolder, ["Backups"])
        } catch BackupFileError.missingFolder {
            return []
        }
        return try backups.names().filter { $0 != installationID && backups.entry($0) == .folder }.compactMap { id in
            guard let folder = try? backups.subfolder(id, create: false),  // Gone or replaced since it was listed: skipped.
                  folder.entry(latest) == .file else { return nil }
            return (id, SnapshotFile(root: syncFolder, folders: ["Backups", id], name: latest))
        }
    }
}
