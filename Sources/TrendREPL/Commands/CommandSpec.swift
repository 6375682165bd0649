import AppCore
import CommandLanguage

/// Everything a command handler may use: the application graph and how to print.
@MainActor
public struct CommandContext {
    /// The application graph, built when a command first needs it (`help` opens no database).
    public var app: AppModel { makeApp() }
    let makeApp: @MainActor () -> AppModel
    /// Every command, for `help`.
    let catalog: CommandCatalog
    public let style: TerminalStyle
    /// The answer is JSON (`--json`), not text.
    public let json: Bool
    /// A person at a terminal (prompts for confirmation, progress bars).
    public let isInteractive: Bool
    /// Whether a likely slip (a weight far from the trend) is asked about: at the prompt, and for
    /// `-c` typed at a terminal; a script records it with a warning.
    public var asksAboutDoubts: Bool = false
    /// Whether a command that writes outside the data directory (`remind install`) shows its plan and asks
    /// first: at the prompt, and for `trend remind install` typed at a terminal (`-c` is a script's yes).
    public var asksBeforeWriting: Bool = false
    /// Whether a person reads the answer on a terminal (a reminder printed there has reached them).
    public var showsOnTerminal: Bool = false
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

/// One REPL command, declared once in the command language (`CommandDeclaration`) with Trend's words: what its
/// handler is given (`CommandContext`) and what the session loads first (`CommandReads`).
typealias CommandSpec = CommandDeclaration<TrendArguments>
