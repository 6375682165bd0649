import CommandLanguage

/// Every command the REPL knows, in groups, in the order `help` lists them.
@MainActor
public struct CommandCatalog {
    /// A titled set of commands: `help` shows one line a group, `help GROUP` the group in full.
    public struct Group {
        public let title: String
        public let commands: [CommandSpec]

        public init(_ title: String, _ commands: [CommandSpec]) {
            self.title = title
            self.commands = commands
        }
    }

    public let groups: [Group]

    /// Every command, group after group.
    public let commands: [CommandSpec]

    public init(groups: [Group]) {
        self.groups = groups
        commands = groups.flatMap(\.commands)
    }

    /// The commands of the product; each screen contributes its own.
    public static func standard() -> CommandCatalog {
        let weight = WeightViewModel.commands
        return CommandCatalog(groups: [
            Group("Weigh-ins", weight + MeasurementsViewModel.commands),
            Group("Progress", TodayViewModel.commands + ProgressViewModel.commands + SummaryViewModel.commands
                    + StatusViewModel.commands + TipViewModel.commands),
            Group("Habits", HabitsViewModel.commands + RemindViewModel.commands + InsightsViewModel.commands),
            Group("Changes", HistoryViewModel.commands),
            Group("Files", ImportViewModel.commands + BackupViewModel.commands + SyncViewModel.commands),
            Group("Settings", SettingsViewModel.commands + [HelpViewModel.command, clearCommand, quitCommand]),
        ])
    }

    /// The group a command is in.
    public func group(of spec: CommandSpec) -> Group? { groups.first { $0.commands.contains { $0.name == spec.name } } }

    /// The group a word names (`help files`), ignoring case.
    public func group(named word: String) -> Group? { groups.first { $0.title.lowercased() == word.lowercased() } }

    static let quitCommand = CommandSpec(
        name: "quit", aliases: ["exit", "q"], summary: "leave trend (Ctrl-D does the same)", examples: ["quit"],
        readsSettings: false
    ) { _, _ in
        var output = CommandOutput(Said(key: "quit", value: true, sentence: ""), style: .plain)
        output.endsSession = true
        return output
    }

    /// `clear`: a clean screen at a terminal, nothing in a script.
    static let clearCommand = CommandSpec(
        name: "clear", aliases: ["cls"], summary: "clear the screen (Ctrl-L does the same)", examples: ["clear"], readsSettings: false
    ) { context, _ in
        let cleared = context.isInteractive && !context.json
        return CommandOutput(Said(key: "cleared", value: cleared, sentence: cleared ? "\u{1B}[H\u{1B}[2J" : ""), style: .plain)
    }

    /// The words people type for a command in another order, as the command's own:
    /// `add habit Read` is `habit add Read`, `habits today` is `habits`.
    static let phrases: [(typed: [String], means: [String])] = [
        (["add", "habit"], ["habit", "add"]), (["new", "habit"], ["habit", "add"]), (["create", "habit"], ["habit", "add"]),
        (["delete", "habit"], ["habit", "delete"]), (["show", "habit"], ["habit", "show"]), (["habits", "today"], ["habits"]),
        (["add", "weight"], ["weigh"]), (["new", "weight"], ["weigh"]), (["show", "progress"], ["progress"]),
    ]

    /// `words` with a phrase at their start read as the command it means.
    public func reading(_ words: [String]) -> [String] {
        let lower = words.prefix(2).map { $0.lowercased() }
        guard let phrase = Self.phrases.first(where: { lower.starts(with: $0.typed) }) else { return words }
        return phrase.means + words.dropFirst(phrase.typed.count)
    }

    public func command(named word: String) -> CommandSpec? {
        let lower = word.lowercased()
        return commands.first { $0.name == lower || $0.aliases.contains(lower) }
    }

    /// All words that start a command, for completion and suggestions.
    public var words: [String] { commands.flatMap { [$0.name] + $0.aliases } }

    /// The known command word nearest to a mistyped one, when it is near enough.
    /// The command a mistyped word most likely meant: one it begins (the
    /// shortest: `hab` → `habit`), else the nearest by edit distance when it
    /// is close enough to be a slip (at most 1 edit for short words, a third
    /// of the word for long ones); nil rather than a guess.
    public func closest(to word: String) -> String? {
        let lower = word.lowercased()
        guard !lower.isEmpty, lower.count <= 40 else { return nil }
        let names = commands.flatMap { spec in ([spec.name] + spec.aliases).map { (spec.name, $0) } }
        if lower.count >= 2, let prefixed = names.filter({ $0.1.hasPrefix(lower) }).min(by: { $0.1.count < $1.1.count }) {
            return prefixed.0
        }
        let scored = names.map { ($0.0, Self.editDistance(lower, $0.1)) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(1, lower.count / 3) else { return nil }
        return best.0
    }

    /// The completion table the line reader uses from its own thread.
    public var completionTable: CompletionTable {
        var rules: [String: CompletionRule] = [:]
        for spec in commands {
            let completion = spec.completion
            for word in [spec.name] + spec.aliases { rules[word] = completion }
        }
        let topics = commands.map(\.name) + groups.map { $0.title.lowercased() }.filter { command(named: $0) == nil } + ["all"]
        rules["help"] = CommandSyntax.optional(.value("COMMAND", .words(topics))).completion
        return CompletionTable(commandWords: words.sorted(), rules: rules)
    }

    /// Edits between two words, a swap of neighbours counting as one (`wiegh` is one edit from `weigh`).
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
            }
            beforePrevious = previous
            previous = current
        }
        return previous[b.count]
    }
}
