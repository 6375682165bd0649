/// The command language: how a line's words are read by a command's
/// declaration (`CommandSyntax`), into values whose kinds the program using
/// it names (`ArgumentDomain`), with the usage line, the refusals and Tab
/// completion made from that same declaration. It knows no feature: Trend's
/// weights, WHENs and habits are its domain's, declared in TrendREPL.

/// What a program reads its words into: its values, and what its grammars may consult while reading (the person's
/// unit, today, the names they use).
public protocol ArgumentDomain {
    associatedtype Value
    associatedtype Context
    /// A word as typed, as a value (an id, a subcommand's word that is a key, `set KEY VALUE`).
    static func word(_ text: String) -> Value
    /// `value` as a `T`, when it is one.
    static func cast<T>(_ value: Value, as type: T.Type) -> T?
}

/// One way the words at the front of what is left may be read as a value:
/// the value and how many words it took.
public struct ArgumentReading<Domain: ArgumentDomain> {
    /// The domain value read, typed.
    public let value: Domain.Value
    public let consumed: Int

    public init(_ value: Domain.Value, consumed: Int) {
        self.value = value
        self.consumed = consumed
    }
}

/// How the value behind a placeholder (`WEIGHT`, `WHEN`, `RANGE`) is read: the
/// domain grammar it stands for. A grammar lives beside its domain type
/// (`WeightInput`, `WhenInput`, `DayRange`, `HabitPlan`); this is only the
/// adapter that lets a declaration name it.
///
/// It answers the readings of the words at the front, best first (none: these
/// words are not this value, and the declaration may try something else), or
/// throws when they are this value but a wrong one (a weight out of range):
/// that reason is the message when nothing else reads the line.
public struct ArgumentGrammar<Domain: ArgumentDomain>: Sendable {
    /// The words left, what the declaration read before them (an `edit`'s amount is read as the ID's kind
    /// says), and the command's context.
    public typealias Read = @MainActor @Sendable (ArraySlice<String>, ParsedArguments<Domain>, Domain.Context) throws -> [ArgumentReading<Domain>]

    let read: Read
    /// A word that only shows in the usage line and completes with Tab: the value before
    /// it reads it as part of itself (the unit of `82.4 lb`).
    let readByPrevious: Bool
    /// What the value is, for a refusal: `a weight`, `a percent` (nil: its placeholder).
    let noun: String?
    /// How it is written, for a refusal (`2w, 30d, 3m …`).
    let forms: String?

    public init(noun: String? = nil, forms: String? = nil, readByPrevious: Bool = false, _ read: @escaping Read) {
        self.read = read
        self.readByPrevious = readByPrevious
        self.noun = noun
        self.forms = forms
    }

    /// One word, as typed (an id, a file, a name in quotes).
    public static var word: ArgumentGrammar { word(noun: nil) }

    /// One word, as typed, that a refusal calls `noun` (`the new name`).
    public static func word(noun: String?) -> ArgumentGrammar {
        ArgumentGrammar(noun: noun) { words, _, _ in words.first.map { [ArgumentReading(Domain.word($0), consumed: 1)] } ?? [] }
    }

    /// Read by the value before it (see `readByPrevious`): never on its own.
    public static var partOfPrevious: ArgumentGrammar { ArgumentGrammar(readByPrevious: true) { _, _, _ in [] } }

    /// The words left, all of them, joined by a space (a setting's value, a device's name).
    public static var phrase: ArgumentGrammar {
        ArgumentGrammar(noun: "a value") { words, _, _ in
            words.isEmpty ? [] : [ArgumentReading(Domain.word(words.joined(separator: " ")), consumed: words.count)]
        }
    }

    /// Some fixed words, each reading as itself in lower case (`week`, `month`); `also` are other
    /// spellings read the same way but not named in a refusal (`ls` for `list`).
    public static func oneOf(_ accepted: [String], also: [String] = []) -> ArgumentGrammar {
        ArgumentGrammar(noun: "one of " + accepted.joined(separator: ", ")) { words, _, _ in
            guard let first = words.first?.lowercased(), accepted.contains(first) || also.contains(first) else { return [] }
            return [ArgumentReading(Domain.word(first), consumed: 1)]
        }
    }
}

/// Why the words are not what the command takes: the message says which word, what was wanted there, and the
/// usage line (`weigh: 'fat' needs a percent after it; usage: …`).
public struct UsageError: Error, Equatable, Sendable {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }
}
