/// What a command takes, declared once: its usage line in `help` and the man
/// page, and how its words complete with Tab, are both made from it, as
/// swift-argument-parser derives them from one declaration.
///
/// A value is one word as far as completion goes (the domain grammar that
/// reads it, such as `WeightInput` or `WhenInput`, may take more).
public indirect enum CommandSyntax<Domain: ArgumentDomain>: Sendable, Equatable {
    /// A word typed as it is (`now`, `note`).
    case word(String)
    /// A value, shown by its placeholder (`WEIGHT`, `FILE`), completing from `slot` (`.words([])`: nothing to offer),
    /// read by `grammar`.
    case argument(String, ArgumentSlot, ArgumentGrammar<Domain>)
    /// Something that may be left out: `[…]`.
    case optional(CommandSyntax)
    /// One of several: `a|b`.
    case choice([CommandSyntax])
    /// One after another.
    case sequence([CommandSyntax])
    /// Parts each of which may be typed once, in any order (`[WHEN] [fat PERCENT]`).
    case anyOrder([CommandSyntax])
    /// Subcommands, each a word and what follows it; the usage line names the
    /// first few and the placeholder most of them take (`add|done|undo|show|… NAME`).
    /// `key` names the word in the usage line instead (`set KEY VALUE`).
    /// `aliases` are other words for a subcommand (`check` for `done`), read but not offered.
    case subcommands(key: String? = nil, [(String, CommandSyntax)], aliases: [String: String] = [:])

    /// The subcommands of a program's type of them, in its order, each its raw word and what `syntax` says follows it;
    /// the handler takes the one typed back as that type (`arguments.subcommand(as:)`).
    public static func subcommands<Word: RawRepresentable & CaseIterable>(_ type: Word.Type, aliases: [String: Word] = [:],
                                                                           _ syntax: (Word) -> CommandSyntax) -> CommandSyntax
        where Word.RawValue == String {
        .subcommands(type.allCases.map { ($0.rawValue, syntax($0)) }, aliases: aliases.mapValues(\.rawValue))
    }

    /// Nothing: a command that takes no arguments.
    public static var none: CommandSyntax { .sequence([]) }

    /// A value shown by `key`'s placeholder, completing from `slot`, read by `grammar` (one word unless told), and taken
    /// back by `key` (`arguments[.when]`).
    public static func value<Value>(_ key: ArgumentKey<Value>, _ slot: ArgumentSlot = .words([]), _ grammar: ArgumentGrammar<Domain> = .word)
        -> CommandSyntax {
        .argument(key.placeholder, slot, grammar)
    }

    /// A part of the usage line that the value before it reads (`WEIGHT [UNIT]`: `82 kg` is one weight), completing
    /// from `slot`; nothing is taken back by it.
    public static func readByPrevious(_ placeholder: String, _ slot: ArgumentSlot = .words([])) -> CommandSyntax {
        .argument(placeholder, slot, .partOfPrevious)
    }

    public static func == (lhs: CommandSyntax, rhs: CommandSyntax) -> Bool { lhs.usage == rhs.usage && lhs.completion == rhs.completion }

    // MARK: The usage line

    /// `WEIGHT [UNIT] [WHEN] [note TEXT]`.
    public var usage: String {
        switch self {
        case let .word(word): word
        case let .argument(name, _, _): name
        case let .optional(inner): "[" + inner.usage + "]"
        case let .anyOrder(parts): parts.map { CommandSyntax.optional($0).usage }.joined(separator: " ")
        case let .choice(alternatives): alternatives.map(\.usage).joined(separator: "|")
        case let .sequence(parts): parts.map(\.usage).filter { !$0.isEmpty }.joined(separator: " ")
        case let .subcommands(key, commands, _):
            subcommandsUsage(key: key, commands)
        }
    }

    private func subcommandsUsage(key: String?, _ commands: [(String, CommandSyntax)]) -> String {
        let shown = Self.shownSubcommands
        let words = key ?? commands.prefix(shown).map(\.0).joined(separator: "|") + (commands.count > shown ? "|…" : "")
        // The placeholder most subcommands begin with, when most do.
        let firsts = commands.compactMap { $0.1.expansions.first?.first }.compactMap { atom -> String? in
            if case let .value(name, _) = atom { return name } else { return nil }
        }
        let counts = Dictionary(firsts.map { ($0, 1) }, uniquingKeysWith: +)
        guard let common = counts.max(by: { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }),
              common.value * 2 > commands.count else { return words }
        return words + " " + common.key
    }

    /// How many subcommands a usage line names before `…`.
    static var shownSubcommands: Int { 4 }

    // MARK: Completion

    /// Every way to type it (each optional part there or not, each alternative).
    public var expansions: [[CommandAtom]] {
        switch self {
        case let .word(word): [[.word(word)]]
        case let .argument(name, slot, _): [[.value(name, slot)]]
        case let .optional(inner): inner.expansions + [[]]  // There first: completion offers words in the order declared.
        case let .choice(alternatives): alternatives.flatMap(\.expansions)
        case let .sequence(parts):
            parts.reduce([[]]) { heads, part in heads.flatMap { head in part.expansions.map { head + $0 } } }
        case let .anyOrder(parts): CommandSyntax.sequence(parts.map(CommandSyntax.optional)).expansions
        case let .subcommands(_, commands, _):
            commands.flatMap { word, rest in rest.expansions.map { [.word(word)] + $0 } }
        }
    }

    /// How the arguments complete, from the same declaration as the usage line.
    public var completion: CompletionRule { CompletionRule(expansions: expansions) }

    /// Whether the command takes no arguments at all.
    public var takesNoArguments: Bool { expansions.allSatisfy(\.isEmpty) }
}

/// One way to type a command, a part at a time: its words and values in order.
public enum CommandAtom: Sendable, Equatable {
    case word(String)
    case value(String, ArgumentSlot)
}

/// What may follow a word when completing with Tab.
public enum ArgumentSlot: Sendable, Equatable {
    /// One of these fixed words.
    case words([String])
    /// A name the session learns at run time (habit names, backup names).
    case vocabulary(String)
    /// A path on disk.
    case file
}

/// How the arguments of one command complete: every way of typing them
/// (`CommandSyntax.expansions`); the words typed so far pick the ways still open.
public struct CompletionRule: Sendable, Equatable {
    let expansions: [[CommandAtom]]

    public init(expansions: [[CommandAtom]]) {
        self.expansions = expansions
    }

    /// What may be typed after `arguments`: the slots of every way of typing the
    /// command that those words begin (a word must be typed as it is, a value may be anything).
    public func slots(after arguments: [String]) -> [ArgumentSlot] {
        var words: [String] = [], others: [ArgumentSlot] = []
        for expansion in expansions where arguments.count < expansion.count {
            let begins = zip(arguments, expansion).allSatisfy { typed, atom in
                if case let .word(word) = atom { return word == typed.lowercased() }
                return true
            }
            guard begins else { continue }
            switch expansion[arguments.count] {
            case let .word(word): words.append(word)
            case let .value(_, .words(list)): words += list
            case let .value(_, slot): if !others.contains(slot) { others.append(slot) }
            }
        }
        var seen = Set<String>()
        let distinct = words.filter { seen.insert($0).inserted }
        return (distinct.isEmpty ? [] : [.words(distinct)]) + others
    }
}
