import Foundation

/// A file written whole or not at all: bytes go to a temporary file beside
/// the destination (0600, created exclusively, never through a link), and
/// `commit()` syncs it and renames it into place. Until then the destination
/// is untouched, so a killed process or a full disk never leaves half a file.
/// Writes are buffered, so a million rows are a few hundred system calls.
public final class AtomicFile {
    public let url: URL
    private let temporaryPath: String
    private var descriptor: Int32
    private var buffer: [UInt8] = []
    private static let bufferSize = 1 << 20

    /// Why the file could not be written, with the path and the system's reason.
    public struct WriteError: Error, Equatable, CustomStringConvertible {
        public let path: String
        public let reason: String
        public var description: String { "\(path) could not be written (\(reason))" }
    }

    public init(url: URL) throws(WriteError) {
        self.url = url
        let directory = url.deletingLastPathComponent().path
        Self.removeStaleTemporaries(in: directory)
        temporaryPath = directory + "/." + url.lastPathComponent + ".trend-\(getpid())-" + UUID().uuidString.prefix(8).lowercased() + ".tmp"
        descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw WriteError(path: url.path, reason: String(cString: strerror(errno))) }
        buffer.reserveCapacity(Self.bufferSize)
    }

    /// The process that writes a temporary file of this type's naming (`.<name>.trend-<pid>-<id>.tmp`), or nil for
    /// any other name: no other program's file is ever taken for one.
    static func writer(ofTemporary name: String) -> pid_t? {
        guard name.hasPrefix("."), name.hasSuffix(".tmp"), let mark = name.range(of: ".trend-", options: .backwards) else { return nil }
        let rest = name[mark.upperBound...].dropLast(4).split(separator: "-")
        guard rest.count == 2, rest[1].count == 8, let pid = pid_t(rest[0]), pid > 0 else { return nil }
        return pid
    }

    /// Removes, from `directory`, the temporary files of this naming whose process has ended (a killed export's
    /// health data must not stay behind, hidden). Best effort: a folder that cannot be listed has none to remove.
    static func removeStaleTemporaries(in directory: String) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] {
            guard let pid = writer(ofTemporary: name), processHasEnded(pid) else { continue }
            unlink(directory + "/" + name)
        }
    }

    deinit {
        // Not committed: the temporary file goes, the destination stays as it was.
        if descriptor >= 0 {
            close(descriptor)
            unlink(temporaryPath)
        }
    }

    public func append(_ text: String) throws(WriteError) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= Self.bufferSize { try flush() }
    }

    public func append(_ bytes: [UInt8]) throws(WriteError) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= Self.bufferSize { try flush() }
    }

    private func flush() throws(WriteError) {
        var offset = 0
        while offset < buffer.count {
            let written = buffer.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                throw WriteError(path: url.path, reason: String(cString: strerror(errno)))
            }
            offset += written
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes what is buffered, syncs, and puts the file in place of the destination.
    public func commit() throws(WriteError) {
        try flush()
        guard fsync(descriptor) == 0 else { throw WriteError(path: url.path, reason: String(cString: strerror(errno))) }
        close(descriptor)
        descriptor = -1
        guard rename(temporaryPath, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporaryPath)
            throw WriteError(path: url.path, reason: reason)
        }
    }
}
