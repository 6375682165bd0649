import Foundation

/// How many files the process may have open (`ulimit -n`). Trend needs a few
/// dozen at once (the database, its WAL and shared memory, the file an import
/// reads, the pipes a prompt waits on, and the ones the Swift runtime opens
/// for its threads), and the runtime stops the process outright when it
/// cannot open one of its own. So the soft limit is raised toward the hard one
/// at launch, and a hard limit below what Trend needs is refused in a sentence.
public enum OpenFileLimit {
    /// The least Trend runs with.
    public static let needed: rlim_t = 64
    /// What the soft limit is raised to, at most (as a shell's default).
    public static let wanted: rlim_t = 1_024

    /// Raises the soft limit when it is below `wanted` and the hard limit allows; returns what stops
    /// Trend from running, or nil.
    public static func raise() -> String? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }  // Unknown: nothing to raise.
        if limit.rlim_cur < wanted {
            var raised = limit
            raised.rlim_cur = min(wanted, limit.rlim_max)
            if raised.rlim_cur > limit.rlim_cur, setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        guard limit.rlim_cur < needed else { return nil }
        return "trend: only \(limit.rlim_cur) open files are allowed (ulimit -n) and trend needs \(needed); raise the limit and run it again"
    }
}
