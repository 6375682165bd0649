import CommandLanguage

/// The `help` screen: the command list, or one command in full.
@MainActor
public struct HelpViewModel {
    let catalog: CommandCatalog

    static let command = CommandSpec(
        name: "help", aliases: ["?", "h"], syntax: .optional(.value("COMMAND|GROUP|all")),
        summary: "the commands by group; 'help COMMAND' explains one, 'help GROUP' a group, 'help all' lists every form",
        examples: ["help", "help weigh", "help habits", "help files", "help all"], readsSettings: false
    ) { context, arguments in
        try HelpViewModel(catalog: context.catalog).help(topic: arguments.value("COMMAND|GROUP|all"), style: context.style)
    }

    /// What the prompt says first on a data directory with no database yet: how to begin, in two lines.
    public static func welcome(style: TerminalStyle) -> String {
        style.fitted(style.bold("Welcome to Trend.") + " Start with a weigh-in: weigh 82.4 (or 181.6 lb), then habit add Read every day.")
            + "\n" + style.fitted("'today' shows the check-in, 'progress' the trend, 'help' every command; Ctrl-D leaves.")
    }

    func help(topic word: String?, style: TerminalStyle) throws -> CommandOutput {
        guard let word else { return CommandOutput(Overview(catalog), style: style) }
        if word.lowercased() == "all" { return CommandOutput(Listing(commands: catalog.commands.map(\.helpEntry)), style: style) }
        if let spec = catalog.command(named: word) {
            return CommandOutput(OneCommand(spec, alongside: catalog.group(of: spec)), style: style)
        }
        if let group = catalog.group(named: word) {
            return CommandOutput(Listing(title: group.title, commands: group.commands.map(\.helpEntry)), style: style)
        }
        var message = "help: no command or group '\(TerminalText.printable(word))'"
        if let suggestion = catalog.closest(to: word) { message += "; did you mean 'help \(suggestion)'?" } else { message += "." }
        throw CommandFailure(.unknownCommand, message + " The groups are " + catalog.groups.map { $0.title.lowercased() }.joined(separator: ", ") + ".")
    }

    /// `help`: one line a group, the words that start each command, so it fits a 24-row terminal.
    struct Overview: CommandAnswer {
        let groups: [GroupEntry]
        let commands: [Listing.Entry]

        struct GroupEntry: Encodable {
            let title: String
            let commands: [String]
        }

        @MainActor init(_ catalog: CommandCatalog) {
            groups = catalog.groups.map { GroupEntry(title: $0.title, commands: $0.commands.map(\.name)) }
            commands = catalog.commands.map(\.helpEntry)
        }

        /// The first steps, shown under the groups.
        static let firstSteps = ["weigh 82.4", "today", "progress 6m", "habit add Read every day", "habit done Read"]

        func text(style: TerminalStyle) -> String {
            let width = (groups.map(\.title.count).max() ?? 0) + 2
            var lines = [style.bold("Trend") + ": weigh-ins, their trend, and habits. Commands by group:", ""]
            for group in groups {
                let title = group.title + String(repeating: " ", count: width - group.title.count)
                // The session's wrapping hangs a long line under the names, not under the title.
                lines.append("  " + style.bold(title) + group.commands.joined(separator: "  "))
            }
            lines += ["", "To begin:  " + Self.firstSteps.joined(separator: " · "), "",
                      "'help COMMAND' explains one with examples, 'help GROUP' shows a group, 'help all' every form."]
            return lines.joined(separator: "\n")
        }
    }

    /// `help COMMAND`: one command in full, from its declaration.
    struct OneCommand: CommandAnswer {
        let command: String
        let usage: String
        let summary: String
        let aliases: [String]
        let examples: [String]
        /// The other commands of its group, by name.
        let related: [String]

        @MainActor init(_ spec: CommandSpec, alongside group: CommandCatalog.Group?) {
            command = spec.name
            usage = spec.usage
            summary = spec.summary
            aliases = spec.aliases
            examples = spec.examples
            related = group?.commands.map(\.name).filter { $0 != spec.name } ?? []
        }

        func text(style: TerminalStyle) -> String {
            var lines = [style.bold(usage), "  " + summary]
            if !aliases.isEmpty { lines.append("  aliases: " + aliases.joined(separator: ", ")) }
            if !examples.isEmpty {
                lines.append("  examples:")
                lines += examples.map { "    " + $0 }
            }
            if !related.isEmpty { lines.append("  see also: " + related.joined(separator: ", ")) }
            return lines.joined(separator: "\n")
        }
    }

    /// `help all`, or `help GROUP`: every command (of the group) with its usage and summary.
    struct Listing: CommandAnswer {
        var title: String?
        let commands: [Entry]

        init(title: String? = nil, commands: [Entry]) {
            self.title = title
            self.commands = commands
        }

        enum CodingKeys: String, CodingKey { case title, commands }

        struct Entry: Encodable {
            let command: String
            let usage: String
            let summary: String
        }

        func text(style: TerminalStyle) -> String {
            // Long usages get their summary on the next line, so the list stays readable at 80 columns.
            let width = min(26, commands.map(\.usage.count).max() ?? 0)
            let lines = commands.map { spec in
                spec.usage.count <= width
                    ? "  " + style.bold(spec.usage) + String(repeating: " ", count: width - spec.usage.count + 2) + spec.summary
                    : "  " + style.bold(spec.usage) + "\n  " + String(repeating: " ", count: width + 2) + spec.summary
            }
            return ([(title ?? "Commands") + ":"] + lines + ["", "Type 'help COMMAND' for examples."]).joined(separator: "\n")
        }
    }
}

extension CommandSpec {
    /// The command's line in a listing.
    var helpEntry: HelpViewModel.Listing.Entry { .init(command: name, usage: usage, summary: summary) }
}
