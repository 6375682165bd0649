import Foundation

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
    public let url: URL
}

/// Why a backup file could not be found or written.
public enum BackupFileError: Error, Equatable, CustomStringConvertible, Sendable {
    case noSuchBackup(String)
    case outsideBackupFolder(String)
    case cannotWrite(String, reason: String)
    case cannotList(String, reason: String)
    /// A sync-folder backup was asked for, and no sync folder is set.
    case noSyncFolder

    public var description: String {
        switch self {
        case let .noSuchBackup(name): "there is no backup '\(name)'"
        case let .outsideBackupFolder(name): "'\(name)' is not a backup name (names cannot hold '/' or '..', and links out of the Backups folder are refused)"
        case let .cannotWrite(path, reason): "cannot write \(path): \(reason); nothing was changed"
        case .noSyncFolder: "no sync folder is set"
        case let .cannotList(path, reason): "cannot read the folder \(path): \(reason)"
        }
    }
}

/// The recovery files under `<data dir>/Backups/`: `Latest.json` and
/// `Previous.json` (rotated), `Weekly/<YYYY>-W<ww>.json` (one per ISO week,
/// never overwritten) and `Before-restore/<timestamp>.json`. Every write
/// goes to a temporary file that is synced and then renamed, so a killed
/// process leaves the old file or the new one, never half of either.
public struct RecoveryBackupFiles: Sendable {
    public let folder: URL

    public init(folder: URL) {
        self.folder = folder
    }

    var latestURL: URL { folder.appendingPathComponent("Latest.json") }
    var previousURL: URL { folder.appendingPathComponent("Previous.json") }
    var weeklyFolder: URL { folder.appendingPathComponent("Weekly") }
    var beforeRestoreFolder: URL { folder.appendingPathComponent("Before-restore") }

    /// Writes `data` as the new Latest, moving the old one to Previous.
    public func writeLatest(_ data: Data) throws {
        try Self.atomicWrite(data, to: latestURL, rotatingTo: previousURL)
    }

    /// Writes the week's copy unless it exists; true when written. When
    /// `sameAs` holds these bytes already (Latest), the copy is a hard link
    /// to it: no second write of a large file, and a rotation of Latest later
    /// leaves the weekly copy as it was.
    @discardableResult
    public func writeWeekly(_ data: Data, week: String, sameAs existing: URL? = nil) throws -> Bool {
        let url = weeklyFolder.appendingPathComponent("\(week).json")
        guard !FileManager.default.fileExists(atPath: url.path) else { return false }
        if let existing {
            // Best effort: when the folder cannot be made, the link fails too and the copy below reports why.
            try? FileManager.default.createDirectory(at: weeklyFolder, withIntermediateDirectories: true,
                                                     attributes: [.posixPermissions: 0o700])
            if link(existing.path, url.path) == 0 { return true }
        }
        try Self.atomicWrite(data, to: url)
        return true
    }

    /// Keeps what is about to be replaced; returns the copy's name.
    public func writeBeforeRestore(_ data: Data, stamp: String) throws -> String {
        var name = stamp
        var counter = 1
        while FileManager.default.fileExists(atPath: beforeRestoreFolder.appendingPathComponent("\(name).json").path) {
            counter += 1
            name = "\(stamp)-\(counter)"
        }
        try Self.atomicWrite(data, to: beforeRestoreFolder.appendingPathComponent("\(name).json"))
        return name
    }

    /// Mirrors a snapshot to `<sync folder>/Backups/<installationID>/`.
    public func mirror(_ data: Data, week: String, to syncFolder: URL, installationID: String) throws {
        let target = RecoveryBackupFiles(folder: Self.syncFolder(syncFolder, installationID: installationID))
        try target.writeLatest(data)
        try target.writeWeekly(data, week: week, sameAs: target.latestURL)
    }

    static func syncFolder(_ root: URL, installationID: String) -> URL {
        root.appendingPathComponent("Backups").appendingPathComponent(installationID)
    }

    /// The file behind a backup name, refusing anything that would leave the folder.
    public func url(kind: BackupListing.Kind, name: String?) throws -> URL {
        switch kind {
        case .latest: return try existing(latestURL, name: "latest")
        case .previous: return try existing(previousURL, name: "previous")
        case .weekly:
            guard let name, name.range(of: #"^\d{4}-W\d{2}$"#, options: .regularExpression) != nil else {
                throw BackupFileError.noSuchBackup("weekly \(name ?? "")")
            }
            return try existing(weeklyFolder.appendingPathComponent("\(name).json"), name: "weekly \(name)")
        case .beforeRestore:
            guard let name, !name.contains("/"), !name.contains(".."), !name.isEmpty else {
                throw BackupFileError.outsideBackupFolder(name ?? "")
            }
            return try existing(beforeRestoreFolder.appendingPathComponent("\(name).json"), name: "before-restore \(name)")
        case .sync:
            throw BackupFileError.noSuchBackup("sync \(name ?? "")")
        }
    }

    private func existing(_ url: URL, name: String) throws -> URL {
        let values: URLResourceValues
        do {
            values = try url.resourceValues(forKeys: [.isSymbolicLinkKey, .isRegularFileKey])
        } catch {
            throw BackupFileError.noSuchBackup(name)
        }
        if values.isSymbolicLink == true {
            let resolved = url.resolvingSymlinksInPath().path
            guard resolved.hasPrefix(folder.resolvingSymlinksInPath().path + "/") else {
                throw BackupFileError.outsideBackupFolder(name)
            }
        }
        return url
    }

    /// The snapshot files here, newest first within each kind.
    public func files() throws -> [(kind: BackupListing.Kind, name: String, url: URL)] {
        var found: [(BackupListing.Kind, String, URL)] = []
        if FileManager.default.fileExists(atPath: latestURL.path) { found.append((.latest, "latest", latestURL)) }
        if FileManager.default.fileExists(atPath: previousURL.path) { found.append((.previous, "previous", previousURL)) }
        for (kind, directory, prefix) in [(BackupListing.Kind.weekly, weeklyFolder, "weekly "),
                                          (.beforeRestore, beforeRestoreFolder, "before-restore ")] {
            let names = try Self.names(in: directory)
            for file in names.filter({ $0.hasSuffix(".json") && !$0.hasPrefix(".") }).sorted(by: >) {
                found.append((kind, prefix + String(file.dropLast(5)), directory.appendingPathComponent(file)))
            }
        }
        return found
    }

    /// Latest snapshots of other installations in the sync folder.
    public static func otherInstallations(in syncFolder: URL, excluding installationID: String) throws -> [(id: String, url: URL)] {
        let root = syncFolder.appendingPathComponent("Backups")
        let ids = try names(in: root)
        return ids.sorted().filter { $0 != installationID && !$0.hasPrefix(".") }.compactMap { id in
            let url = root.appendingPathComponent(id).appendingPathComponent("Latest.json")
            return FileManager.default.fileExists(atPath: url.path) ? (id, url) : nil
        }
    }

    /// The names in a folder; none when the folder does not exist yet (no snapshot was written there).
    static func names(in directory: URL) throws -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch let error as NSError where error.code == CocoaError.fileReadNoSuchFile.rawValue
            || (error.userInfo[NSUnderlyingErrorKey] as? NSError)?.code == Int(ENOENT) {
            return []
        } catch {
            throw BackupFileError.cannotList(directory.path, reason: (error as NSError).localizedDescription)
        }
    }

    /// Temp file (0600), fsync, optional rotation of the old file, rename, fsync of the folder.
    static func atomicWrite(_ data: Data, to url: URL, rotatingTo previous: URL? = nil) throws {
        let directory = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw BackupFileError.cannotWrite(directory.path, reason: (error as NSError).localizedDescription)
        }
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { throw BackupFileError.cannotWrite(temporary.path, reason: String(cString: strerror(errno))) }
        var failure: String?
        data.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = String(cString: strerror(errno))
                    return
                }
                offset += written
            }
        }
        if failure == nil, fsync(descriptor) != 0 { failure = String(cString: strerror(errno)) }
        fchmod(descriptor, 0o600)
        close(descriptor)
        if let failure {
            unlink(temporary.path)
            throw BackupFileError.cannotWrite(url.path, reason: failure)
        }
        if let previous, FileManager.default.fileExists(atPath: url.path) {
            rename(url.path, previous.path)
        }
        guard rename(temporary.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary.path)
            throw BackupFileError.cannotWrite(url.path, reason: reason)
        }
        let folder = open(directory.path, O_RDONLY)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
    }
}
