import Dispatch
import Foundation
import Storage
import Synchronization

/// What a line reader saw.
public enum LineReadResult: Sendable, Equatable {
    case line(String)
    /// Ctrl-C: the line was discarded; prompt again.
    case interrupted
    case endOfInput
}

/// Reads one line at a time, blocking; it runs on the hand-off's own thread.
public protocol LineReader: AnyObject, Sendable {
    func readLine(prompt: String) -> LineReadResult
    /// Blocks the hand-off's thread while a command runs, until `finished`
    /// is signalled; a terminal's reader also answers Ctrl-C meanwhile, on
    /// this thread, which is always there (no other thread need start for it).
    func waitWhileCommandRuns(_ finished: DispatchSemaphore)
    /// Called after `finished` is signalled, so a reader waiting on more than the semaphore wakes.
    func commandDidFinish()
}

extension LineReader {
    public func waitWhileCommandRuns(_ finished: DispatchSemaphore) { finished.wait() }
    public func commandDidFinish() {}
}

/// Reads lines on a dedicated thread and hands them to the main actor
/// through an `AsyncStream`, so the main actor stays free for launch work
/// while a person has not typed anything yet. The reader waits for
/// `commandFinished()` before it prompts again, so output and prompt never mix.
public final class LineHandOff: Sendable {
    private let reader: any LineReader
    private let prompt: String
    private let ready = DispatchSemaphore(value: 0)
    /// A one-off prompt for the next read (a confirmation question).
    private let nextPrompt = Mutex<String?>(nil)

    public init(reader: any LineReader, prompt: String) {
        self.reader = reader
        self.prompt = prompt
    }

    /// Starts reading, on a thread of `BlockingPool.shared` that the prompt keeps for the session;
    /// the stream ends at end of input.
    public func lines() -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .unbounded)
        BlockingPool.shared.submit { [self] in
            while true {
                let shown = nextPrompt.withLock { pending -> String in
                    defer { pending = nil }
                    return pending ?? prompt
                }
                switch reader.readLine(prompt: shown) {
                case let .line(text):
                    continuation.yield(text)
                    reader.waitWhileCommandRuns(ready)
                case .interrupted:
                    continue
                case .endOfInput:
                    continuation.finish()
                    return
                }
            }
        }
        return stream
    }

    /// The last line's command has printed its output; the reader may prompt,
    /// with `prompt` instead of the usual one for this one line.
    public func commandFinished(nextPrompt prompt: String? = nil) {
        nextPrompt.withLock { $0 = prompt }
        ready.signal()
        reader.commandDidFinish()
    }
}

/// Reads a script from a file handle (stdin that is not a terminal), no prompt.
public final class ScriptLineReader: LineReader, @unchecked Sendable {
    // @unchecked: only the hand-off's single thread calls readLine.
    private let handle: FileHandle
    private var buffer = Data()
    private var atEnd = false
    private let promptDescriptor: Int32?

    /// - Parameters:
    ///   - handle: where the lines come from.
    ///   - promptDescriptor: where to write the prompt before each line (a
    ///     terminal without libedit, or the terminal's standard error while
    ///     standard output goes to a pipe); nil writes none.
    public init(handle: FileHandle = .standardInput, promptDescriptor: Int32? = nil) {
        self.handle = handle
        self.promptDescriptor = promptDescriptor
    }

    public func readLine(prompt: String) -> LineReadResult {
        if let promptDescriptor, !prompt.isEmpty {
            // Best effort, like the prompt libedit draws: a prompt that cannot be shown does not stop the reading.
            let bytes = Array(prompt.utf8)
            _ = bytes.withUnsafeBytes { write(promptDescriptor, $0.baseAddress, $0.count) }
        }
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let lineData = buffer[buffer.startIndex..<newline]
                buffer.removeSubrange(buffer.startIndex...newline)
                return .line(Self.decode(lineData))
            }
            if atEnd {
                guard !buffer.isEmpty else { return .endOfInput }
                let rest = buffer
                buffer.removeAll()
                return .line(Self.decode(rest))
            }
            let chunk = handle.availableData
            if chunk.isEmpty { atEnd = true } else { buffer.append(chunk) }
        }
    }

    /// Invalid UTF-8 becomes U+FFFD rather than a lost line; CRLF ends are trimmed.
    private static func decode(_ data: Data) -> String {
        var text = String(decoding: data, as: UTF8.self)
        if text.hasSuffix("\r") { text.removeLast() }
        return text
    }
}
