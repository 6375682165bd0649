import Foundation

/// A folder opened without following links below a trusted root, whose
/// files are read and written relative to its descriptor.
///
/// A sync folder is written by other machines and programs, and a data
/// directory can be tampered with: every step below the root is opened with
/// `O_NOFOLLOW`, files are read only when they are regular files (opened
/// non-blocking, so a FIFO never hangs), with a size cap, and writes go to a
/// temporary file in the same folder that is then renamed over the target.
/// Nothing here can be steered outside the folder it was opened on.
public final class SafeFolder: @unchecked Sendable {
    /// The most a file read a chunk at a time may hold (a snapshot of a long history is far below it).
    public static let chunkedLimit = 512 * 1_048_576
    // @unchecked: the descriptor is only read, and closed once in deinit.
    let descriptor: Int32
    /// How messages name the folder.
    public let path: String

    private init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit {
        close(descriptor)
    }

    /// What sits at a name in a folder, without following a link.
    public enum Entry: Equatable {
        case missing, file, folder, link, other
    }

    /// Opens `root` (trusted: the data directory, or the sync folder a person
    /// chose; it may itself be a link), then each of `components` below it
    /// without following links. Missing components are made (0700) when
    /// `create` is true; a missing root only when `createRoot` is (the data
    /// directory, never a sync folder).
    public static func open(_ root: URL, _ components: [String] = [], create: Bool = false, createRoot: Bool = false) throws -> SafeFolder {
        if createRoot, !FileManager.default.fileExists(atPath: root.path) {
            do {
                try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
            } catch {
                throw FolderError.cannotWrite(root.path, reason: (error as NSError).localizedDescription)
            }
        }
        let rootDescriptor = Foundation.open(root.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard rootDescriptor >= 0 else {
            if errno == ENOENT { throw FolderError.missingFolder(root.path) }
            throw FolderError.cannotList(root.path, reason: String(cString: strerror(errno)))
        }
        var folder = SafeFolder(descriptor: rootDescriptor, path: root.path)
        for component in components {
            folder = try folder.subfolder(component, create: create)
        }
        return folder
    }

    /// A folder inside this one, never through a link.
    public func subfolder(_ name: String, create: Bool) throws -> SafeFolder {
        let path = self.path + "/" + name
        guard Self.isPlainName(name) else { throw FolderError.outsideBackupFolder(name) }
        if create, entry(name) == .missing, mkdirat(descriptor, name, 0o700) != 0, errno != EEXIST {
            throw FolderError.cannotWrite(path, reason: String(cString: strerror(errno)))
        }
        try require(name, is: .folder)
        let child = openat(descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard child >= 0 else { throw FolderError.cannotList(path, reason: String(cString: strerror(errno))) }
        return SafeFolder(descriptor: child, path: path)
    }

    public func entry(_ name: String) -> Entry {
        var info = stat()
        guard fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .folder
        case S_IFLNK: return .link
        default: return .other
        }
    }

    /// A regular file's size and time of last change (ns since 1970), nil for anything else or nothing:
    /// enough to tell a file was replaced since it was written, without reading it.
    public func fileStatus(_ name: String) -> (size: Int, modifiedNs: Int)? {
        var info = stat()
        guard Self.isPlainName(name), fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return (Int(info.st_size), Int(info.st_mtim.tv_sec) &* 1_000_000_000 &+ Int(info.st_mtim.tv_nsec))
    }

    /// Throws unless `name` is a folder or a regular file (as `expected` says), naming what it is instead.
    private func require(_ name: String, is expected: Entry) throws {
        let found = entry(name), path = self.path + "/" + name
        guard found != expected else { return }
        switch found {
        case .missing: throw expected == .folder ? FolderError.missingFolder(path) : FolderError.noSuchBackup(path)
        case .link: throw FolderError.linkRefused(path)
        default: throw expected == .folder ? FolderError.notAFolder(path) : FolderError.notARegularFile(path)
        }
    }

    /// The names in the folder, hidden ones left out.
    public func names(includingHidden: Bool = false) throws -> [String] {
        let copy = dup(descriptor)
        guard copy >= 0, let stream = fdopendir(copy) else {
            if copy >= 0 { close(copy) }
            throw FolderError.cannotList(path, reason: String(cString: strerror(errno)))
        }
        defer { closedir(stream) }
        rewinddir(stream)
        var names: [String] = []
        while let item = readdir(stream) {
            let name = withUnsafePointer(to: item.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if includingHidden ? name != "." && name != ".." : !name.hasPrefix(".") { names.append(name) }
        }
        return names.sorted()
    }

    /// Opens `name` for reading when it is a regular file (a link, FIFO, device
    /// or folder is refused without being opened): its descriptor, which the
    /// caller closes, its size and its path for messages.
    private func openRegularFile(_ name: String) throws -> (descriptor: Int32, size: Int, path: String) {
        let path = self.path + "/" + name
        try require(name, is: .file)
        let file = openat(descriptor, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard file >= 0 else { throw FolderError.cannotRead(path, reason: String(cString: strerror(errno))) }
        var info = stat()
        guard fstat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(file)
            throw FolderError.notARegularFile(path)
        }
        return (file, Int(info.st_size), path)
    }

    /// A regular file's bytes, at most `limit` of them; a link, FIFO, device
    /// or folder is refused without being opened for reading.
    public func read(_ name: String, limit: Int) throws -> Data {
        let (file, size, path) = try openRegularFile(name)
        defer { close(file) }
        guard size <= limit else { throw FolderError.tooLarge(path, limit: limit) }
        var data = Data(count: size)
        var offset = 0
        let failure: String? = data.withUnsafeMutableBytes { buffer in
            guard let base = buffer.baseAddress else { return nil }
            while offset < buffer.count {
                let count = Foundation.read(file, base + offset, buffer.count - offset)
                if count < 0, errno == EINTR { continue }
                if count < 0 { return String(cString: strerror(errno)) }
                if count == 0 { break }
                offset += count
            }
            return nil
        }
        if let failure { throw FolderError.cannotRead(path, reason: failure) }
        return data.prefix(offset)
    }

    /// A file that will become `name` once written whole: see `PendingFile`.
    public func pending(_ name: String) throws -> PendingFile {
        try PendingFile(folder: self, name: name)
    }

    /// Calls `body` with the bytes of the regular file `name`, a megabyte at a
    /// time: all of them, or those of `range` (the file must still hold them).
    public func forEachChunk(of name: String, in range: Range<Int>? = nil, limit: Int = SafeFolder.chunkedLimit, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let (file, size, path) = try openRegularFile(name)
        defer { close(file) }
        guard size <= limit else { throw FolderError.tooLarge(path, limit: limit) }
        // A file of a few hundred bytes (a device that never compacted wrote a hundred thousand) gets a buffer its size.
        var chunk = [UInt8](repeating: 0, count: min(1 << 20, max(4_096, (range?.count ?? size) + 1)))
        var position = range?.lowerBound ?? 0
        let end = range?.upperBound ?? limit
        while position < end {
            let wanted = min(chunk.count, end - position)
            let count = chunk.withUnsafeMutableBytes { pread(file, $0.baseAddress, wanted, off_t(position)) }
            if count < 0, errno == EINTR { continue }
            if count < 0 { throw FolderError.cannotRead(path, reason: String(cString: strerror(errno))) }
            if count == 0 {
                guard range == nil else { throw FolderError.cannotRead(path, reason: "the file is shorter than when it was read") }
                return
            }
            position += count
            // A file that grows while it is read is not the one that was checked.
            guard position <= limit else { throw FolderError.tooLarge(path, limit: limit) }
            try chunk.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0.prefix(count))) }
        }
    }

    /// Renames the temporary `temporary` over `name`, keeping a regular `name`
    /// as `previous` first; a planted link or FIFO at `name` is removed, never rotated.
    fileprivate func replace(_ name: String, with temporary: String, rotatingTo previous: String?) throws {
        switch entry(name) {
        case .file: if let previous { renameat(descriptor, name, descriptor, previous) }
        case .link, .other: unlinkat(descriptor, name, 0)
        case .missing, .folder: break
        }
        guard renameat(descriptor, temporary, descriptor, name) == 0 else {
            let reason = String(cString: strerror(errno))
            unlinkat(descriptor, temporary, 0)
            throw FolderError.cannotWrite(self.path + "/" + name, reason: reason)
        }
        fsync(descriptor)
    }

    /// A hard link `name` to `existing` in `source` (no link is followed); false when it could not be made.
    public func link(_ name: String, to existing: String, in source: SafeFolder) -> Bool {
        linkat(source.descriptor, existing, descriptor, name, 0) == 0
    }

    /// Removes a name that is not a regular file or folder (a planted link, a FIFO).
    public func removePlanted(_ name: String) {
        if [.link, .other].contains(entry(name)) { unlinkat(descriptor, name, 0) }
    }

    /// Removes the temporaries (`.<name>.<pid>.tmp`) that a process no longer
    /// running left behind (killed while it wrote); a live process's are kept.
    public func removeStaleTemporaries() {
        // Best effort: an unlistable folder has nothing this could clean, and the next check tries again.
        for name in (try? names(includingHidden: true)) ?? [] {
            guard let pid = PendingFile.writer(ofTemporary: name), processHasEnded(pid),
                  entry(name) == .file else { continue }
            unlinkat(descriptor, name, 0)
        }
    }

    /// Removes the regular file `name` (a link or folder of that name is left alone).
    public func remove(_ name: String) {
        if entry(name) == .file { unlinkat(descriptor, name, 0) }
    }

    /// One path component: no separator, not `.` or `..`, not empty.
    public static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains("/") && !name.contains("\0")
    }
}

/// A file being written in a `SafeFolder`: bytes go to a temporary file
/// (0600, created exclusively, never through a link) that `commit` syncs and
/// renames over its name. Until then the old file stands; a pending file
/// that is never committed (an error, a refused row) is removed, and a
/// killed process leaves only a hidden temporary, never half a snapshot.
public final class PendingFile {
    private let folder: SafeFolder
    public let name: String
    private let temporary: String
    private var descriptor: Int32
    /// How messages name the file.
    public var path: String { folder.path + "/" + name }

    /// The process that writes the temporary `name` (`.<name>.<pid>.tmp`), or nil for any other name.
    public static func writer(ofTemporary name: String) -> pid_t? {
        guard name.hasPrefix("."), name.hasSuffix(".tmp") else { return nil }
        let parts = name.dropLast(4).split(separator: ".")
        guard parts.count >= 2, let pid = parts.last.flatMap({ pid_t($0) }), pid > 0 else { return nil }
        return pid
    }

    fileprivate init(folder: SafeFolder, name: String) throws {
        self.folder = folder
        self.name = name
        temporary = ".\(name).\(getpid()).tmp"
        unlinkat(folder.descriptor, temporary, 0)
        descriptor = openat(folder.descriptor, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw FolderError.cannotWrite(folder.path + "/" + name, reason: String(cString: strerror(errno))) }
        fchmod(descriptor, 0o600)
    }

    deinit {
        discard()
    }

    /// Writes the next bytes.
    public func append(_ bytes: UnsafeRawBufferPointer) throws {
        guard descriptor >= 0 else { throw FolderError.cannotWrite(path, reason: "the file was already closed") }
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let written = Foundation.write(descriptor, base + offset, bytes.count - offset)
            if written < 0, errno == EINTR { continue }
            if written < 0 {
                let reason = String(cString: strerror(errno))
                discard()
                throw FolderError.cannotWrite(path, reason: reason)
            }
            offset += written
        }
    }

    /// Syncs the bytes and puts the file in place of `name`; with `rotatingTo`,
    /// the old file (a regular one) is kept under that name first.
    public func commit(rotatingTo previous: String? = nil) throws {
        guard descriptor >= 0 else { throw FolderError.cannotWrite(path, reason: "the file was already closed") }
        let synced = fsync(descriptor) == 0
        let reason = String(cString: strerror(errno))
        close(descriptor)
        descriptor = -1
        guard synced else {
            unlinkat(folder.descriptor, temporary, 0)
            throw FolderError.cannotWrite(path, reason: reason)
        }
        try folder.replace(name, with: temporary, rotatingTo: previous)
    }

    /// Syncs the bytes and links the file into place as `name` only where no file of that name exists (it
    /// never replaces one): false, and nothing left behind, when the name is taken.
    public func commitNew() throws -> Bool {
        guard descriptor >= 0 else { throw FolderError.cannotWrite(path, reason: "the file was already closed") }
        let synced = fsync(descriptor) == 0
        let reason = String(cString: strerror(errno))
        close(descriptor)
        descriptor = -1
        defer { unlinkat(folder.descriptor, temporary, 0) }
        guard synced else { throw FolderError.cannotWrite(path, reason: reason) }
        guard linkat(folder.descriptor, temporary, folder.descriptor, name, 0) == 0 else {
            if errno == EEXIST { return false }
            throw FolderError.cannotWrite(path, reason: String(cString: strerror(errno)))
        }
        fsync(folder.descriptor)
        return true
    }

    /// Closes and removes the temporary file; the old file stands.
    public func discard() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
        unlinkat(folder.descriptor, temporary, 0)
    }
}
