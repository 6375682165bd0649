/// The `help` screen: the command list, or one command in full.
@MainActor
public struct HelpViewModel {
    let catalog: CommandCatalog

    static let command = CommandSpec(
        name: "help", aliases: ["?", "h"], syntax: .optional(.value("COMMAND")), summary: "list the commands, or explain one",
        examples: ["help", "help weigh"]
    ) { _, _ in
        // The session answers help itself, since it holds the catalogue.
        CommandOutput(text: "", json: .null)
    }

    /// What the prompt says first on a data directory with no database yet: how to begin, in two lines.
    public static func welcome(style: TerminalStyle) -> String {
        style.fitted(style.bold("Welcome to Trend.") + " Start with a weigh-in: weigh 82.4 (or 181.6 lb), then habit add Read every day.")
            + "\n" + style.fitted("'today' shows the check-in, 'progress' the trend, 'help' every command; Ctrl-D leaves.")
    }

    func help(_ arguments: [String], style: TerminalStyle) throws -> CommandOutput {
        if let word = arguments.first {
            guard let spec = catalog.command(named: word) else {
                var message = "help: no command '\(ReplSession.printable(word))'"
                if let suggestion = catalog.closest(to: word) { message += "; did you mean '\(suggestion)'?" }
                throw CommandFailure(.unknownCommand, message)
            }
            return CommandOutput(OneCommand(spec), style: style)
        }
        return CommandOutput(Listing(commands: catalog.commands.map(Listing.Entry.init)), style: style)
    }

    /// `help COMMAND`: one command in full, from its declaration.
    struct OneCommand: CommandAnswer {
        let command: String
        let usage: String
        let summary: String
        let aliases: [String]
        let examples: [String]

        init(_ spec: CommandSpec) {
            command = spec.name
            usage = spec.usage
            summary = spec.summary
            aliases = spec.aliases
            examples = spec.examples
        }

        func text(style: TerminalStyle) -> String {
            var lines = [style.bold(usage), "  " + summary]
            if !aliases.isEmpty { lines.append("  aliases: " + aliases.joined(separator: ", ")) }
            if !examples.isEmpty {
                lines.append("  examples:")
                lines += examples.map { "    " + $0 }
            }
            return lines.joined(separator: "\n")
        }
    }

    /// `help`: every command with its usage and summary.
    struct Listing: CommandAnswer {
        let commands: [Entry]

        struct Entry: Encodable {
            let command: String
            let usage: String
            let summary: String

            init(_ spec: CommandSpec) {
                command = spec.name
                usage = spec.usage
                summary = spec.summary
            }
        }

        func text(style: TerminalStyle) -> String {
            // Long usages get their summary on the next line, so the list stays readable at 80 columns.
            let width = min(26, commands.map(\.usage.count).max() ?? 0)
            let lines = commands.map { spec in
                spec.usage.count <= width
                    ? "  " + style.bold(spec.usage) + String(repeating: " ", count: width - spec.usage.count + 2) + spec.summary
                    : "  " + style.bold(spec.usage) + "\n  " + String(repeating: " ", count: width + 2) + spec.summary
            }
            return (["Commands:"] + lines + ["", "Type 'help COMMAND' for examples."]).joined(separator: "\n")
        }
    }
}
