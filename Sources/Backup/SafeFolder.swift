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
final class SafeFolder: @unchecked Sendable {
    // @unchecked: the descriptor is only read, and closed once in deinit.
    let descriptor: Int32
    /// How messages name the folder.
    let path: String

    private init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit {
        close(descriptor)
    }

    /// What sits at a name in a folder, without following a link.
    enum Entry: Equatable {
        case missing, file, folder, link, other
    }

    /// Opens `root` (trusted: the data directory, or the sync folder a person
    /// chose; it may itself be a link), then each of `components` below it
    /// without following links. Missing components are made (0700) when
    /// `create` is true; a missing root only when `createRoot` is (the data
    /// directory, never a sync folder).
    static func open(_ root: URL, _ components: [String] = [], create: Bool = false, createRoot: Bool = false) throws -> SafeFolder {
        if createRoot, !FileManager.default.fileExists(atPath: root.path) {
            do {
                try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
            } catch {
                throw BackupFileError.cannotWrite(root.path, reason: (error as NSError).localizedDescription)
            }
        }
        let rootDescriptor = Foundation.open(root.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard rootDescriptor >= 0 else {
            if errno == ENOENT { throw BackupFileError.missingFolder(root.path) }
            throw BackupFileError.cannotList(root.path, reason: String(cString: strerror(errno)))
        }
        var folder = SafeFolder(descriptor: rootDescriptor, path: root.path)
        for component in components {
            folder = try folder.subfolder(component, create: create)
        }
        return folder
    }

    /// A folder inside this one, never through a link.
    func subfolder(_ name: String, create: Bool) throws -> SafeFolder {
        let path = self.path + "/" + name
        guard Self.isPlainName(name) else { throw BackupFileError.outsideBackupFolder(name) }
        if create, entry(name) == .missing, mkdirat(descriptor, name, 0o700) != 0, errno != EEXIST {
            throw BackupFileError.cannotWrite(path, reason: String(cString: strerror(errno)))
        }
        try require(name, is: .folder)
        let child = openat(descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard child >= 0 else { throw BackupFileError.cannotList(path, reason: String(cString: strerror(errno))) }
        return SafeFolder(descriptor: child, path: path)
    }

    func entry(_ name: String) -> Entry {
        var info = stat()
        guard fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .folder
        case S_IFLNK: return .link
        default: return .other
        }
    }

    /// Throws unless `name` is a folder or a regular file (as `expected` says), naming what it is instead.
    private func require(_ name: String, is expected: Entry) throws {
        let found = entry(name), path = self.path + "/" + name
        guard found != expected else { return }
        switch found {
        case .missing: throw expected == .folder ? BackupFileError.missingFolder(path) : BackupFileError.noSuchBackup(path)
        case .link: throw BackupFileError.linkRefused(path)
        default: throw expected == .folder ? BackupFileError.notAFolder(path) : BackupFileError.notARegularFile(path)
        }
    }

    /// The names in the folder, hidden ones left out.
    func names() throws -> [String] {
        let copy = dup(descriptor)
        guard copy >= 0, let stream = fdopendir(copy) else {
            if copy >= 0 { close(copy) }
            throw BackupFileError.cannotList(path, reason: String(cString: strerror(errno)))
        }
        defer { closedir(stream) }
        rewinddir(stream)
        var names: [String] = []
        while let item = readdir(stream) {
            let name = withUnsafePointer(to: item.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if !name.hasPrefix(".") { names.append(name) }
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
        guard file >= 0 else { throw BackupFileError.cannotRead(path, reason: String(cString: strerror(errno))) }
        var info = stat()
        guard fstat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(file)
            throw BackupFileError.notARegularFile(path)
        }
        return (file, Int(info.st_size), path)
    }

    /// A regular file's bytes, at most `limit` of them; a link, FIFO, device
    /// or folder is refused without being opened for reading.
    func read(_ name: String, limit: Int) throws -> Data {
        let (file, size, path) = try openRegularFile(name)
        defer { close(file) }
        guard size <= limit else { throw BackupFileError.tooLarge(path, limit: limit) }
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
        if let failure { throw BackupFileError.cannotRead(path, reason: failure) }
        return data.prefix(offset)
    }

    /// Whether the regular file `name` holds exactly `data`, read back a
    /// megabyte at a time (a large snapshot is checked without a second copy of it).
    func holds(_ data: Data, as name: String) throws -> Bool {
        let (file, size, path) = try openRegularFile(name)
        defer { close(file) }
        guard size == data.count else { return false }
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        var offset = 0
        while offset < data.count {
            let count = chunk.withUnsafeMutableBytes { Foundation.read(file, $0.baseAddress, min($0.count, data.count - offset)) }
            if count < 0, errno == EINTR { continue }
            if count < 0 { throw BackupFileError.cannotRead(path, reason: String(cString: strerror(errno))) }
            if count == 0 { return false }
            let same = data.withUnsafeBytes { memcmp($0.baseAddress! + offset, chunk, count) == 0 }
            guard same else { return false }
            offset += count
        }
        return true
    }

    /// Writes `data` as `name`: a temporary file (0600, never through a
    /// link), synced, then renamed over `name`. With `rotatingTo`, the old
    /// file (when it is a regular file) is kept under that name first.
    func write(_ data: Data, as name: String, rotatingTo previous: String? = nil) throws {
        let path = self.path + "/" + name
        let temporary = ".\(name).\(getpid()).tmp"
        unlinkat(descriptor, temporary, 0)
        let file = openat(descriptor, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard file >= 0 else { throw BackupFileError.cannotWrite(path, reason: String(cString: strerror(errno))) }
        var failure: String? = data.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return nil }
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(file, base + offset, buffer.count - offset)
                if written < 0, errno == EINTR { continue }
                if written < 0 { return String(cString: strerror(errno)) }
                offset += written
            }
            return nil
        }
        if failure == nil, fsync(file) != 0 { failure = String(cString: strerror(errno)) }
        fchmod(file, 0o600)
        close(file)
        if let failure {
            unlinkat(descriptor, temporary, 0)
            throw BackupFileError.cannotWrite(path, reason: failure)
        }
        switch entry(name) {
        case .file: if let previous { renameat(descriptor, name, descriptor, previous) }
        case .link, .other: unlinkat(descriptor, name, 0)  // Never rotate a planted link or FIFO into Previous.
        case .missing, .folder: break
        }
        guard renameat(descriptor, temporary, descriptor, name) == 0 else {
            let reason = String(cString: strerror(errno))
            unlinkat(descriptor, temporary, 0)
            throw BackupFileError.cannotWrite(path, reason: reason)
        }
        fsync(descriptor)
    }

    /// A hard link `name` to `existing` in `source` (no link is followed); false when it could not be made.
    func link(_ name: String, to existing: String, in source: SafeFolder) -> Bool {
        linkat(source.descriptor, existing, descriptor, name, 0) == 0
    }

    /// Removes a name that is not a regular file or folder (a planted link, a FIFO).
    func removePlanted(_ name: String) {
        if [.link, .other].contains(entry(name)) { unlinkat(descriptor, name, 0) }
    }

    /// One path component: no separator, not `.` or `..`, not empty.
    static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains("/") && !name.contains("\0")
    }
}
