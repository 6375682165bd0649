import CommandLanguage

/// Every command the REPL knows, in groups, in the order `help` lists them (`DeclaredCommands`).
typealias CommandCatalog = DeclaredCommands<TrendArguments>

extension DeclaredCommands where Domain == TrendArguments {
    /// The commands of the product; each screen contributes its own.
    static func standard() -> CommandCatalog {
        let weight = WeightViewModel.commands
        return CommandCatalog(groups: [
            Group("Weigh-ins", weight + MeasurementsViewModel.commands),
            Group("Progress", TodayViewModel.commands + ProgressViewModel.commands + SummaryViewModel.commands
                    + StatusViewModel.commands + TipViewModel.commands),
            Group("Habits", HabitsViewModel.commands + RemindViewModel.commands + InsightsViewModel.commands),
            Group("Changes", HistoryViewModel.commands),
            Group("Files", ImportViewModel.commands + BackupViewModel.commands + SyncViewModel.commands),
            Group("Settings", SettingsViewModel.commands + [HelpViewModel.command, SessionCommands.clear, SessionCommands.quit]),
        ], phrases: SessionCommands.phrases)
    }
}

/// Trend's commands as a manual lists them, and as Tab completes them (for the executable's man page and line reader).
@MainActor
public enum TrendCommands {
    public static var pages: [CommandHelp.Page] { CommandCatalog.standard().commands.map(\.page) }
}

/// The commands of the session itself, and the words people type for a command in another order.
@MainActor
enum SessionCommands {
    static let quit = CommandSpec(
        name: "quit", aliases: ["exit", "q"], summary: "leave trend (Ctrl-D does the same)", examples: ["quit"],
        readsSettings: false
    ) { _, _ in
        var output = CommandOutput(Said(key: "quit", value: true, sentence: ""), style: .plain)
        output.endsSession = true
        return output
    }

    /// `clear`: a clean screen at a terminal, nothing in a script.
    static let clear = CommandSpec(
        name: "clear", aliases: ["cls"], summary: "clear the screen (Ctrl-L does the same)", examples: ["clear"], readsSettings: false
    ) { context, _ in
        let cleared = context.isInteractive && !context.json
        return CommandOutput(Said(key: "cleared", value: cleared, sentence: cleared ? "\u{1B}[H\u{1B}[2J" : ""), style: .plain)
    }

    /// `add habit Read` is `habit add Read`, `habits today` is `habits`.
    static let phrases: [(typed: [String], means: [String])] = [
        (["add", "habit"], ["habit", "add"]), (["new", "habit"], ["habit", "add"]), (["create", "habit"], ["habit", "add"]),
        (["delete", "habit"], ["habit", "delete"]), (["show", "habit"], ["habit", "show"]), (["habits", "today"], ["habits"]),
        (["add", "weight"], ["weigh"]), (["new", "weight"], ["weigh"]), (["show", "progress"], ["progress"]),
    ]
}
