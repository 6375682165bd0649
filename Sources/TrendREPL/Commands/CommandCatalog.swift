/// Every command the REPL knows, in the order `help` lists them.
@MainActor
public struct CommandCatalog {
    public let commands: [CommandSpec]

    public init(commands: [CommandSpec]) {
        self.commands = commands
    }

    /// The commands of the product; each screen contributes its own.
    public static func standard() -> CommandCatalog {
        let weight = WeightViewModel.commands
        var commands: [CommandSpec] = [HelpViewModel.command]
        commands += weight.prefix(1)
        commands += TodayViewModel.commands
        commands += StatusViewModel.commands
        commands += ProgressViewModel.commands
        commands += weight.dropFirst()
        commands += HabitsViewModel.commands
        commands += TipViewModel.commands
        commands += ImportViewModel.commands
        commands += BackupViewModel.commands
        commands += SettingsViewModel.commands
        commands.append(quitCommand)
        return CommandCatalog(commands: commands)
    }

    static let quitCommand = CommandSpec(
        name: "quit", aliases: ["exit", "q"], usage: "quit", summary: "leave trend (Ctrl-D does the same)"
    ) { _, _ in
        CommandOutput(text: "", json: .object([("quit", .bool(true))]), endsSession: true)
    }

    public func command(named word: String) -> CommandSpec? {
        let lower = word.lowercased()
        return commands.first { $0.name == lower || $0.aliases.contains(lower) }
    }

    /// All words that start a command, for completion and suggestions.
    public var words: [String] { commands.flatMap { [$0.name] + $0.aliases } }

    /// The known command word nearest to a mistyped one, when it is near enough.
    public func closest(to word: String) -> String? {
        let lower = word.lowercased()
        guard lower.count <= 40 else { return nil }
        let scored = commands.map { spec -> (String, Int) in
            let best = ([spec.name] + spec.aliases).map { Self.editDistance(lower, $0) }.min() ?? .max
            return (spec.name, best)
        }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(2, lower.count / 2) else {
            return commands.first { $0.name.hasPrefix(lower) || lower.hasPrefix($0.name) }?.name
        }
        return best.0
    }

    /// The completion table the line reader uses from its own thread.
    public var completionTable: CompletionTable {
        var rules: [String: CompletionRule] = [:]
        for spec in commands {
            for word in [spec.name] + spec.aliases { rules[word] = spec.completion }
        }
        rules["help"] = .positional([.words(commands.map(\.name))])
        return CompletionTable(commandWords: words.sorted(), rules: rules)
    }

    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            previous = current
        }
        return previous[b.count]
    }
}
