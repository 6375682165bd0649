/// The `trend` executable: flags, the line reader and the loop. Everything
/// else lives in TrendREPL and below.
import CommandLanguage
import AppCore
import Dispatch
import Desktop
import Foundation
import TrendREPL

@MainActor
func runTrend() async -> Int32 {
    let output = ProcessOutput.shared
    output.guardStandardDescriptors()
    // Before any thread starts: the runtime stops the process when it cannot open a file of its own, and waits
    // forever for a thread the system will not start.
    if let problem = ProcessLimits.raise() {
        output.write(problem + "\n", to: .standardError)
        return 1
    }
    let options: TrendOptions
    do {
        options = try TrendOptions.parse(Array(CommandLine.arguments.dropFirst()))
    } catch {
        output.write("trend: \(error.message)\n\(TrendOptions.usage)\n", to: .standardError)
        return 2
    }
    // Neither needs the data directory nor the environment.
    if options.showHelp {
        output.write(TrendOptions.usage + "\n", to: .standardOutput)
        return output.outputFailed ? 1 : 0
    }
    if options.showVersion {
        output.write("trend \(TrendOptions.version)\n", to: .standardOutput)
        return output.outputFailed ? 1 : 0
    }
    // The one parse of the command line names the data directory the production graph is built on.
    // Read once: Foundation builds the whole dictionary at each call, a quarter of a millisecond of every start.
    let environment = ProcessInfo.processInfo.environment
    let dataDirectory = DataDirectory.resolve(flag: options.dataDirectory, environment: environment)
    AppModel.configure(dataDirectory: dataDirectory)
    // Before anything opens it: a first launch has no database yet, and the prompt says how to begin.
    let firstLaunch = DataDirectory.isNew(dataDirectory)
    if let shell = options.completionShell {
        output.write(ShellIntegration.completionScript(for: shell), to: .standardOutput)
        return output.outputFailed ? 1 : 0
    }
    if options.showManPage {
        output.write(ShellIntegration.manPage(commands: TrendCommands.pages, version: TrendOptions.version, usage: TrendOptions.usage),
                     to: .standardOutput)
        return output.outputFailed ? 1 : 0
    }
    if let line = options.completeLine {
        // Habit and backup names come from the data directory, as at the prompt.
        let session = ReplSession(app: AppModel.shared, json: false, style: TerminalStyle(colors: false, width: 80),
                                  isInteractive: false)
        try? await session.app.habitsFeature.load()  // Without habits, the other words still complete.
        let candidates = ShellIntegration.completions(of: line, table: session.completionTable)
        output.write(candidates.map { $0 + "\n" }.joined(), to: .standardOutput)
        await finish(session.app)
        return output.outputFailed ? 1 : 0
    }
    umask(0o077)
    // Past a file-size limit a write should fail with an error Trend reports, not kill the process.
    signal(SIGXFSZ, SIG_IGN)
    // A reader that goes away (`| head -1`) is an EPIPE for ProcessOutput, not the end of the process.
    signal(SIGPIPE, SIG_IGN)
    let terminalIn = isatty(STDIN_FILENO) == 1
    let terminalOut = isatty(STDOUT_FILENO) == 1
    let interactive = options.commands.isEmpty && terminalIn
    // As ls and grep: colours on a terminal, or always when asked; NO_COLOR (any value) wins over both.
    let colors = (terminalOut || options.forceColor) && !options.noColor && !options.json && environment["NO_COLOR"] == nil
    let style = TerminalStyle(colors: colors, width: terminalWidth(environment: environment), wraps: terminalOut)

    // The graph is built on the directory configured above when the first command needs it: `trend -c help` opens no database.
    let session = ReplSession(app: launched(interactive: interactive), json: options.json, style: style,
                              isInteractive: interactive && terminalOut)
    if terminalOut { session.measureWidth = { terminalWidth(environment: environment) } }
    // A long answer (`entries all`) is written as it is read, never held whole.
    session.streamsOutput = { part in
        output.write(part, to: .standardOutput)
        return !output.outputFailed
    }

    if options.watchReminders {
        // The watcher runs for a whole login: SIGTERM (the session ending), SIGINT and SIGHUP end it between two looks.
        DesktopBus.stopOnSignals()
        let status = await session.watchReminders(shouldStop: { DesktopBus.stopRequested }) { line, failed in
            output.write(line + "\n", to: failed ? .standardError : .standardOutput)
        }
        await finish(session.app)
        return status
    }
    if !options.commands.isEmpty {
        // A reminder printed here reaches a person only on a terminal; `trend remind install` typed there shows its plan first.
        session.showsOnTerminal = terminalOut
        session.asksBeforeWriting = options.asksBeforeWriting && terminalIn && terminalOut && !options.json
        // `trend -c "weigh 29.8"` typed at a terminal asks about a likely slip as the prompt does; in a script it is recorded with a warning.
        if terminalIn && terminalOut && !options.json {
            session.asksAboutDoubts = true
            session.confirm = { question in
                output.write(session.style.fitted(question + " [y/N]") + " ", to: .standardOutput)
                guard let answer = readLine() else { return false }
                return ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased())
            }
        }
        for command in options.commands {
            let result = await session.execute(command)
            emit(result, style: session.style)
            if result.endsSession { break }
        }
        if let app = session.builtApp { await finish(app) }
        return exitStatus(session)
    }
    let app = session.app

    let reader: any LineReader
    var editLine: EditLineReader?
    if interactive, !terminalOut {
        // `trend | tee log.txt`: the answers go down the pipe as they are ready; the prompt stays on the terminal.
        reader = ScriptLineReader(promptDescriptor: isatty(STDERR_FILENO) == 1 ? STDERR_FILENO : nil)
    } else if interactive {
        let history = app.settingsFeature.dataDirectory.appendingPathComponent("history").path
        // Best effort: without the folder the history is not kept, and the reader says so; the commands still run.
        try? FileManager.default.createDirectory(at: app.settingsFeature.dataDirectory, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        if let lineReader = EditLineReader(historyPath: history) {
            // A reminder that comes due while the prompt is open: one line above it (DESIGN §9).
            Task { await announceReminders(session, on: lineReader) }
            EditLineReader.setCompletionTable(session.declaredCompletions)
            // The habits' names join what Tab offers once launch has read them, before any command has run.
            Task {
                try? await app.habitsFeature.load()  // Unreadable habits: their first command says why; Tab offers the rest.
                EditLineReader.setCompletionTable(session.completionTable)
            }
            editLine = lineReader
            reader = lineReader
        } else {
            output.write("warning: libedit could not be loaded; lines are read without editing, history or completion\n",
                         to: .standardError)
            reader = ScriptLineReader(promptDescriptor: STDOUT_FILENO)
        }
    } else {
        reader = ScriptLineReader()
    }

    let monitor = LifecycleMonitor(now: { .now }, timeZone: {
        // Re-read /etc/localtime, so a zone changed while the REPL is open reaches the Features' calendar.
        NSTimeZone.resetSystemTimeZone()
        return TimeZone.current
    }, dayStartMinutes: { app.settingsFeature.current.dayStartMinutes })
    let resume = DispatchSource.makeSignalSource(signal: SIGCONT, queue: .main)
    signal(SIGCONT, SIG_IGN)
    // The refresh a resume starts is awaited before the next command runs.
    var resumed: Task<Void, Never>?
    resume.setEventHandler {
        MainActor.assumeIsolated {
            resumed = Task { await app.applicationDidBecomeActive() }
        }
    }
    resume.resume()

    if interactive, firstLaunch {
        output.write(HelpViewModel.welcome(style: session.style) + "\n", to: .standardOutput)
    }
    let handOff = LineHandOff(reader: reader, prompt: interactive ? "trend> " : "")
    let lines = LineSource(handOff.lines())
    if interactive {
        session.confirm = { question in
            // A long question is wrapped at its spaces, as any answer is: the prompt is its last line, so no
            // word breaks at the terminal's edge (`previo|us`, `89.|2 kg`).
            let wrapped = session.style.fitted(question + " [y/N]").components(separatedBy: "\n")
            if wrapped.count > 1 { output.write(wrapped.dropLast().joined(separator: "\n") + "\n", to: .standardOutput) }
            handOff.commandFinished(nextPrompt: (wrapped.last ?? "") + " ")
            guard let answer = await lines.next() else { return false }
            return ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased())
        }
    }
    while let line = await lines.next() {
        await resumed?.value
        resumed = nil
        for event in monitor.commandArrived() {
            switch event {
            case .becameActive: await app.applicationDidBecomeActive()
            case .significantTimeChange: await app.applicationSignificantTimeChange()
            }
        }
        let running = Task { await session.execute(line) }
        // Ctrl-C stops a command where it can stop (an import, a restore), before anything is written.
        editLine?.whileCommandRuns { running.cancel() }
        let result = await running.value
        editLine?.whileCommandRuns(onInterrupt: nil)
        emit(result, style: session.style)
        if let editLine {
            EditLineReader.setCompletionTable(session.completionTable)
            editLine.saveHistory()
        }
        if result.endsSession { break }
        handOff.commandFinished()
    }
    editLine?.saveHistory()
    await finish(app)
    return exitStatus(session)
}

/// Shows each reminder as it comes due above the prompt, for as long as the prompt is open: it looks when the next
/// one is due, and at least once a minute (another process may have set one, or marked the habit).
@MainActor
func announceReminders(_ session: ReplSession, on reader: EditLineReader) async {
    let opened = session.app.remindersFeature.now
    while !Task.isCancelled {
        // An unreadable database is said by the commands that read it; the prompt's reminders wait for the next look.
        for line in (try? await session.reminderAnnouncements(promptOpenedAt: opened)) ?? [] { reader.announce(line) }
        await session.app.remindersFeature.waitForNextDue(atMostSeconds: 60)
    }
}

/// The production graph, launched for the kind of run this is.
@MainActor
func launched(interactive: Bool) -> AppModel {
    let app = AppModel.shared
    if interactive {
        // Launch work overlaps with a person reading the prompt.
        app.applicationDidFinishLaunching()
    } else {
        app.applicationDidFinishLaunchingForCommands()
    }
    return app
}

/// The commands' status, or 1 when their output could not be written (a closed pipe is not a failure).
@MainActor
func exitStatus(_ session: ReplSession) -> Int32 {
    ProcessOutput.shared.outputFailed ? 1 : session.exitStatus
}

/// The one reader of the line stream, shared by the loop and confirmation questions.
@MainActor
final class LineSource {
    private var iterator: AsyncStream<String>.Iterator

    init(_ stream: AsyncStream<String>) {
        iterator = stream.makeAsyncIterator()
    }

    func next() async -> String? {
        // The iterator is a handle on the stream's shared storage, so a copy advances the same stream.
        var current = iterator
        let line = await current.next(isolation: #isolation)
        iterator = current
        return line
    }
}

/// The exit-time backup check, and a word if it failed.
@MainActor
func finish(_ app: AppModel) async {
    let output = ProcessOutput.shared
    for warning in await app.applicationWillTerminate() {
        output.write("warning: \(warning)\n", to: .standardError)
    }
}

@MainActor
func emit(_ result: CommandResult, style: TerminalStyle) {
    let output = ProcessOutput.shared
    for warning in result.warnings {
        // Fitted to the terminal like the answer it comes with.
        output.write(style.fitted("warning: \(warning)") + "\n", to: .standardError)
    }
    guard !result.text.isEmpty else { return }
    switch result.stream {
    case .standardOutput: output.write(result.text + "\n", to: .standardOutput)
    case .standardError: output.write(result.text + "\n", to: .standardError)
    }
}

/// The terminal's width; where standard output is no terminal, `COLUMNS` from `environment` (read once at start,
/// or now when none is given).
func terminalWidth(environment: [String: String]? = nil) -> Int {
    var size = winsize()
    if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
        return Int(size.ws_col)
    }
    if let columns = (environment ?? ProcessInfo.processInfo.environment)["COLUMNS"].flatMap(Int.init) { return columns }
    return 80
}

let status = await runTrend()
exit(status)
