/// Splits a command line into words the way a shell user expects: spaces
/// separate, `"…"` and `'…'` keep spaces, a backslash escapes one character.
public enum CommandTokenizer {
    /// A quote opened and never closed; `column` says where it opened.
    public struct UnterminatedQuote: Error, Equatable {
        public let column: Int
    }

    public static func tokenize(_ line: String) throws(UnterminatedQuote) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        var quoteColumn = 0
        var escaping = false
        for (column, character) in line.enumerated() {
            if escaping {
                current.append(character)
                escaping = false
                continue
            }
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
                continue
            }
            switch character {
            case "\\":
                escaping = true
                inWord = true
            case "\"", "'":
                quote = character
                quoteColumn = column + 1
                inWord = true
            case _ where character.isWhitespace:
                if inWord { words.append(current) }
                current = ""
                inWord = false
            default:
                current.append(character)
                inWord = true
            }
        }
        if quote != nil { throw UnterminatedQuote(column: quoteColumn) }
        if escaping { current.append("\\") }
        if inWord { words.append(current) }
        return words
    }

    /// Quotes a word for display or completion when it holds spaces or quotes.
    public static func quoted(_ word: String) -> String {
        guard word.isEmpty || word.contains(where: { $0.isWhitespace || $0 == "\"" || $0 == "'" || $0 == "\\" }) else {
            return word
        }
        return "\"" + word.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// The text after the word `keyword` (outside quotes, any case) in a line as typed, or nil
    /// when the line has no such word. Quotes in it are kept — they are part of a note — except a
    /// pair that encloses all of it: `note "after the run"` is the note `after the run`.
    public static func text(after keyword: String, in line: String) -> String? {
        var quote: Character?
        var wordStart: String.Index?
        var index = line.startIndex
        func isKeyword(_ start: String.Index, _ end: String.Index) -> Bool { line[start..<end].lowercased() == keyword }
        while index < line.endIndex {
            let character = line[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
                if wordStart == nil { wordStart = index }
            } else if character.isWhitespace {
                if let start = wordStart, isKeyword(start, index) { return remainder(line[line.index(after: index)...]) }
                wordStart = nil
            } else if wordStart == nil {
                wordStart = index
            }
            index = line.index(after: index)
        }
        if let start = wordStart, quote == nil, isKeyword(start, line.endIndex) { return "" }
        return nil
    }

    private static func remainder(_ text: Substring) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let first = trimmed.first, first == "\"" || first == "'", trimmed.count >= 2, trimmed.last == first,
              !trimmed.dropFirst().dropLast().contains(first) else { return trimmed }
        return String(trimmed.dropFirst().dropLast())
    }
}
