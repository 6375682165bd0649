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
            var lines = [style.bold(spec.usage), "  " + spec.summary]
            if !spec.aliases.isEmpty { lines.append("  aliases: " + spec.aliases.joined(separator: ", ")) }
            if !spec.examples.isEmpty {
                lines.append("  examples:")
                lines += spec.examples.map { "    " + $0 }
            }
            return CommandOutput(text: lines.joined(separator: "\n"), json: .object([
                ("command", .string(spec.name)), ("usage", .string(spec.usage)), ("summary", .string(spec.summary)),
                ("aliases", .array(spec.aliases.map(JSON.string))), ("examples", .array(spec.examples.map(JSON.string))),
            ]))
        }
        // Long usages get their summary on the next line, so the list stays readable at 80 columns.
        let width = min(26, catalog.commands.map(\.usage.count).max() ?? 0)
        let lines = catalog.commands.map { spec in
            spec.usage.count <= width
                ? "  " + style.bold(spec.usage) + String(repeating: " ", count: width - spec.usage.count + 2) + spec.summary
                : "  " + style.bold(spec.usage) + "\n  " + String(repeating: " ", count: width + 2) + spec.summary
        }
        let text = (["Commands:"] + lines + ["", "Type 'help COMMAND' for examples."]).joined(separator: "\n")
        return CommandOutput(text: text, json: .object([
            ("commands", .array(catalog.commands.map { spec in
                .object([("command", .string(spec.name)), ("usage", .string(spec.usage)), ("summary", .string(spec.summary))])
            })),
        ]))
    }
}
