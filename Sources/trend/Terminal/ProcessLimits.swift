import Foundation
import SystemLibraries

/// The limits a process runs under (`ulimit -n`, `ulimit -u`, `ulimit -v`), checked once at launch.
///
/// Trend needs a few dozen open files at once (the database, its WAL and shared
/// memory, the file an import reads, the pipes a prompt waits on, and the ones
/// the Swift runtime opens for its threads) and a few threads (the Swift
/// runtime's own, and `BlockingPool`'s). The runtime stops the process outright
/// when it cannot open a file of its own, and waits forever for a thread the
/// system will not start. So each soft limit is raised toward its hard one, and
/// a hard limit below what Trend needs is refused in a sentence, before any
/// thread starts.
public enum ProcessLimits {
    /// The least number of open files Trend runs with, and what the soft limit is raised to at most.
    public static let filesNeeded: rlim_t = 64
    public static let filesWanted: rlim_t = 1_024
    /// The least number of processes and threads (of this user) Trend runs with.
    public static let threadsNeeded: rlim_t = 5

    /// Raises the soft limits and returns what stops Trend from running, or nil.
    public static func raise() -> String? {
        let files = raise(Int32(RLIMIT_NOFILE.rawValue), toward: filesWanted)
        if let files, files < filesNeeded {
            return "trend: only \(files) open files are allowed (ulimit -n) and trend needs \(filesNeeded); raise the limit and run it again"
        }
        // The super-user is not held to the number of processes.
        if geteuid() != 0, let threads = raise(Int32(__RLIMIT_NPROC.rawValue), toward: .max), threads < threadsNeeded {
            return "trend: only \(threads) processes and threads are allowed (ulimit -u) and trend needs \(threadsNeeded); raise the limit and run it again"
        }
        // Under an address-space limit, glibc's 64 MB reservation per thread's malloc arena (RSS stays small, 56 MB
        // for an import of 100k rows, but the reservations reach 570 MB) makes the runtime stop the process when
        // a later allocation finds no room: two arenas keep an import's reservations near 135 MB.
        if let space = raise(Int32(RLIMIT_AS.rawValue), toward: .max), space != .max {  // RLIM_INFINITY is all ones
            limitMallocArenas(to: 2)
            if space < addressSpaceNeeded {
                return "trend: only \(space >> 20) MB of address space is allowed (ulimit -v) and trend needs \(addressSpaceNeeded >> 20) MB; "
                    + "raise the limit and run it again"
            }
        }
        return nil
    }

    /// glibc's `mallopt(M_ARENA_MAX, count)`; malloc.h is not among the C headers Swift's Glibc module
    /// exports, so the function is looked up by name (it is always there: glibc is the C library).
    private static func limitMallocArenas(to count: Int32) {
        let arenaMaximum: Int32 = -8  // M_ARENA_MAX in malloc.h
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let mallopt = DynamicLibrary.running?.function("mallopt", as: Mallopt.self) else { return }
        _ = mallopt(arenaMaximum, count)  // 0 only when glibc refuses; nothing else to do.
    }

    /// The least address space (`ulimit -v`) Trend runs in: the runtime, ICU's data and a few threads' stacks.
    public static let addressSpaceNeeded: rlim_t = 256 << 20

    /// Raises the soft limit of `resource` toward `wanted` as far as the hard one allows; the soft limit in force, or
    /// nil when it cannot be read (then nothing is refused).
    private static func raise(_ resource: Int32, toward wanted: rlim_t) -> rlim_t? {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(UInt32(resource)), &limit) == 0 else { return nil }
        if limit.rlim_cur < wanted {
            var raised = limit
            raised.rlim_cur = min(wanted, limit.rlim_max)
            if raised.rlim_cur > limit.rlim_cur, setrlimit(__rlimit_resource_t(UInt32(resource)), &raised) == 0 { limit = raised }
        }
        return limit.rlim_cur
    }
}
