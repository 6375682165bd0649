/// A value a command's words are read into: the placeholder its usage line and refusals show (`WHEN`), and the type a
/// handler takes it back as (`arguments[.when]` is a `WhenInput?`). A program declares its keys once, as static members
/// (`extension ArgumentKey where Value == WhenInput { static var when: … }`), and names them in its declarations.
public struct ArgumentKey<Value>: Sendable {
    public let placeholder: String

    public init(_ placeholder: String) {
        self.placeholder = placeholder
    }
}

/// A command's words as its declaration read them, once: each value under its
/// key (`ArgumentKey`, typed), each declared word that was typed, and the
/// subcommand. A ViewModel builds its typed request from this and never reads
/// the words again.
public struct ParsedArguments<Domain: ArgumentDomain> {
    /// The values read, by placeholder.
    private var values: [String: Domain.Value] = [:]
    /// The words each value was read from, by placeholder (for messages that quote them).
    private var spans: [String: [String]] = [:]
    /// The declared words typed (`note`, `merge`, `all`), in lower case.
    private var literals: Set<String> = []
    /// The subcommand typed, in its declared spelling (`done` for `check`).
    public private(set) var subcommand: String?

    public init() {}

    /// The value read for `key`, when it was typed.
    public subscript<Value>(key: ArgumentKey<Value>) -> Value? {
        values[key.placeholder].flatMap { Domain.cast($0, as: Value.self) }
    }

    /// The words the value of `key` was read from, as typed.
    public func typed<Value>(_ key: ArgumentKey<Value>) -> [String]? { spans[key.placeholder] }

    /// Whether the declared word `word` was typed.
    public func has(_ word: String) -> Bool { literals.contains(word) }

    /// The subcommand typed, as the program's type of them (`HabitSubcommand.done`); nil when none was typed.
    public func subcommand<Word: RawRepresentable>(as type: Word.Type) -> Word? where Word.RawValue == String {
        subcommand.flatMap(Word.init(rawValue:))
    }

    /// The subcommand typed, which the declaration requires.
    public func required<Word: RawRepresentable>(subcommand type: Word.Type) throws -> Word where Word.RawValue == String {
        guard let word = subcommand(as: type) else { throw UsageError("needs a subcommand") }
        return word
    }

    /// The value read for `key`, which the declaration requires.
    public func required<Value>(_ key: ArgumentKey<Value>) throws -> Value {
        guard let value = self[key] else {
            throw UsageError("needs \(key.placeholder)")
        }
        return value
    }

    fileprivate mutating func bind(_ placeholder: String, _ reading: ArgumentReading<Domain>, words: ArraySlice<String>) {
        values[placeholder] = reading.value
        spans[placeholder] = Array(words.prefix(reading.consumed))
    }

    fileprivate mutating func mark(_ word: String) { literals.insert(word) }

    /// Enters `subcommand`; a key (`set KEY VALUE`) holds it as its value too.
    fileprivate mutating func enter(_ subcommand: String, key: String?) {
        self.subcommand = subcommand
        if let key { values[key] = Domain.word(subcommand) }
    }
}

extension CommandSyntax {
    /// One way of reading the words so far: where it stands and what it read.
    private struct Attempt {
        var position: Int
        var parsed: ParsedArguments<Domain>
        /// The declared word just read (`fat` in `weigh 80 fat`), while nothing came after it.
        var afterWord: String?
    }

    /// What a reading wanted where it stopped: a declared word or a value.
    private struct Expectation: Equatable {
        let name: String
        /// `a percent`; nil for a declared word.
        let noun: String?
        let forms: String?
        /// The declared word the value was to follow.
        let after: String?
    }

    /// How far the readings that failed came, and what they wanted there: the message when none reads the whole line.
    @MainActor
    private final class Trace {
        var furthest = 0
        var expected: [Expectation] = []
        /// The subcommand the furthest reading was in (`habit done`), whose own usage the refusal shows.
        var subcommand: String?
        var error: (position: Int, error: any Error)?

        func missed(_ what: Expectation?, at position: Int, in subcommand: String?) {
            if position > furthest { (furthest, expected, self.subcommand) = (position, [], nil) }
            guard position == furthest else { return }
            if let what, !expected.contains(what) { expected.append(what) }
            if let subcommand { self.subcommand = subcommand }
        }

        func failed(_ error: any Error, at position: Int) {
            if self.error.map({ position > $0.position }) ?? true { self.error = (position, error) }
        }
    }

    /// The words after the command read by this declaration: the first reading, in the order
    /// declared (an optional part there before not), that takes every word.
    ///
    /// When none does, the reason a value's grammar gave (a weight out of range) is thrown when it
    /// came at least as far as any other reading; otherwise a `.usage` failure names the word not
    /// understood, or what is missing, with the usage line and an example.
    /// `command` and `examples` are the command's word and its examples, for the refusal.
    @MainActor
    public func parse(_ words: [String], command: String, examples: [String], context: Domain.Context) throws -> ParsedArguments<Domain> {
        let trace = Trace()
        let ends = try match(words, from: [Attempt(position: 0, parsed: ParsedArguments())], context: context, trace: trace)
        for end in ends {
            if end.position == words.count { return end.parsed }
            trace.missed(nil, at: end.position, in: end.parsed.subcommand)
        }
        if let (position, error) = trace.error, position >= trace.furthest { throw error }
        throw UsageError(refusal(words, command: command, examples: examples, trace: trace))
    }

    /// Why the words are refused, from how far the best reading came: a declared word that needs its value
    /// (`'fat' needs a percent after it`), a word that is not the value wanted there (`'fortnight' is not a
    /// RANGE`), or one not understood; then how the values wanted are written, and the usage line.
    @MainActor
    private func refusal(_ words: [String], command: String, examples: [String], trace: Trace) -> String {
        if takesNoArguments { return "\(command): takes no arguments" }
        let values = trace.expected.filter { $0.noun != nil }
        let typed = trace.furthest < words.count ? TerminalText.printable(words[trace.furthest]) : nil
        var message: String
        if values.count == 1, let value = values.first, let noun = value.noun, trace.expected.count == 1 || value.after != nil {
            if let after = value.after {
                message = "'\(after)' needs \(noun) after it" + (typed.map { ", not '\($0)'" } ?? "")
            } else {
                message = typed.map { "'\($0)' is not \(noun)" } ?? "needs \(noun)"
            }
        } else if let typed {
            let wanted = trace.expected.map(\.name)
            message = "did not understand '\(typed)'" + (wanted.isEmpty ? "" : " where \(Self.either(wanted)) goes")
        } else {
            // A declared word's name is quoted already (`'schedule'`).
            message = "needs " + (values.compactMap(\.noun).first ?? (trace.expected.isEmpty ? "more" : Self.either(trace.expected.map(\.name))))
        }
        for forms in values.compactMap(\.forms) { message += "; " + forms }
        // Within a subcommand, its own usage and example (`habit done NAME [WHEN] …`).
        var usage = self.usage.isEmpty ? command : command + " " + self.usage, examples = examples
        if let sub = trace.subcommand, case let .subcommands(_, commands, _) = self, let syntax = commands.first(where: { $0.0 == sub })?.1 {
            usage = [command, sub, syntax.usage].filter { !$0.isEmpty }.joined(separator: " ")
            examples = examples.filter { $0.lowercased().hasPrefix("\(command) \(sub) ") }
        }
        let example = examples.first.map { ", e.g. '\($0)'" } ?? ""
        return "\(command): \(message); usage: \(usage)\(example)"
    }

    /// `A, B or C`.
    private static func either(_ names: [String]) -> String {
        names.count <= 1 ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
    }

    /// Every reading of this part from each attempt, best first.
    @MainActor
    private func match(_ words: [String], from attempts: [Attempt], context: Domain.Context, trace: Trace) throws -> [Attempt] {
        var results: [Attempt] = []
        for attempt in attempts {
            results += try match(words, from: attempt, context: context, trace: trace)
        }
        return results
    }

    @MainActor
    private func match(_ words: [String], from attempt: Attempt, context: Domain.Context, trace: Trace) throws -> [Attempt] {
        let position = attempt.position
        switch self {
        case let .word(word):
            guard position < words.count, words[position].lowercased() == word else {
                trace.missed(Expectation(name: "'\(word)'", noun: nil, forms: nil, after: nil), at: position, in: attempt.parsed.subcommand)
                return []
            }
            var next = attempt
            next.position += 1
            next.parsed.mark(word)
            next.afterWord = word
            return [next]
        case let .argument(name, _, grammar):
            // Read by the value before it: there already, when that value was.
            if grammar.readByPrevious { return [attempt] }
            let rest = words[position...]
            let expectation = Expectation(name: name, noun: grammar.noun ?? name, forms: grammar.forms, after: attempt.afterWord)
            guard !rest.isEmpty else {
                trace.missed(expectation, at: position, in: attempt.parsed.subcommand)
                return []
            }
            let readings: [ArgumentReading<Domain>]
            do {
                readings = try grammar.read(rest, attempt.parsed, context)
            } catch {
                trace.failed(error, at: position)
                return []
            }
            if readings.isEmpty { trace.missed(expectation, at: position, in: attempt.parsed.subcommand) }
            return readings.filter { $0.consumed > 0 }.map { reading in
                var next = attempt
                next.position += reading.consumed
                next.afterWord = nil
                next.parsed.bind(name, reading, words: rest)
                return next
            }
        case let .optional(inner):
            // There first; a part that took no words is the same reading as leaving it out.
            let present = try inner.match(words, from: attempt, context: context, trace: trace).filter { $0.position > position }
            return present + [attempt]
        case let .choice(alternatives):
            var results: [Attempt] = []
            for alternative in alternatives {
                results += try alternative.match(words, from: attempt, context: context, trace: trace)
            }
            return results
        case let .sequence(parts):
            var attempts = [attempt]
            for part in parts {
                attempts = try part.match(words, from: attempts, context: context, trace: trace)
                if attempts.isEmpty { break }
            }
            return attempts
        case let .anyOrder(parts):
            // Each part at most once, in any order; the longer readings first.
            var results: [Attempt] = []
            for (index, part) in parts.enumerated() {
                let others = CommandSyntax.anyOrder(parts.enumerated().filter { $0.offset != index }.map(\.element))
                for next in try part.match(words, from: attempt, context: context, trace: trace) where next.position > position {
                    results += try others.match(words, from: next, context: context, trace: trace)
                }
            }
            return results + [attempt]
        case let .subcommands(key, commands, aliases):
            let expectation = Expectation(name: key ?? commands.map(\.0).joined(separator: "|"), noun: key == nil ? "a subcommand" : "a setting",
                                          forms: (key == nil ? "the subcommands are " : "the settings are ") + commands.map(\.0).joined(separator: ", "),
                                          after: nil)
            guard position < words.count else {
                trace.missed(expectation, at: position, in: attempt.parsed.subcommand)
                return []
            }
            let typed = words[position].lowercased()
            let word = aliases[typed] ?? typed
            guard let (name, rest) = commands.first(where: { $0.0 == word }) else {
                trace.missed(expectation, at: position, in: attempt.parsed.subcommand)
                return []
            }
            var next = attempt
            next.position += 1
            next.afterWord = name
            next.parsed.enter(name, key: key)
            return try rest.match(words, from: next, context: context, trace: trace)
        }
    }
}
