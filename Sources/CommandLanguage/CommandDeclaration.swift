/// What a program's commands are declared over: the values their words are read into (`ArgumentDomain`), what a
/// handler is given, and what the session loads before a command's words are parsed.
public protocol CommandDomain: ArgumentDomain, SendableMetatype {
    /// What a handler runs with (the program's graph, how to print, how to ask).
    associatedtype Handling
    /// What a command reads, loaded once at its boundary.
    associatedtype Reads: OptionSet & Sendable
}

/// One command, declared once: its words, what it takes (`syntax`, from which its usage line and its completion
/// come), its help, what it reads and its handler.
@MainActor
public struct CommandDeclaration<Domain: CommandDomain> {
    public nonisolated let name: String
    public nonisolated let aliases: [String]
    /// What it takes, made when first asked for: a one-shot run builds only its own command's.
    public nonisolated var syntax: CommandSyntax<Domain> { makeSyntax() }
    private nonisolated let makeSyntax: @Sendable () -> CommandSyntax<Domain>
    public let summary: String
    public let examples: [String]
    /// Whether the person's settings are read before it runs (all but a few, which work without a database).
    public let readsSettings: Bool
    /// What else it reads, loaded by the session before the words are parsed.
    public let baseReads: Domain.Reads
    /// What it reads besides, when a word is typed among its arguments: a declared word (`all`, `with`), or a pattern
    /// `*.html` for any word that ends so (a report's file). Keys are in lower case.
    public let readsWhenTyped: [String: Domain.Reads]
    /// Runs the command on its arguments, read once by `syntax`.
    public let run: @MainActor (Domain.Handling, ParsedArguments<Domain>) async throws -> CommandOutput

    public init(name: String, aliases: [String] = [], syntax: @autoclosure @escaping @Sendable () -> CommandSyntax<Domain> = .none,
                reads: Domain.Reads = [], readsWhenTyped: [String: Domain.Reads] = [:], summary: String,
                examples: [String] = [], readsSettings: Bool = true,
                run: @escaping @MainActor (Domain.Handling, ParsedArguments<Domain>) async throws -> CommandOutput) {
        self.name = name
        self.aliases = aliases
        makeSyntax = syntax
        self.summary = summary
        self.examples = examples
        self.readsSettings = readsSettings
        baseReads = reads
        self.readsWhenTyped = readsWhenTyped
        self.run = run
    }

    /// What it reads for the words typed after it: `reads`, and what `readsWhenTyped` adds for them.
    public func reads(_ words: [String]) -> Domain.Reads {
        guard !readsWhenTyped.isEmpty else { return baseReads }
        var reads = baseReads
        for word in words.lazy.map({ $0.lowercased() }) {
            for (typed, more) in readsWhenTyped where typed == word || (typed.hasPrefix("*") && word.hasSuffix(typed.dropFirst())) {
                reads.formUnion(more)
            }
        }
        return reads
    }

    /// `weigh WEIGHT [UNIT] [WHEN] [note TEXT]`, from the syntax.
    public nonisolated var usage: String { syntax.usage.isEmpty ? name : name + " " + syntax.usage }

    /// How its arguments complete, from the syntax.
    public nonisolated var completion: CompletionRule { syntax.completion }

    /// The command's line in a listing.
    public var helpEntry: CommandHelp.Entry { .init(command: name, usage: usage, summary: summary) }

    /// The command as a manual lists it.
    public var page: CommandHelp.Page { .init(usage: usage, summary: summary, aliases: aliases, examples: examples) }
}

/// Every command a program knows, in groups, in the order `help` lists them.
@MainActor
public struct DeclaredCommands<Domain: CommandDomain> {
    /// One of the commands, declared over the same domain.
    public typealias Command = CommandDeclaration<Domain>

    /// A titled set of commands: `help` shows one line a group, `help GROUP` the group in full.
    public struct Group {
        public let title: String
        public let commands: [Command]

        public init(_ title: String, _ commands: [Command]) {
            self.title = title
            self.commands = commands
        }
    }

    public let groups: [Group]
    /// Every command, group after group.
    public let commands: [Command]
    /// The words people type for a command in another order, as the command's own (`add habit` for `habit add`).
    let phrases: [(typed: [String], means: [String])]

    public init(groups: [Group], phrases: [(typed: [String], means: [String])] = []) {
        self.groups = groups
        commands = groups.flatMap(\.commands)
        self.phrases = phrases
    }

    /// The group a command is in.
    public func group(of command: Command) -> Group? { groups.first { $0.commands.contains { $0.name == command.name } } }

    /// The group a word names (`help files`), ignoring case.
    public func group(named word: String) -> Group? { groups.first { $0.title.lowercased() == word.lowercased() } }

    /// `words` with a phrase at their start read as the command it means.
    public func reading(_ words: [String]) -> [String] {
        let lower = words.prefix(2).map { $0.lowercased() }
        guard let phrase = phrases.first(where: { lower.starts(with: $0.typed) }) else { return words }
        return phrase.means + words.dropFirst(phrase.typed.count)
    }

    public func command(named word: String) -> Command? {
        let lower = word.lowercased()
        return commands.first { $0.name == lower || $0.aliases.contains(lower) }
    }

    /// All words that start a command, for completion and suggestions.
    public var words: [String] { commands.flatMap { [$0.name] + $0.aliases } }

    /// The command a mistyped word most likely meant: one it begins (the shortest: `hab` → `habit`), else the
    /// nearest by edit distance when it is close enough to be a slip (at most 1 edit for short words, a third of
    /// the word for long ones); nil rather than a guess.
    public func closest(to word: String) -> String? {
        let lower = word.lowercased()
        guard !lower.isEmpty, lower.count <= 40 else { return nil }
        let names = commands.flatMap { command in ([command.name] + command.aliases).map { (command.name, $0) } }
        if lower.count >= 2, let prefixed = names.filter({ $0.1.hasPrefix(lower) }).min(by: { $0.1.count < $1.1.count }) {
            return prefixed.0
        }
        let scored = names.map { ($0.0, Self.editDistance(lower, $0.1)) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(1, lower.count / 3) else { return nil }
        return best.0
    }

    /// The completion table the line reader uses from its own thread; `help` completes the commands and groups.
    public var completionTable: CompletionTable {
        var rules: [String: CompletionRule] = [:]
        for command in commands {
            let completion = command.completion
            for word in [command.name] + command.aliases { rules[word] = completion }
        }
        let topics = commands.map(\.name) + groups.map { $0.title.lowercased() }.filter { command(named: $0) == nil } + ["all"]
        rules["help"] = CommandSyntax<Domain>.optional(.argument("COMMAND", .words(topics), .word)).completion
        return CompletionTable(commandWords: words.sorted(), rules: rules)
    }

    /// Edits between two words, a swap of neighbours counting as one (`wiegh` is one edit from `weigh`).
    nonisolated static func editDistance(_ a: String, _ b: String) -> Int {
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
