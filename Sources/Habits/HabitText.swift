import Foundation
import Vocabulary

/// The rule for a habit's name, in one place: 1–60 characters once trimmed,
/// no control or invisible formatting characters.
public enum HabitName {
    public static let maximumLength = 60

    /// The trimmed name, or the reason it cannot be one.
    public static func validated(_ name: String) throws(HabitsError) -> String {
        let clean = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !clean.isEmpty else { throw .invalidName("a habit needs a name") }
        guard clean.count <= maximumLength else { throw .invalidName("a habit name can be at most \(maximumLength) characters") }
        guard !clean.unicodeScalars.contains(where: isHidden) else {
            throw .invalidName("a habit name cannot contain control or invisible formatting characters")
        }
        return clean
    }

    /// A name not yet in `taken` (lowercased names), which it joins: the name itself, or for a second
    /// habit of one name, as another app may hold, `Name (2)`, `Name (3)` … (the name shortened to fit).
    /// Loop keeps both habits (its ImportTest.testLoopDB has two of each name); so does Trend, apart.
    public static func distinct(_ name: String, taken: inout Set<String>) -> String {
        var candidate = name, number = 1
        while !taken.insert(candidate.lowercased()).inserted {
            number += 1
            let suffix = " (\(number))"
            candidate = String(name.prefix(maximumLength - suffix.count)).trimmingCharacters(in: .whitespaces) + suffix
        }
        return candidate
    }

    public static func isAcceptable(_ name: String) -> Bool {
        (try? validated(name)) != nil  // The reason is not needed here, only whether there is one.
    }

    private static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control || scalar.properties.generalCategory == .format
    }
}

/// The rule for what a numeric habit counts: at most 24 characters once
/// trimmed, no control or invisible formatting characters, no digits (so
/// `8 glasses` always reads as a number and its unit).
public enum HabitUnit {
    public static let maximumLength = 24

    public static func validated(_ unit: String) throws(HabitsError) -> String {
        let clean = unit.trimmingCharacters(in: .whitespacesAndNewlines)
        guard clean.count <= maximumLength,
              !clean.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0.properties.generalCategory == .format }),
              !clean.contains(where: \.isNumber) else {
            throw .invalidUnit(String(unit.prefix(40)))
        }
        return clean
    }
}

/// The rule for a note on a habit's day: trimmed, at most 500 characters,
/// no control characters (an escape sequence in a note would reach every
/// screen that shows it). Empty is no note.
public enum HabitNote {
    public static let maximumLength = 500

    public static func typed(_ text: String?) throws(HabitsError) -> String? {
        guard let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
        guard trimmed.count <= maximumLength, !trimmed.unicodeScalars.contains(where: ControlCharacters.contains) else {
            throw .invalidNote
        }
        return trimmed
    }

    /// A note from another app's file: its control characters dropped and cut to the limit, so the day
    /// still comes in; nil when nothing is left.
    public static func imported(_ text: String) -> String? {
        try? typed(String(text.unicodeScalars.filter { !ControlCharacters.contains($0) }.prefix(maximumLength)))  // Blank: none.
    }
}
