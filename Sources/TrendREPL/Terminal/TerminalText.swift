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
