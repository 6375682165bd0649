/// Splits a command line into words the way a shell user expects: spaces
/// separate, `"…"` and `'…'` keep spaces, a backslash escapes one character;
/// inside `"…"`, `\"` and `\\` stand for a quote and a backslash (as in a shell).
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
        var insideEscape = false
        for (column, character) in line.enumerated() {
            if escaping {
                current.append(character)
                escaping = false
                continue
            }
            if insideEscape {
                // As a shell reads "…": \" and \\ stand for the character, any other backslash stays.
                if character != "\"" && character != "\\" { current.append("\\") }
                current.append(character)
                insideEscape = false
                continue
            }
            if let open = quote {
                if character == open { quote = nil }
                else if open == "\"" && character == "\\" { insideEscape = true }
                else { current.append(character) }
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

    /// Where the last word of `line` begins as typed (at its opening quote,
    /// if it has one), or the end of the line when it ends between words:
    /// the text from there is what Tab completes.
    public static func lastWordStart(_ line: String) -> String.Index {
        var start: String.Index?
        var quote: Character?
        var escaping = false
        for index in line.indices {
            let character = line[index]
            if escaping {
                escaping = false
            } else if let open = quote {
                if character == open { quote = nil } else if open == "\"" && character == "\\" { escaping = true }
            } else if character.isWhitespace {
                start = nil
            } else {
                if start == nil { start = index }
                if character == "\\" { escaping = true } else if character == "\"" || character == "'" { quote = character }
            }
        }
        return start ?? line.endIndex
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
        // One quoted word that is all of it is read as the tokenizer reads it: `"say \"hi\""` is `say "hi"`.
        guard let first = trimmed.first, first == "\"" || first == "'", trimmed.count >= 2, trimmed.last == first,
              let words = try? tokenize(trimmed), words.count == 1,
              lastWordStart(trimmed) == trimmed.startIndex else { return trimmed }  // Not one quoted word: as typed.
        return words[0]
    }
}
