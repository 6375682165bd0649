import Foundation
import Settings

/// Text from outside (a note in an imported file, a name in a synced folder)
/// made safe to print on a terminal: every control character (C0, DEL, C1,
/// ESC among them) and every bidirectional override is shown as a visible
/// escape (`\e`, `\x07`, `\u{202E}`), so no string can reset the terminal,
/// set its title, write the clipboard (OSC 52) or forge a row. JSON output
/// escapes them as JSON does, and storage keeps the characters as they were.
public enum TerminalText {
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
    /// How many columns a line takes: its characters without the colour
    /// sequences (`ESC [ … m`) the screens paint with.
    public static func columns(_ line: String) -> Int {
        var count = 0, inEscape = false
        for scalar in line.unicodeScalars {
            if inEscape {
                if scalar == "m" { inEscape = false }
                continue
            }
            if scalar.value == 0x1B { inEscape = true; continue }
            // Combining marks take no column of their own.
            if scalar.properties.generalCategory == .nonspacingMark { continue }
            count += 1
        }
        return count
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
                    current += String(repeating: " ", count: space) + String(word.prefix(room))
                    breakLine()
                    space = 0
                    word = String(word.dropFirst(room))
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
