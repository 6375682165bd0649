import Foundation

/// Standard output and standard error, written with `write(2)` so a closed,
/// full or broken stream is an answer, never a crash: a closed pipe
/// (`| head -1`) ends the output quietly, a full disk or a closed descriptor
/// says so once on standard error, and the process carries on to its exit
/// backup check. `SIGPIPE` must be ignored for `EPIPE` to arrive here.
@MainActor
public final class ProcessOutput {
    /// Which of the two streams a line is for.
    public enum Stream: Sendable { case standardOutput, standardError }

    /// How writing went, for the exit status: a broken pipe is not a failure of the commands.
    public private(set) var outputFailed = false
    public private(set) var pipeClosed = false
    private var closed: Set<Int32> = []

    public init() {}

    /// The process's own standard streams.
    public static let shared = ProcessOutput()

    /// Puts `/dev/null` on any of descriptors 0–2 the process was started
    /// without (`>&-`), before anything else is opened: otherwise the next
    /// file opened (a backup, the history) would take the number and receive
    /// the output. A closed stdin reads as an empty script; a closed stdout
    /// is reported once, as a failed write is.
    public func guardStandardDescriptors() {
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) == -1 {
            let opened = open("/dev/null", descriptor == STDIN_FILENO ? O_RDONLY : O_WRONLY)
            if opened >= 0, opened != descriptor {
                dup2(opened, descriptor)
                close(opened)
            }
            if descriptor != STDIN_FILENO { closed.insert(descriptor) }
            if descriptor == STDOUT_FILENO {
                outputFailed = true
                write("trend: standard output is closed; the output is dropped\n", to: .standardError)
            }
        }
    }

    public func write(_ text: String, to stream: Stream) {
        let descriptor = stream == .standardOutput ? STDOUT_FILENO : STDERR_FILENO
        guard !closed.contains(descriptor) else { return }
        let failure: Int32? = Array(text.utf8).withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
        guard let failure else { return }
        closed.insert(descriptor)
        if failure == EPIPE {
            // The reader went away (`| head -1`): nothing more to say to it, and nothing is wrong.
            pipeClosed = true
            return
        }
        outputFailed = true
        if descriptor == STDOUT_FILENO {
            let reason = failure == ENOSPC ? "the disk is full" : String(cString: strerror(failure))
            write("trend: cannot write the output (\(reason)); later output is dropped\n", to: .standardError)
        }
    }
}
