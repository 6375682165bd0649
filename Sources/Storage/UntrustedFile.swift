import Foundation

/// A file someone else wrote (an export to import, a backup, a file in a
/// synced folder), opened to be read and nothing more. The open never
/// blocks: a FIFO, a device or a socket under a file's name would hold an
/// ordinary open (or every read) until some writer came, so anything that is
/// not a regular file is refused before a byte is read. What is read then
/// comes from that same descriptor, so the name cannot be swapped in between.
public enum UntrustedFile {
    /// Why a file was not read; `description` says it without the path (the caller names the file).
    public enum Problem: Error, Equatable, CustomStringConvertible, Sendable {
        case notRegular(kind: String)
        case cannotOpen(reason: String)

        public var description: String {
            switch self {
            case let .notRegular(kind): "it is \(kind), not a regular file"
            case let .cannotOpen(reason): reason
            }
        }
    }

    /// Opens `path` for reading: a regular file, or `Problem`.
    public static func open(_ path: String) throws(Problem) -> FileHandle {
        let descriptor = Foundation.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { throw .cannotOpen(reason: String(cString: strerror(errno))) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw .cannotOpen(reason: reason)
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw .notRegular(kind: kind(info.st_mode))
        }
        // A regular file's reads do not block; the flag goes so nothing that reads from it need expect EAGAIN.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    /// The whole of an opened file, mapped from its descriptor (a large export
    /// costs no copy), or read when it cannot be mapped.
    public static func contents(of handle: FileHandle) throws -> Data {
        var info = stat()
        guard fstat(handle.fileDescriptor, &info) == 0 else { throw Problem.cannotOpen(reason: String(cString: strerror(errno))) }
        let size = Int(info.st_size)
        guard size > 0 else { return try handle.readToEnd() ?? Data() }
        guard let mapped = mmap(nil, size, PROT_READ, MAP_PRIVATE, handle.fileDescriptor, 0), mapped != MAP_FAILED else {
            return try handle.readToEnd() ?? Data()
        }
        return Data(bytesNoCopy: mapped, count: size, deallocator: .custom { pointer, count in munmap(pointer, count) })
    }

    /// What a file of this mode is, in words.
    static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: "a folder"
        case S_IFIFO: "a FIFO (a named pipe)"
        case S_IFCHR, S_IFBLK: "a device"
        case S_IFSOCK: "a socket"
        default: "not a file"
        }
    }
}
