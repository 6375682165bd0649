import CommandLanguage
import CEditLine
import Dispatch
import Foundation
import SystemLibraries

// libedit's readline interface is a C API with global state and callbacks
// that cannot capture context; these globals are its boundary. Only the
// line-reading thread touches them (completion runs inside that thread too),
// except `completionTable`, which is guarded by `completionLock`.
nonisolated(unsafe) private var receivedLine: UnsafeMutablePointer<CChar>?
nonisolated(unsafe) private var lineComplete = false
nonisolated(unsafe) private var completionTable = CompletionTable(commandWords: [], rules: [:])
/// The line before the cursor at the last Tab, so a second Tab on it lists the choices; guarded by `completionLock`.
nonisolated(unsafe) private var lastCompletedPrefix: String?
private let completionLock = NSLock()

/// Reads lines from the terminal through libedit: editing, history and Tab
/// completion. It polls the terminal and a pipe that Ctrl-C writes to, so an
/// interrupt discards the line and gives a fresh prompt without ending the loop.
final class EditLineReader: LineReader, @unchecked Sendable {
    // @unchecked: used from the hand-off's single thread; the history path is immutable.
    private let historyPath: String
    private let interruptPipe: (read: Int32, write: Int32)
    /// Written by `commandDidFinish`, so the wait while a command runs wakes for it.
    private let finishedPipe: (read: Int32, write: Int32)
    /// What Ctrl-C does while a command runs (no line is being read); guarded by `hookLock`.
    private var commandInterrupt: (@Sendable () -> Void)?
    private let hookLock = NSLock()
    /// Lines to show above the prompt (a reminder come due), written to while a line is typed; guarded by `hookLock`,
    /// and a byte in `announcePipe` wakes the reading thread for them.
    private var announcements: [String] = []
    private let announcePipe: (read: Int32, write: Int32)
    /// Written by SIGHUP and SIGTERM: the prompt ends as on Ctrl-D, at once or once the running command ends.
    private let hangupPipe: (read: Int32, write: Int32)
    /// The terminal went away or a hang-up came: every later read is the end of input. On the reading thread.
    private var ended = false

    /// Whether a libedit is open and holds every function the prompt needs: opened on the first reader, once.
    private static let libeditOpened: Bool = DynamicLibrary.first(of: ["libedit.so.2", "libedit.so"]) { library in
        let handed = library.forC
        return trend_el_open(handed.library, handed.lookUp) == 1 ? true : nil
    } ?? false

    /// A reader on libedit, or nil when no libedit can be opened.
    init?(historyPath: String) {
        guard Self.libeditOpened else { return nil }
        self.historyPath = historyPath
        func nonBlockingPipe() -> (read: Int32, write: Int32) {
            var fds: [Int32] = [-1, -1]
            // Without a pipe Ctrl-C still ends a line as a key; only a running command could not be stopped.
            _ = pipe(&fds)
            for fd in fds { _ = fcntl(fd, F_SETFL, O_NONBLOCK) }
            return (fds[0], fds[1])
        }
        interruptPipe = nonBlockingPipe()
        finishedPipe = nonBlockingPipe()
        announcePipe = nonBlockingPipe()
        hangupPipe = nonBlockingPipe()
        _ = trend_el_catch_hangups(hangupPipe.write)
        // A signal handler writes to the pipe: a dispatch source would need a free worker thread, and an
        // import or restore can keep every one busy until it ends (Ctrl-C then did nothing under load).
        _ = trend_el_catch_interrupts(interruptPipe.write)

        if trend_el_use_utf8() == 0 {
            FileHandle.standardError.write(Data("warning: no UTF-8 locale is installed, so only ASCII can be typed at the prompt; install one (C.UTF-8) or use -c for other text\n".utf8))
        }
        trend_el_setup(strdup("trend"), completeHook)
        trend_el_initialize()
        // Ctrl-C while editing is a key libedit sees, so it also ends a Ctrl-R search cleanly;
        // while a command runs the terminal still sends SIGINT (below). Without the binding, SIGINT does both.
        _ = trend_el_bind_interrupt_key()
        // Ctrl-R shows the line it finds and runs it on one Enter (libedit's own needs two under the callback interface).
        _ = trend_el_bind_history_search()
        trend_el_using_history()
        trend_el_stifle_history(1000)
        switch Self.historyEntry(historyPath) {
        case .missing: break
        case .regularFile:
            if trend_el_read_history(historyPath) != 0 {
                FileHandle.standardError.write(Data("warning: the history file \(historyPath) could not be read; starting with an empty history\n".utf8))
            }
        case .other:
            // A link could aim the history at another file, and a FIFO would block the prompt: never opened.
            FileHandle.standardError.write(Data("warning: \(historyPath) is not a regular file (a link, FIFO or folder); the history is not read or kept\n".utf8))
        }
    }

    static func setCompletionTable(_ table: CompletionTable) {
        completionLock.lock()
        completionTable = table
        completionLock.unlock()
    }

    /// Shows `line` above the prompt, leaving what is being typed as it was; while a command runs, before the next prompt.
    /// Any thread.
    func announce(_ line: String) {
        hookLock.withLock { announcements.append(line) }
        var byte: UInt8 = 1
        _ = write(announcePipe.write, &byte, 1)  // A full pipe already holds a wake-up.
    }

    /// The announced lines, taken: on the reading thread.
    private func takeAnnouncements() -> String {
        Self.drain(announcePipe.read)
        let lines = hookLock.withLock { () -> [String] in
            defer { announcements = [] }
            return announcements
        }
        return lines.map { $0 + "\n" }.joined()
    }

    func readLine(prompt: String) -> LineReadResult {
        // A Ctrl-C pressed while a command ran is spent; it must not cancel the next line.
        drainInterrupts()
        // What came while the command ran goes before the prompt.
        let pending = takeAnnouncements()
        if !pending.isEmpty { FileHandle.standardOutput.write(Data(pending.utf8)) }
        lineComplete = false
        receivedLine = nil
        trend_el_callback_handler_install(prompt, lineHandler)
        let searchPrompt = strdup(prompt)
        trend_el_set_search_prompt(searchPrompt)
        defer {
            trend_el_callback_handler_remove()
            trend_el_set_search_prompt("")
            free(searchPrompt)
        }
        /// The end of input, as Ctrl-D on an empty line: the line being typed is dropped.
        func endOfInput() -> LineReadResult {
            ended = true
            trend_el_replace_line("", 0)
            // A terminal that is gone refuses the write (EIO): nothing to do about it.
            _ = write(STDOUT_FILENO, "\n", 1)
            return .endOfInput
        }
        if ended { return endOfInput() }
        while !lineComplete {
            var fds = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: interruptPipe.read, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: announcePipe.read, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: hangupPipe.read, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 4, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return endOfInput()
            }
            // The window closed (a parent that ignores SIGHUP passes no hang-up on), or SIGHUP or SIGTERM came: a read
            // would return 0 again and again, so the prompt ends here, as on Ctrl-D.
            if fds[3].revents & Int16(POLLIN) != 0 || (fds[0].revents != 0 && trend_el_terminal_gone() == 1) {
                return endOfInput()
            }
            if fds[2].revents & Int16(POLLIN) != 0 {
                // The prompt's line is cleared, the lines written, and libedit draws the prompt and what was typed again.
                let lines = takeAnnouncements()
                if !lines.isEmpty {
                    FileHandle.standardOutput.write(Data(("\r\u{1B}[2K" + lines).utf8))
                    _ = trend_el_redraw_line()
                }
            }
            if fds[1].revents & Int16(POLLIN) != 0 {
                drainInterrupts()
                trend_el_replace_line("", 0)
                FileHandle.standardOutput.write(Data("^C\n".utf8))
                return .interrupted
            }
            if fds[0].revents & Int16(POLLIN | POLLHUP) != 0 {
                trend_el_callback_read_char()
                if trend_el_take_interrupt() != 0 {
                    trend_el_replace_line("", 0)
                    // What libedit last drew (a search, a recalled line) is cleared: the prompt and ^C stay.
                    FileHandle.standardOutput.write(Data("\r\u{1B}[2K\(prompt)^C\n".utf8))
                    return .interrupted
                }
                if let accepted = trend_el_take_accepted() {
                    // Ctrl-R's line, run on its Enter: shown after the prompt as if typed.
                    let line = String(cString: accepted)
                    free(accepted)
                    trend_el_replace_line("", 0)
                    FileHandle.standardOutput.write(Data("\r\u{1B}[2K\(prompt)\(line)\n".utf8))
                    trend_el_add_history(line)
                    return .line(line)
                }
            }
        }
        guard let pointer = receivedLine else {
            FileHandle.standardOutput.write(Data("\n".utf8))
            return .endOfInput
        }
        let line = String(cString: pointer)
        free(pointer)
        if !line.trimmingCharacters(in: .whitespaces).isEmpty {
            trend_el_add_history(line)
        }
        return .line(line)
    }

    /// Sets what Ctrl-C does until the running command ends (nil: nothing but
    /// being spent, so it cancels no later line).
    func whileCommandRuns(onInterrupt: (@Sendable () -> Void)?) {
        hookLock.withLock { commandInterrupt = onInterrupt }
    }

    /// While a command runs, this thread waits for its end and turns each Ctrl-C into the command's interrupt. A
    /// hang-up meanwhile lets the command finish, and the next read is the end of input.
    func waitWhileCommandRuns(_ finished: DispatchSemaphore) {
        while finished.wait(timeout: .now()) == .timedOut {
            var fds = [pollfd(fd: interruptPipe.read, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: finishedPipe.read, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: hangupPipe.read, events: Int16(ended ? 0 : POLLIN), revents: 0)]
            guard poll(&fds, 3, -1) > 0 else { continue }  // EINTR: look again.
            Self.drain(finishedPipe.read)
            if fds[2].revents & Int16(POLLIN) != 0 {
                Self.drain(hangupPipe.read)
                ended = true
            }
            if fds[0].revents & Int16(POLLIN) != 0 {
                Self.drain(interruptPipe.read)
                hookLock.withLock { commandInterrupt }?()
            }
        }
    }

    func commandDidFinish() {
        var byte: UInt8 = 1
        _ = write(finishedPipe.write, &byte, 1)  // A full pipe already holds a wake-up.
    }

    private func drainInterrupts() {
        Self.drain(interruptPipe.read)
    }

    private static func drain(_ descriptor: Int32) {
        var drain = [UInt8](repeating: 0, count: 64)
        while read(descriptor, &drain, drain.count) > 0 {}
    }

    /// Writes the history file (0600) in the data directory, unless
    /// something other than a regular file has taken its name.
    func saveHistory() {
        guard Self.historyEntry(historyPath) != .other else { return }
        if trend_el_write_history(historyPath) == 0 {
            chmod(historyPath, 0o600)
        }
    }

    enum HistoryEntry { case missing, regularFile, other }

    /// What is at the history path, without following a link.
    static func historyEntry(_ path: String) -> HistoryEntry {
        var info = stat()
        guard lstat(path, &info) == 0 else { return .missing }
        return info.st_mode & S_IFMT == S_IFREG ? .regularFile : .other
    }
}

private func lineHandler(_ line: UnsafeMutablePointer<CChar>?) {
    receivedLine = line
    lineComplete = true
}

/// Builds readline's match array: element 0 is the common prefix that
/// replaces the line before the cursor (libedit breaks no words: see
/// `trend_el_setup`), then the candidates, then NULL.
private func completeHook(_ text: UnsafePointer<CChar>?, _ start: Int32, _ end: Int32) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
    let buffer = trend_el_line_buffer().map { String(cString: $0) } ?? ""
    // libedit counts the cursor in wide characters (wchar_t, one per Unicode scalar here), not in bytes.
    var scalars = String.UnicodeScalarView()
    scalars.append(contentsOf: buffer.unicodeScalars.prefix(max(0, Int(end))))
    let linePrefix = String(scalars)
    completionLock.lock()
    let table = completionTable
    completionLock.unlock()
    let candidates = Completer.completeLine(linePrefix, table: table)
    guard !candidates.isEmpty else {
        trend_el_completion_done(0)
        return nil
    }
    let common = Completer.commonLine(candidates, linePrefix: linePrefix)
    // A second Tab on the same line lists the choices, in the completer's order (ranges 1w 1m 3m 6m 1y all),
    // each as the word it completes (a file by its name).
    completionLock.lock()
    // Or a Tab that cannot add a character: the choices are what is left to show (libedit would list whole lines).
    let repeated = lastCompletedPrefix == linePrefix || common == linePrefix
    lastCompletedPrefix = linePrefix
    completionLock.unlock()
    if repeated, candidates.count > 1 {
        let head = linePrefix[..<CommandTokenizer.lastWordStart(linePrefix)]
        let words = candidates.map { candidate in
            let word = String(candidate.dropFirst(head.count))
            let name = word.hasSuffix("/") ? (String(word.dropLast()) as NSString).lastPathComponent + "/"
                : word.contains("/") ? (word as NSString).lastPathComponent : word
            return TerminalText.visible(name)
        }
        // Lines no wider than the terminal, as libedit lays out its own list.
        var lines = [""]
        for word in words {
            let last = lines[lines.count - 1]
            if !last.isEmpty, TerminalText.columns(last) + 2 + TerminalText.columns(word) > terminalWidth() { lines.append(word) }
            else { lines[lines.count - 1] = last.isEmpty ? word : last + "  " + word }
        }
        let list = "\n" + lines.joined(separator: "\n") + "\n"
        _ = list.withCString { write(STDOUT_FILENO, $0, strlen($0)) }
        if trend_el_redraw_line() != 0 {
            trend_el_completion_done(0)
            return nil
        }
    }
    trend_el_completion_done(candidates.count == 1 && !common.hasSuffix("/") ? 32 : 0)
    let matches = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: candidates.count + 2)
    matches[0] = strdup(common)
    for (index, candidate) in candidates.enumerated() {
        matches[index + 1] = strdup(candidate)
    }
    matches[candidates.count + 1] = nil
    if candidates.count == 1 {
        free(matches[1])
        matches[1] = nil
    }
    return matches
}
