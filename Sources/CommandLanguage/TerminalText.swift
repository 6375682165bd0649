import Foundation
import Vocabulary

/// Text from outside (a note in an imported file, a name in a synced folder)
/// made safe to print on a terminal: every control character (C0, DEL, C1,
/// ESC among them) and every bidirectional override is shown as a visible
/// escape (`\e`, `\x07`, `\u{202E}`), so no string can reset the terminal,
/// set its title, write the clipboard (OSC 52) or forge a row. JSON output
/// escapes them as JSON does, and storage keeps the characters as they were.
public enum TerminalText {
    /// `text` without the white space at its end: a drawn row that ends in blank cells. (Foundation's regular
    /// expressions cost a few milliseconds to start, more than the rest of a screen.)
    public static func trimmedAtEnd(_ text: String) -> String {
        var end = text.endIndex
        while end > text.startIndex, text[text.index(before: end)].isWhitespace { end = text.index(before: end) }
        return String(text[..<end])
    }

    /// A word as typed, shown back in a message: visible, and cut at `limit` characters.
    public static func printable(_ word: String, limit: Int = 40) -> String {
        let visible = visible(word)
        return visible.count > limit ? String(visible.prefix(limit)) + "…" : visible
    }

    public static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar.value == 0x1B { out += "\\e" }
            else if ControlCharacters.contains(scalar) { out += String(format: "\\x%02x", scalar.value) }
            else if needsEscape(scalar) { out += String(format: "\\u{%04X}", scalar.value) }
            else { out.unicodeScalars.append(scalar) }
        }
        return out
    }

    /// Control characters and the bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069).
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        ControlCharacters.contains(scalar)
            || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }
}

extension TerminalText {
    /// How many columns a line takes in a terminal: each character's display
    /// width (wide East Asian characters and emoji two, combining marks and
    /// joiners none, the rest one), without the colour sequences (`ESC [ … m`)
    /// the screens paint with.
    ///
    /// - Complexity: O(n) in the line's bytes; all-ASCII text is counted without grapheme breaking.
    public static func columns(_ line: String) -> Int {
        var ascii = 0
        var plain = true
        for byte in line.utf8 {
            if byte >= 0x80 || byte == 0x1B { plain = false; break }
            ascii += 1
        }
        if plain { return ascii }
        var count = 0, inEscape = false
        for character in line {
            if inEscape {
                if character == "m" { inEscape = false }
                continue
            }
            if character == "\u{1B}" { inEscape = true; continue }
            count += columns(of: character)
        }
        return count
    }

    /// The columns one character (a grapheme cluster) takes, as terminals
    /// following Unicode's East Asian Width and emoji presentation draw it.
    public static func columns(of character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if first.isASCII { return first.value < 0x20 || first.value == 0x7F ? 0 : 1 }
        if scalars.contains(where: { $0.properties.isEmojiPresentation })
            || (first.properties.isEmoji && scalars.contains("\u{FE0F}")) { return 2 }
        if isWide(first.value) { return 2 }
        switch first.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: return 1
        }
    }

    /// Unicode's East Asian Wide and Fullwidth blocks (EastAsianWidth.txt, W and F).
    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19,
             0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x18AFF, 0x1B000...0x1B2FF,
             0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            true
        default:
            false
        }
    }

    /// The longest start of `text` that fits in `width` columns.
    public static func prefix(_ text: String, columns width: Int) -> String {
        var used = 0
        var end = text.startIndex
        for index in text.indices {
            let wide = columns(of: text[index])
            if used + wide > width { break }
            used += wide
            end = text.index(after: index)
        }
        return String(text[..<end])
    }

    /// `text` cut to `width` columns, ending in `…` when it was longer.
    public static func cut(_ text: String, to width: Int) -> String {
        columns(text) <= width ? text : prefix(text, columns: max(0, width - 1)) + "…"
    }

    /// The text with every line longer than `width` wrapped at its spaces.
    /// A continuation lines up with the end of the line's first wide gap (two
    /// spaces or more) when that is in its first half — the column of
    /// `help`'s summaries, of a figure after its label — or else with the
    /// line's own indentation.
    /// Spacing within a line stays; a word longer than a line is cut; colours
    /// stay with their words.
    public static func wrapped(_ text: String, width: Int) -> String {
        guard width >= 20 else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            let line = String(line)
            guard columns(line) > width else { return line }
            // Words with the spaces before them.
            var tokens: [(gap: Int, word: String)] = []
            var gap = 0, word = ""
            for character in line {
                if character == " " {
                    if !word.isEmpty { tokens.append((gap, word)); (gap, word) = (0, "") }
                    gap += 1
                } else {
                    word.append(character)
                }
            }
            if !word.isEmpty { tokens.append((gap, word)) }
            var hanging = tokens.first?.gap ?? 0, position = 0
            for (index, token) in tokens.enumerated() {
                position += token.gap
                if index > 0, token.gap >= 2 {
                    if position <= width / 2 { hanging = position }
                    break
                }
                position += columns(token.word)
            }
            let indent = String(repeating: " ", count: hanging)
            var lines: [String] = []
            var current = "", used = 0, empty = true
            func breakLine() {
                lines.append(current)
                (current, used, empty) = (indent, indent.count, true)
            }
            for (index, token) in tokens.enumerated() {
                var word = token.word, wordColumns = columns(word)
                let gap = index == 0 ? token.gap : (empty ? 0 : token.gap)
                if !empty, used + gap + wordColumns > width { breakLine() }
                var space = empty && index > 0 ? 0 : gap
                // A word longer than a whole line: cut where the line ends.
                while used + space + wordColumns > width, wordColumns > width - indent.count {
                    let room = max(1, width - used - space)
                    var head = prefix(word, columns: room)
                    if head.isEmpty { head = String(word.prefix(1)) }
                    current += String(repeating: " ", count: space) + head
                    breakLine()
                    space = 0
                    word = String(word.dropFirst(head.count))
                    wordColumns = columns(word)
                }
                current += String(repeating: " ", count: space) + word
                used += space + wordColumns
                empty = false
            }
            lines.append(current)
            return lines.joined(separator: "\n")
        }.joined(separator: "\n")
    }
}

extension String {
    /// The text with spaces before it, to take `width` terminal columns.
    public func leftPadded(to width: Int) -> String {
        let used = TerminalText.columns(self)
        return used >= width ? self : String(repeating: " ", count: width - used) + self
    }

    /// The text with spaces after it, to take `width` terminal columns.
    public func rightPadded(to width: Int) -> String {
        let used = TerminalText.columns(self)
        return used >= width ? self : self + String(repeating: " ", count: width - used)
    }
}
