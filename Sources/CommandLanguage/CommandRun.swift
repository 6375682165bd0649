/// What one line printed.
public struct CommandResult: Sendable, Equatable {
    /// Where the text goes: answers to standard output, failures (as text) to standard error.
    public enum Stream: Sendable { case standardOutput, standardError }
    /// Text to print, without a final newline; empty prints nothing.
    public var text: String
    public var stream: Stream
    public var succeeded: Bool
    public var endsSession: Bool
    /// Something the person should hear about besides the answer (a failing
    /// backup); printed on standard error, apart from the JSON on standard output.
    public var warnings: [String] = []

    public init(text: String, stream: Stream, succeeded: Bool, endsSession: Bool, warnings: [String] = []) {
        (self.text, self.stream, self.succeeded, self.endsSession, self.warnings) = (text, stream, succeeded, endsSession, warnings)
    }

    /// A failure as a script reads it (`json`: one JSON line on standard output) or a person does (on standard error,
    /// fitted to the terminal; a message may quote a path or a word from a file, so its control characters are shown).
    public init(_ failure: CommandFailure, json: Bool, style: TerminalStyle) {
        self = json ? CommandResult(text: failure.json.encoded(), stream: .standardOutput, succeeded: false, endsSession: false)
            : CommandResult(text: style.fitted(style.paint("error:", .red) + " " + TerminalText.visible(failure.message)),
                            stream: .standardError, succeeded: false, endsSession: false)
    }
}

extension DeclaredCommands {
    /// The words of a line as its command reads them: quotes and a person's phrases (`add habit` is `habit add`)
    /// read, nil for a blank line or a `#` comment.
    public func words(of line: String) throws(CommandFailure) -> [String]? {
        let words: [String]
        do {
            words = try CommandTokenizer.tokenize(line)
        } catch {
            throw CommandFailure(.usage, "unterminated quote opened at column \(error.column); close it with the same quote")
        }
        guard let first = words.first, !first.hasPrefix("#") else { return nil }
        return reading(words)
    }

    /// The command a word names, or the failure that says so with the closest command's name.
    public func command(for word: String) throws(CommandFailure) -> Command {
        guard let command = command(named: word) else {
            let closest = closest(to: word).map { "; did you mean '\($0)'?" } ?? "."
            throw CommandFailure(.unknownCommand, "unknown command '\(TerminalText.printable(word))'\(closest) Type 'help' for the list.")
        }
        return command
    }

    /// Runs one line: its words read (`words(of:)`), its command found, what it declares it reads loaded by
    /// `prepare` (which gives what the handler is given and what parsing may know), its words parsed by its
    /// declaration, and its answer written for a person (`style`) or a script (`json`). `failure` says what a
    /// command threw; the language's own refusals (an unknown command, a usage) are said as they are.
    @MainActor
    public func run(_ line: String, style: TerminalStyle, json: Bool,
                    prepare: (Command, [String]) async throws -> (handling: Domain.Handling, context: Domain.Context),
                    failure: (any Error, Command) -> CommandFailure) async -> CommandResult {
        let command: Command, words: [String]
        do {
            guard let read = try self.words(of: line) else {
                return CommandResult(text: "", stream: .standardOutput, succeeded: true, endsSession: false)
            }
            (command, words) = (try self.command(for: read[0]), Array(read.dropFirst()))
        } catch {
            return CommandResult(error, json: json, style: style)
        }
        do {
            // The declaration says what the command takes: one that takes nothing refuses words, before anything runs.
            if command.syntax.takesNoArguments, !words.isEmpty { throw CommandFailure(.usage, "\(command.name): takes no arguments") }
            let (handling, context) = try await prepare(command, words)
            // The words are read once, by the command's declaration; the command gets what they mean.
            let arguments = try command.syntax.parse(words, command: command.name, examples: command.examples, context: context)
            let output = try await command.run(handling, arguments)
            // Text fits the terminal: a line longer than it wraps at its spaces.
            let text = json ? output.rawJSON ?? output.json.encoded() : style.fitted(output.text)
            return CommandResult(text: text, stream: .standardOutput, succeeded: true, endsSession: output.endsSession, warnings: output.warnings)
        } catch let refused as CommandFailure {
            return CommandResult(refused, json: json, style: style)
        } catch let refused as UsageError {
            return CommandResult(CommandFailure(.usage, refused.message), json: json, style: style)
        } catch {
            return CommandResult(failure(error, command), json: json, style: style)
        }
    }
}
