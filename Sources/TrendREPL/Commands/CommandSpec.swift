import AppCore

/// Everything a command handler may use: the application graph and how to print.
@MainActor
public struct CommandContext {
    public let app: AppModel
    public let style: TerminalStyle
    /// The answer is JSON (`--json`), not text.
    public let json: Bool
    /// A person at a terminal (prompts for confirmation, progress bars).
    public let isInteractive: Bool
    /// Asks a yes/no question on a terminal; in scripts and `-c` the command
    /// itself is the confirmation, so this answers yes.
    public let confirm: @MainActor (String) async -> Bool
    /// Writes part of a long answer now (a million entries are never held):
    /// text lines with their newlines, or the first part of the JSON line.
    /// False when the output is gone (a closed pipe): the command may stop.
    public let emit: @MainActor (String) -> Bool
    /// The line as typed, for words whose quotes are content (a note).
    public var line: String = ""
}

/// What may follow a word when completing with Tab.
public enum ArgumentSlot: Sendable, Equatable {
    /// One of these fixed words.
    case words([String])
    /// A name the session learns at run time (habit names, backup names).
    case vocabulary(String)
    /// A path on disk.
    case file
}

/// How the arguments of one command complete.
public enum CompletionRule: Sendable, Equatable {
    case none
    /// Argument `i` completes from slot `i`.
    case positional([ArgumentSlot])
    /// The first argument is a subcommand; each has its own positional slots.
    case subcommands([String: [ArgumentSlot]])
}

/// One REPL command: its words, its help and its handler.
@MainActor
public struct CommandSpec {
    public let name: String
    public let aliases: [String]
    public let usage: String
    public let summary: String
    public let examples: [String]
    public let completion: CompletionRule
    /// Whether the person's settings are read before it runs (all but a few, such as `quit`, which work without a database).
    public let readsSettings: Bool
    public let run: @MainActor (CommandContext, [String]) async throws -> CommandOutput

    public init(name: String, aliases: [String] = [], usage: String, summary: String, examples: [String] = [],
                completion: CompletionRule = .none, readsSettings: Bool = true,
                run: @escaping @MainActor (CommandContext, [String]) async throws -> CommandOutput) {
        self.name = name
        self.aliases = aliases
        self.usage = usage
        self.summary = summary
        self.examples = examples
        self.completion = completion
        self.readsSettings = readsSettings
        self.run = run
    }

}
