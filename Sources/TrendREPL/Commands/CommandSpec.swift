import AppCore
import CommandLanguage

/// Everything a command handler may use: the application graph and how to print.
@MainActor
public struct CommandContext {
    /// The application graph, built when a command first needs it (`help` opens no database).
    public var app: AppModel { makeApp() }
    private let makeApp: @MainActor () -> AppModel
    /// Every command, for `help`.
    public let catalog: CommandCatalog
    public let style: TerminalStyle
    /// The answer is JSON (`--json`), not text.
    public let json: Bool
    /// A person at a terminal (prompts for confirmation, progress bars).
    public let isInteractive: Bool
    /// Whether a likely slip (a weight far from the trend) is asked about: at the prompt, and for
    /// `-c` typed at a terminal; a script records it with a warning.
    public var asksAboutDoubts: Bool = false
    /// Asks a yes/no question on a terminal; in scripts and `-c` the command
    /// itself is the confirmation, so this answers yes.
    public let confirm: @MainActor (String) async -> Bool
    /// Writes part of a long answer now (a million entries are never held):
    /// text lines with their newlines, or the first part of the JSON line.
    /// False when the output is gone (a closed pipe): the command may stop.
    public let emit: @MainActor (String) -> Bool
    /// The line as typed, for words whose quotes are content (a note).
    public var line: String = ""

    init(app: @escaping @MainActor () -> AppModel, catalog: CommandCatalog, style: TerminalStyle, json: Bool, isInteractive: Bool,
         confirm: @escaping @MainActor (String) async -> Bool, emit: @escaping @MainActor (String) -> Bool) {
        makeApp = app
        self.catalog = catalog
        self.style = style
        self.json = json
        self.isInteractive = isInteractive
        self.confirm = confirm
        self.emit = emit
    }
}

/// One REPL command, declared once: its words, what it takes (`syntax`, from
/// which its usage line and its completion come), its help and its handler.
@MainActor
public struct CommandSpec {
    public nonisolated let name: String
    public nonisolated let aliases: [String]
    /// What it takes, made when first asked for: a one-shot `trend -c today` builds only its own command's.
    nonisolated var syntax: CommandSyntax { makeSyntax() }
    private nonisolated let makeSyntax: @Sendable () -> CommandSyntax
    public let summary: String
    public let examples: [String]
    /// Whether the person's settings are read before it runs (all but a few, such as `quit`, which work without a database).
    public let readsSettings: Bool
    /// What else it reads, from the words typed after it (`export x.html` reads what `export x.csv` does not),
    /// loaded by the session before the words are parsed.
    public let reads: @MainActor ([String]) -> CommandReads
    /// Runs the command on its arguments, read once by `syntax`.
    let run: @MainActor (CommandContext, ParsedArguments) async throws -> CommandOutput

    init(name: String, aliases: [String] = [], syntax: @autoclosure @escaping @Sendable () -> CommandSyntax = .none, reads: CommandReads = [],
                readsFor: (@MainActor ([String]) -> CommandReads)? = nil, summary: String, examples: [String] = [], readsSettings: Bool = true,
                run: @escaping @MainActor (CommandContext, ParsedArguments) async throws -> CommandOutput) {
        self.name = name
        self.aliases = aliases
        makeSyntax = syntax
        self.summary = summary
        self.examples = examples
        self.readsSettings = readsSettings
        self.reads = readsFor ?? { _ in reads }
        self.run = run
    }

    /// `weigh WEIGHT [UNIT] [WHEN] [note TEXT]`, from the syntax.
    public nonisolated var usage: String { syntax.usage.isEmpty ? name : name + " " + syntax.usage }

    /// How its arguments complete, from the syntax.
    public nonisolated var completion: CompletionRule { syntax.completion }

}
