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
}
