import Foundation
import Progress
import Vocabulary

/// One way the words at the front of what is left may be read as a value:
/// the value and how many words it took.
public struct ArgumentReading {
    /// The domain value read, typed.
    let value: ArgumentValue
    public let consumed: Int

    init(_ value: ArgumentValue, consumed: Int) {
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
public struct ArgumentGrammar: Sendable {
    /// The words left, what the declaration read before them (an `edit`'s amount is read as the ID's kind
    /// says), and the command's context (the person's unit, today, the habits).
    public typealias Read = @MainActor @Sendable (ArraySlice<String>, ParsedArguments, ReadingContext) throws -> [ArgumentReading]

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
    public static let word = word(noun: nil)

    /// One word, as typed, that a refusal calls `noun` (`the new name`).
    public static func word(noun: String?) -> ArgumentGrammar {
        ArgumentGrammar(noun: noun) { words, _, _ in words.first.map { [ArgumentReading($0, consumed: 1)] } ?? [] }
    }

    /// Read by the value before it (see `readByPrevious`): never on its own.
    public static let partOfPrevious = ArgumentGrammar(readByPrevious: true) { _, _, _ in [] }

    /// The rest of the line as typed after `keyword`, quotes kept (a note, a text to find);
    /// one quoted word that is all of it is read as the tokenizer reads it.
    public static func text(after keyword: String) -> ArgumentGrammar {
        ArgumentGrammar(noun: "some text") { words, _, context in
            guard !words.isEmpty else { return [] }
            let typed = CommandTokenizer.text(after: keyword, in: context.line) ?? words.joined(separator: " ")
            return typed.isEmpty ? [] : [ArgumentReading(typed, consumed: words.count)]
        }
    }

    /// The words left, all of them, joined by a space (a setting's value, a device's name).
    public static let phrase = ArgumentGrammar(noun: "a value") { words, _, _ in
        words.isEmpty ? [] : [ArgumentReading(words.joined(separator: " "), consumed: words.count)]
    }

    /// A whole number from 1 to `limit`.
    public static func count(upTo limit: Int) -> ArgumentGrammar {
        ArgumentGrammar(noun: "a count", forms: "a number from 1 to \(limit), e.g. 20") { words, _, _ in
            guard let first = words.first, let number = Int(first), (1...limit).contains(number) else { return [] }
            return [ArgumentReading(number, consumed: 1)]
        }
    }

    /// A WHEN as `WhenInput` reads it (`yesterday 21:00`, `last fri`, `2026-02-14 07:30`).
    public static let when = ArgumentGrammar(noun: "a WHEN", forms: "WHEN is 21:00, yesterday, yesterday 21:00, last fri, 3 days ago or YYYY-MM-DD [HH:MM]") { words, _, _ in
        guard let (when, used) = try WhenInput.parse(words) else { return [] }
        return [ArgumentReading(when, consumed: used)]
    }

    /// A RANGE as `DayRange` and `ProgressRange` read it, everyday words too (`last week`, `3 months`), longest first.
    public static let range = ArgumentGrammar(noun: "a RANGE", forms: "RANGE is \(WeightViewModel.rangeForms)") { words, _, context in
        let today = context.today
        var readings: [ArgumentReading] = []
        for length in stride(from: min(3, words.count), through: 1, by: -1) {
            let typed = Array(words.prefix(length))
            guard let name = DayRange.spoken(typed, today: today) ?? (length == 1 ? typed[0].lowercased() : nil) else { continue }
            let days = DayRange.parse(name, today: today)
            if days != nil || ProgressRange(name: name, today: today) != nil {
                readings.append(ArgumentReading(NamedRange(name: name, days: days), consumed: length))
            }
        }
        return readings
    }

    /// Some fixed words, each reading as itself in lower case (`week`, `month`); `also` are other
    /// spellings read the same way but not named in a refusal (`ls` for `list`).
    public static func oneOf(_ accepted: [String], also: [String] = []) -> ArgumentGrammar {
        ArgumentGrammar(noun: "one of " + accepted.joined(separator: ", ")) { words, _, _ in
            guard let first = words.first?.lowercased(), accepted.contains(first) || also.contains(first) else { return [] }
            return [ArgumentReading(first, consumed: 1)]
        }
    }
}

/// A RANGE as typed and the days it names.
public struct NamedRange: Sendable, Equatable {
    /// The RANGE word in lower case (`2w`, `2026-02`, `month`), everyday words turned into it (`last week` → its days).
    public let name: String
    /// The days it names, for a listing; nil for the chart's own words (`month`, `year`), which only `progress` takes.
    public let days: DayRange?

    /// The days, or why this RANGE is none for `command` (a listing does not take `month`).
    @MainActor func listed(by command: String) throws -> DayRange {
        guard let days else {
            throw CommandFailure(.usage, "\(command): '\(ReplSession.printable(name))' is not a RANGE here; use \(WeightViewModel.rangeForms)")
        }
        return days
    }
}
