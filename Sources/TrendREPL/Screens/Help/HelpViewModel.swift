import CommandLanguage

/// The `help` screen: the command list, or one command in full.
@MainActor
public struct HelpViewModel {
    let catalog: CommandCatalog

    static let command = CommandSpec(
        name: "help", aliases: ["?", "h"], syntax: .optional(.value(.helpTopic)),
        summary: "the commands by group; 'help COMMAND' explains one, 'help GROUP' a group, 'help all' lists every form",
        examples: ["help", "help weigh", "help habits", "help files", "help all"], readsSettings: false
    ) { context, arguments in
        try HelpViewModel(catalog: context.catalog).help(topic: arguments[.helpTopic], style: context.style)
    }

    /// What the prompt says first on a data directory with no database yet: how to begin, in two lines.
    public static func welcome(style: TerminalStyle) -> String {
        style.fitted(style.bold("Welcome to Trend.") + " Start with a weigh-in: weigh 82.4 (or 181.6 lb), then habit add Read every day.")
            + "\n" + style.fitted("'today' shows the check-in, 'progress' the trend, 'help' every command; Ctrl-D leaves.")
    }

    /// The groups, a command in full, or every form (`CommandHelp`), with Trend's name and first steps.
    func help(topic word: String?, style: TerminalStyle) throws -> CommandOutput {
        let answer = try CommandHelp.answer(word, in: catalog, program: "Trend", about: "weigh-ins, their trend, and habits.",
                                            firstSteps: ["weigh 82.4", "today", "progress 6m", "habit add Read every day", "habit done Read"])
        return CommandOutput(answer, style: style)
    }
}

/// What `help` is asked about, by key.
extension ArgumentKey where Value == String { static var helpTopic: Self { .init("COMMAND|GROUP|all") } }
