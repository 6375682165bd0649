import Foundation
import Vocabulary

/// What follows a habit's name when it is added or edited, as people type
/// it: a schedule (`every day`, `3/week`, `mon-fri`, …), then optionally
/// what is counted (`target 8`, `at least 8 glasses`, `at most 2`,
/// `at-most 2`, or `8 glasses` after the schedule). The grammar of a habit's
/// plan, beside the schedule and kind it makes.
public struct HabitPlan: Sendable, Equatable {
    public var schedule: HabitSchedule
    public var kind: HabitKind
    /// What the number counts (`glasses`), empty for none.
    public var unit: String

    /// Why words are not a plan.
    public enum Problem: Error, Equatable, Sendable {
        /// A kind's marker (`target`, `at most`) with no number after it.
        case needsNumber(marker: String)
        /// A word that is no part of a schedule the grammar reads.
        case unreadableSchedule(word: String)
    }

    /// The plan `words` say.
    public static func parse(_ words: [String]) throws(Problem) -> HabitPlan {
        var rest = words.map { $0.lowercased() }
        var kind = HabitKind.yesNo
        var unit = ""
        for index in rest.indices {
            guard let (marker, atMost) = markers.first(where: { Array(rest[index...].prefix($0.key.count)) == $0.key }) else { continue }
            let numberIndex = index + marker.count
            guard numberIndex < rest.count, let value = number(rest[numberIndex]) else {
                throw .needsNumber(marker: marker.joined(separator: " "))
            }
            // Words after the number name what is counted: at least 8 glasses.
            unit = words[(numberIndex + 1)...].joined(separator: " ")
            kind = atMost ? .atMost(value) : .atLeast(value)
            rest = Array(rest[..<index])
            break
        }
        // `Water 8 glasses`: a number and a unit after the schedule is an at-least target.
        if kind == .yesNo, HabitSchedule(text: rest.joined(separator: " ")) == nil,
           let index = rest.lastIndex(where: { number($0) != nil }), index + 1 < rest.count,
           !rest[(index + 1)...].contains(where: { scheduleVocabulary.contains($0) || looksLikeSchedule($0) }),
           HabitSchedule(text: rest[..<index].joined(separator: " ")) != nil, let value = number(rest[index]) {
            unit = words[(index + 1)...].joined(separator: " ")
            kind = .atLeast(value)
            rest = Array(rest[..<index])
        }
        guard let schedule = HabitSchedule(text: rest.joined(separator: " ")) else {
            let word = rest.first { !scheduleVocabulary.contains($0) && HabitSchedule(text: $0) == nil
                && number($0.trimmingCharacters(in: CharacterSet(charactersIn: "x/"))) == nil } ?? rest.joined(separator: " ")
            throw .unreadableSchedule(word: word)
        }
        return HabitPlan(schedule: schedule, kind: kind, unit: unit)
    }

    /// A new habit's name and plan from the words after `habit add`: the name runs until the words
    /// after it read as a plan, so it needs no quotes (`Drink water every day target 8`). A schedule
    /// word swallowed into the name (`Read every funday`) is a misread plan, refused with the first problem.
    public static func named(_ words: [String]) throws(Problem) -> (name: String, plan: HabitPlan) {
        // The name is the words before the first word from which the rest reads whole as a schedule and a target:
        // `Walk 10k steps 5 times a week`, `No snacks after 8pm every day`. With none, every word is the name
        // (every day), unless a word that reads as a schedule's did not fit: that word is the one refused.
        var problem: Problem?
        for split in 1...max(1, words.count) {
            // A name never takes in a schedule's own word (`every`, `3/week`, `mon,wed,fri`): `Read every dya` is a
            // typo to refuse, not a habit of that name. Words with digits (`10k`, `8pm`, `(2)`) may be a name's.
            if problem != nil, words[1..<split].contains(where: isScheduleWord) { break }
            do {
                return (words[..<split].joined(separator: " "), try parse(Array(words[split...])))
            } catch let error {
                if problem == nil, split < words.count, looksLikeSchedule(words[split]) { problem = error }
            }
        }
        throw problem ?? .unreadableSchedule(word: words.joined(separator: " "))
    }

    /// A word only a schedule or a target has: `every`, `times`, `target`, `3/week`, `mon-fri` (not a number alone).
    static func isScheduleWord(_ word: String) -> Bool {
        let lower = word.lowercased()
        return ["every", "daily", "times", "target", "at", "per", "week", "weeks", "month", "max", "min", "weekdays", "weekends"].contains(lower)
            || lower.contains("/") || (number(lower) == nil && HabitSchedule(text: lower) != nil)
    }

    /// Whether a word reads as part of a schedule or a target (`every`, `3/week`, `8`): a name ends before it.
    public static func looksLikeSchedule(_ word: String) -> Bool {
        let lower = word.lowercased()
        return ["every", "daily", "times", "target", "at", "per", "week", "month", "max", "min"].contains(lower)
            || lower.contains("/") || lower.contains(where: \.isNumber) || HabitSchedule(text: lower) != nil
    }

    /// The words that open a kind, and whether the kind is a limit (at most).
    private static let markers: [[String]: Bool] = [["target"]: false, ["at", "least"]: false, ["at-least"]: false, ["atleast"]: false,
                                                    ["min"]: false, ["at", "most"]: true, ["at-most"]: true, ["atmost"]: true, ["max"]: true]

    private static let scheduleVocabulary: Set<String> = ["every", "times", "time", "a", "per", "each", "in", "/", "x",
                                                          "day", "days", "week", "weeks", "month", "months"]

    private static func number(_ text: String) -> Double? {
        PlainDecimal.parse(text, maximumLength: 12)
    }
}
