/// TrendREPL is the presentation layer: it parses command lines, turns
/// Feature state into text and JSON through one ViewModel per screen, and
/// completes words. It imports AppCore only; libedit stays in the executable.
import CommandLanguage
import AppCore
import Foundation
import Habits
import Storage

/// Runs command lines against one `AppModel`, in text or JSON. The model is
/// built on the first command that needs it: `help` opens no database.
@MainActor
public final class ReplSession {
    private let makeApp: @MainActor () -> AppModel
    /// The model, once a command has needed it.
    public private(set) var builtApp: AppModel?
    /// The model, built now if no command needed it yet.
    public var app: AppModel {
        if let builtApp { return builtApp }
        let built = makeApp()
        builtApp = built
        return built
    }
    public let json: Bool
    /// Colours and width; the width is measured again before each command (`measureWidth`).
    public private(set) var style: TerminalStyle
    /// The terminal's width now; the executable reads it from the terminal, so a
    /// window resized mid-session is honoured by the next command.
    public var measureWidth: (@MainActor () -> Int)?
    public let isInteractive: Bool
    /// Whether a likely slip is asked about (see `CommandContext.asksAboutDoubts`); the prompt's value unless set.
    public var asksAboutDoubts: Bool
    /// See `CommandContext.asksBeforeWriting`; the executable sets it.
    public var asksBeforeWriting = false
    /// See `CommandContext.showsOnTerminal`: the prompt's value unless the executable sets it.
    public var showsOnTerminal: Bool
    let catalog: CommandCatalog
    /// The commands' completions, the same all session long (each command's syntax is made when asked for).
    private lazy var commandCompletions = catalog.completionTable
    /// How many commands failed so far; decides the exit status.
    public private(set) var failures = 0
    /// Asks the person a yes/no question; the executable sets it on a terminal.
    public var confirm: @MainActor (String) async -> Bool = { _ in true }
    /// Where a long answer's parts go as they are ready (the executable writes
    /// them to standard output); without it they are kept and returned with
    /// the rest of the answer, as tests read it.
    public var streamsOutput: (@MainActor (String) -> Bool)?
    private var emitted = ""

    public init(app: @escaping @autoclosure @MainActor () -> AppModel, json: Bool, style: TerminalStyle, isInteractive: Bool) {
        makeApp = app
        self.json = json
        self.style = style
        self.isInteractive = isInteractive
        asksAboutDoubts = isInteractive
        showsOnTerminal = isInteractive
        self.catalog = CommandCatalog.standard()
    }

    public var exitStatus: Int32 { failures == 0 ? 0 : 1 }

    /// Parses and runs one line. Blank lines and `#` comments do nothing.
    /// A backup that keeps failing is said as a warning, once a day.
    public func execute(_ line: String) async -> CommandResult {
        // What another process wrote is looked for once in this command, by each Feature that reads.
        var result = await FreshLoader.runningCommand { await run(line) }
        if !result.text.isEmpty, let builtApp { result.warnings += await builtApp.backupFeature.pendingWarnings() }
        if let builtApp, let failure = builtApp.syncFeature.pendingWarning() {
            result.warnings.append("sync: \(failure); 'sync' shows the devices and what went wrong")
        }
        return result
    }

    private func run(_ line: String) async -> CommandResult {
        if let measureWidth { style = TerminalStyle(colors: style.colors, width: measureWidth(), wraps: style.wraps) }
        emitted = ""
        defer { emitted = "" }
        // The person's settings (day start, unit, goal, height) hold from the first command of every way in, the prompt,
        // `-c` and a script alike; what the command declares it reads is loaded at its boundary, once, and its words are
        // read from loaded values.
        var result = await catalog.run(line, style: style, json: json,
                                       prepare: { spec, words in (makeContext(line), try await load(for: spec, words: words, line: line)) },
                                       failure: { error, spec in FailureMessage.failure(from: error, command: spec.name) })
        if result.succeeded { result.text = emitted + result.text } else { failures += 1 }
        return result
    }

    /// What a command on `line` may use.
    private func makeContext(_ line: String) -> CommandContext {
        CommandContext(makeApp: { [unowned self] in app }, catalog: catalog, style: style, json: json, isInteractive: isInteractive,
                       asksAboutDoubts: asksAboutDoubts, asksBeforeWriting: asksBeforeWriting, showsOnTerminal: showsOnTerminal,
                       confirm: confirm,
                       emit: { [unowned self] part in
                           // Parts are whole lines: each fitted to the terminal like any answer.
                           let part = style.fitted(part)
                           if let stream = streamsOutput { return stream(part) }
                           emitted += part
                           return true
                       }, line: line)
    }

    /// The arguments of `line` as its command's declaration reads them, running nothing (for tests of the declarations).
    func arguments(of line: String) async throws -> ParsedArguments {
        guard let words = try catalog.words(of: line) else { throw CommandFailure(.unknownCommand, "no command in '\(line)'") }
        let spec = try catalog.command(for: words[0]), rest = Array(words.dropFirst())
        return try spec.syntax.parse(rest, command: spec.name, examples: spec.examples, context: try await load(for: spec, words: rest, line: line))
    }

    /// The command's boundary: the person's settings (and the other devices' changes, with a sync folder set, so
    /// the command reads one history), then what `spec` declares it reads, each once; what parsing may know of them.
    private func load(for spec: CommandSpec, words: [String], line: String) async throws -> ReadingContext {
        var reading = ReadingContext()
        reading.line = line
        guard spec.readsSettings else { return reading }
        // A mark made at 02:30 with days starting at 04:00 lands on the day before, whichever way in comes first.
        try await app.settingsFeature.load()
        await app.commandWillRun()
        let weights = app.weightEntryFeature, reads = spec.reads(words)
        if reads.contains(.weighIns) {
            try await weights.load()
            reading.trendKilograms = { weights.latestTrendKilograms() }
        }
        if reads.contains(.habits) {
            try await app.habitsFeature.load()
            reading.habits = app.habitsFeature.habits
        } else if reads.contains(.habitNames) {
            reading.habits = try await app.habitsFeature.habitsReadingLittle()
        }
        if reads.contains(.measurements) {
            try await app.measurementsFeature.load()
            reading.measurements = app.measurementsFeature.measurements
        }
        reading.today = weights.today
        reading.weightUnit = weights.unit
        reading.lengthUnit = app.measurementsFeature.unit
        return reading
    }
}

extension ReplSession {
    /// The reminders for the open prompt, each one line once (see `RemindersFeature.promptReminders`): the
    /// session's boundary reads the settings (the day start) first, as for any command.
    public func reminderAnnouncements(promptOpenedAt: Date) async throws -> [String] {
        try await app.settingsFeature.load()
        return RemindViewModel.lines(try await app.remindersFeature.promptReminders(openedAt: promptOpenedAt))
    }

    /// `trend remind --watch`, until `shouldStop` says so; the exit status. Each thing it does is a line for
    /// `write` (an error: true). A second watcher on the same data directory says so and ends with 0.
    public func watchReminders(shouldStop: @escaping @Sendable () -> Bool, write: @escaping @MainActor (String, Bool) -> Void) async -> Int32 {
        let app = app
        do {
            try await app.settingsFeature.load()
            try await app.remindersFeature.watch(shouldStop: shouldStop, refresh: { await app.commandWillRun() }) { line in
                write(RemindViewModel.logLine(line), false)
            }
            return 0
        } catch let already as RemindersWatchError {
            write("remind --watch: \(already)", false)
            return 0
        } catch {
            write("error: remind --watch: \(error)", true)
            return 1
        }
    }

    /// Backup names for completion, read from the folder (cheap: names only).
    var backupNames: (weekly: [String], beforeRestore: [String]) {
        let folder = app.settingsFeature.dataDirectory.appendingPathComponent("Backups")
        func names(_ sub: String) -> [String] {
            // Completion only: an unreadable folder offers no names, and 'backup list' reports it.
            ((try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(sub).path)) ?? [])
                .filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.map { String($0.dropLast(5)) }.sorted(by: >)
        }
        return (names("Weekly"), names("Before-restore"))
    }

    /// What Tab completes from the declarations alone (before any database is opened).
    public var declaredCompletions: CompletionTable { commandCompletions }

    /// What Tab can complete now, including names the Features hold.
    public var completionTable: CompletionTable {
        var table = commandCompletions
        table.vocabulary["habits"] = app.habitsFeature.habits.map(\.name)
        table.vocabulary["weekly"] = backupNames.weekly
        table.vocabulary["before-restore"] = backupNames.beforeRestore
        return table
    }
}
