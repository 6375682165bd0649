import Foundation
import Synchronization

/// A one-line progress bar on standard error, drawn only on a terminal.
/// Once finished it draws nothing more: a reading thread still winding down
/// after Ctrl-C must not draw over the next prompt.
public final class ProgressBar: Sendable {
    public let enabled: Bool
    public let label: String
    private let finished = Mutex(false)

    public init(enabled: Bool, label: String) {
        self.enabled = enabled
        self.label = label
    }

    /// Called from the reading thread with the share done, 0…1.
    public var update: @Sendable (Double) -> Void {
        { [self] fraction in
            guard enabled else { return }
            let filled = Int((min(1, max(0, fraction)) * 30).rounded())
            let line = "\r\(label) [" + String(repeating: "█", count: filled) + String(repeating: " ", count: 30 - filled)
                + "] \(Int((fraction * 100).rounded()))%"
            // Drawn under the lock, so no bar can land after the line `finish` cleared.
            finished.withLock { done in if !done { Self.draw(line) } }
        }
    }

    public func finish() {
        guard enabled else { return }
        finished.withLock { done in
            if !done { Self.draw("\r\u{1B}[K") }
            done = true
        }
    }

    /// A bar drawn or not changes nothing: a closed or full standard error is ignored here.
    private static func draw(_ text: String) {
        _ = Array(text.utf8).withUnsafeBytes { Foundation.write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
