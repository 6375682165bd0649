/// `help`, from the declarations alone: the groups (one line each), one command in full, or a listing of every
/// form. The program names itself and its first steps; everything else comes from what each command declares.
public enum CommandHelp {
    /// The answer to `help [TOPIC]`: `nil` the overview, `all` every command, a command's or a group's name.
    @MainActor
    public static func answer<Domain>(_ topic: String?, in commands: DeclaredCommands<Domain>, program: String, about: String,
                                      firstSteps: [String]) throws -> any CommandAnswer {
        guard let topic else { return Overview(commands, program: program, about: about, firstSteps: firstSteps) }
        if topic.lowercased() == "all" { return Listing(commands: commands.commands.map(\.helpEntry)) }
        if let command = commands.command(named: topic) {
            return OneCommand(command, alongside: commands.group(of: command))
        }
        if let group = commands.group(named: topic) {
            return Listing(title: group.title, commands: group.commands.map(\.helpEntry))
        }
        var message = "help: no command or group '\(TerminalText.printable(topic))'"
        if let suggestion = commands.closest(to: topic) { message += "; did you mean 'help \(suggestion)'?" } else { message += "." }
        throw CommandFailure(.unknownCommand, message + " The groups are " + commands.groups.map { $0.title.lowercased() }.joined(separator: ", ") + ".")
    }

    /// A command's line in a listing.
    public struct Entry: Encodable, Sendable {
        public let command: String
        public let usage: String
        public let summary: String
    }

    /// Every command as a manual lists it: its usage, what it does, its other names and examples.
    public struct Page: Sendable {
        public let usage: String
        public let summary: String
        public let aliases: [String]
        public let examples: [String]
    }

    /// `help`: one line a group, the words that start each command, so it fits a 24-row terminal.
    struct Overview: CommandAnswer {
        let groups: [GroupEntry]
        let commands: [Entry]
        /// The text only: the program's name, what it is for, and the first steps shown under the groups.
        let program: String, about: String, firstSteps: [String]

        struct GroupEntry: Encodable {
            let title: String
            let commands: [String]
        }

        enum CodingKeys: String, CodingKey { case groups, commands }

        @MainActor init<Domain>(_ declared: DeclaredCommands<Domain>, program: String, about: String, firstSteps: [String]) {
            groups = declared.groups.map { GroupEntry(title: $0.title, commands: $0.commands.map(\.name)) }
            commands = declared.commands.map(\.helpEntry)
            (self.program, self.about, self.firstSteps) = (program, about, firstSteps)
        }

        func text(style: TerminalStyle) -> String {
            let width = (groups.map(\.title.count).max() ?? 0) + 2
            var lines = [style.bold(program) + ": \(about) Commands by group:", ""]
            for group in groups {
                let title = group.title + String(repeating: " ", count: width - group.title.count)
                // The session's wrapping hangs a long line under the names, not under the title.
                lines.append("  " + style.bold(title) + group.commands.joined(separator: "  "))
            }
            lines += ["", "To begin:  " + firstSteps.joined(separator: " · "), "",
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

        @MainActor init<Domain>(_ declared: CommandDeclaration<Domain>, alongside group: DeclaredCommands<Domain>.Group?) {
            command = declared.name
            usage = declared.usage
            summary = declared.summary
            aliases = declared.aliases
            examples = declared.examples
            related = group?.commands.map(\.name).filter { $0 != declared.name } ?? []
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

        func text(style: TerminalStyle) -> String {
            // Long usages get their summary on the next line, so the list stays readable at 80 columns.
            let width = min(26, commands.map(\.usage.count).max() ?? 0)
            let lines = commands.map { entry in
                entry.usage.count <= width
                    ? "  " + style.bold(entry.usage) + String(repeating: " ", count: width - entry.usage.count + 2) + entry.summary
                    : "  " + style.bold(entry.usage) + "\n  " + String(repeating: " ", count: width + 2) + entry.summary
            }
            return ([(title ?? "Commands") + ":"] + lines + ["", "Type 'help COMMAND' for examples."]).joined(separator: "\n")
        }
    }
}
