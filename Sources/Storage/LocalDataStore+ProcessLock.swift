import Foundation

extension LocalDataStore {
    /// Runs `body` while this process holds the data directory's lock file `name` (`<data dir>/<name>.lock`,
    /// 0600), waiting for any other process that holds it: work that must have one writer per data directory,
    /// however many processes run on it (the prompt, `-c`, the reminder watcher, DESIGN §8 Processes). The lock
    /// is `flock`'s, so the kernel lets it go when its holder ends, killed or not; nothing is left to clean up.
    /// A database in memory has no other process: `body` runs at once.
    public func exclusively<T>(_ name: String, _ body: () throws -> T) throws -> T {
        guard let directory else { return try body() }
        try open()  // Makes the data directory (0700) where it is new.
        let path = directory.appendingPathComponent(name + ".lock").path
        let descriptor = Foundation.open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw StorageError.cannotOpen(path: path, reason: String(cString: strerror(errno))) }
        defer { Foundation.close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw StorageError.cannotOpen(path: path, reason: String(cString: strerror(errno))) }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }
}

/// A data directory's lock file held by this process until `release()` (or the end of the process): for work
/// that spans awaits, such as sending reminders, or a watcher that runs for a whole login.
public final class ProcessLock: @unchecked Sendable {
    // @unchecked: the descriptor is closed once, by its owner.
    private var descriptor: Int32

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { release() }

    /// Lets the lock go (closing the file lets the kernel drop it).
    public func release() {
        guard descriptor >= 0 else { return }
        Foundation.close(descriptor)
        descriptor = -1
    }
}

extension LocalDataStore {
    /// Takes the lock file `name` (as `exclusively` does), waiting for another holder when `waiting`; nil when
    /// another process holds it and this one does not wait. A database in memory has no other process: a lock
    /// that holds nothing.
    public func lock(_ name: String, waiting: Bool) throws -> ProcessLock? {
        guard let directory else { return ProcessLock(descriptor: -1) }
        try open()
        let path = directory.appendingPathComponent(name + ".lock").path
        let descriptor = Foundation.open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw StorageError.cannotOpen(path: path, reason: String(cString: strerror(errno))) }
        while flock(descriptor, waiting ? LOCK_EX : LOCK_EX | LOCK_NB) != 0 {
            let failure = errno
            guard failure == EINTR else {
                Foundation.close(descriptor)
                if failure == EWOULDBLOCK { return nil }
                throw StorageError.cannotOpen(path: path, reason: String(cString: strerror(failure)))
            }
        }
        return ProcessLock(descriptor: descriptor)
    }
}
