import Foundation

/// Whether process `pid` has ended, so what it left (a temporary it was
/// writing when it was killed) may go: true only when no such process
/// exists. One of another account (EPERM) or this process's own is running.
public func processHasEnded(_ pid: pid_t) -> Bool {
    pid > 0 && kill(pid, 0) != 0 && errno == ESRCH
}
