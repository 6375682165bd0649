import Foundation
import Vocabulary

/// The words Tab can offer, as a value the line-reading thread can hold.
public struct CompletionTable: Sendable, Equatable {
    public var commandWords: [String]
    public var rules: [String: CompletionRule]
    /// Names learnt at run time, by kind (`habits`, `backups`).
    public var vocabulary: [String: [String]] = [:]

    public init(commandWords: [String], rules: [String: CompletionRule], vocabulary: [String: [String]] = [:]) {
        self.commandWords = commandWords
        self.rules = rules
        self.vocabulary = vocabulary
    }
}

/// Completes the word under the cursor: command words first, then each
/// command's subcommands and arguments, then names and file paths.
public enum Completer {
    /// Candidates for the last word of `linePrefix` (the text before the cursor).
    /// Each candidate is the whole replacement for that word.
    public static func complete(_ linePrefix: String, table: CompletionTable) -> [String] {
        let (words, partial) = split(linePrefix)
        guard let command = words.first else {
            return table.commandWords.filter { $0.hasPrefix(partial) }
        }
        guard let rule = table.rules[command.lowercased()] else { return [] }
        let arguments = Array(words.dropFirst())
        return rule.slots(after: arguments).flatMap { slot -> [String] in
            switch slot {
            case let .words(words):
                return words.filter { $0.hasPrefix(partial) }
            case let .vocabulary(kind):
                let lower = partial.lowercased()
                return (table.vocabulary[kind] ?? [])
                    .filter { $0.lowercased().hasPrefix(lower) }
                    .map(CommandTokenizer.quoted)
            case .file:
                return files(matching: partial)
            }
        }
    }

    /// Whole-line candidates for a partly typed line: the text before the
    /// word being typed, as typed, then each candidate for that word. What
    /// the word was typed with (an open quote, accents, emoji) is replaced
    /// whole, so a line editor can put a candidate in place of the line.
    public static func completeLine(_ linePrefix: String, table: CompletionTable) -> [String] {
        let head = linePrefix[..<CommandTokenizer.lastWordStart(linePrefix)]
        return complete(linePrefix, table: table).map { head + $0 }
    }

    /// What Tab puts in place of the line before the cursor for `candidates` (whole lines, as `completeLine`
    /// gives them): their longest common start, read on the words as names (`Walk 10k steps` and `Water` share
    /// `Wa`, though one is quoted), opening a quote where that start needs one, and never less than was typed:
    /// Tab keeps every character typed.
    public static func commonLine(_ candidates: [String], linePrefix: String) -> String {
        guard let first = candidates.first else { return linePrefix }
        guard candidates.count > 1 else { return first }
        let head = String(linePrefix[..<CommandTokenizer.lastWordStart(linePrefix)])
        let names = candidates.map { candidate -> String in
            let word = String(candidate.dropFirst(head.count))
            return (try? CommandTokenizer.tokenize(word))?.first ?? word  // Not a word the tokenizer reads: as it stands.
        }
        var common = names[0]
        for name in names.dropFirst() { common = String(common.commonPrefix(with: name)) }
        let typed = split(linePrefix).partial
        // The names may differ from what was typed in case only (`w` for `Walk` and `Water`): what was typed stays.
        guard common.count > typed.count, common.lowercased().hasPrefix(typed.lowercased()) else { return linePrefix }
        let quoted = CommandTokenizer.quoted(common)
        // A start that needs quotes is written with its quote open: the name goes on being typed inside it.
        return head + (quoted == common ? common : String(quoted.dropLast()))
    }

    /// The finished words and the word being typed (quotes allowed).
    static func split(_ prefix: String) -> (words: [String], partial: String) {
        let endsWithSpace = prefix.last?.isWhitespace ?? true
        // A quote still open is normal while typing: close it to see the words so far.
        guard var words = try? CommandTokenizer.tokenize(prefix) else {
            // An open quote: the last word is being typed whatever the last character is.
            var words = (try? CommandTokenizer.tokenize(prefix + "\"")) ?? []  // As good as it gets mid-word.
            let partial = words.popLast() ?? ""
            return (words, partial)
        }
        if endsWithSpace { return (words, "") }
        let partial = words.popLast() ?? ""
        return (words, partial)
    }

    static func files(matching partial: String) -> [String] {
        let expanded = HomePath.expanding(partial)
        let directory: String
        let namePrefix: String
        if expanded.hasSuffix("/") {
            directory = expanded
            namePrefix = ""
        } else {
            let parent = (expanded as NSString).deletingLastPathComponent
            directory = parent.isEmpty ? "." : parent
            namePrefix = (expanded as NSString).lastPathComponent
        }
        // Completion only: a folder that cannot be read offers nothing to complete.
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        let shownParent = partial.hasSuffix("/") ? partial : String(partial.dropLast(namePrefix.count))
        return names.filter { $0.hasPrefix(namePrefix) && (namePrefix.hasPrefix(".") || !$0.hasPrefix(".")) }
            .sorted()
            .map { name in
                var isDirectory: ObjCBool = false
                let full = (directory as NSString).appendingPathComponent(name)
                _ = FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory)
                return CommandTokenizer.quoted(shownParent + name) + (isDirectory.boolValue ? "/" : "")
            }
    }
}
