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
