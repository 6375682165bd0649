import Foundation
import Vocabulary

/// A word of a command that no startup file can hold safely: a line break or another control character would
/// end the line the command is written on (and a unit or desktop entry would read the rest as its own keys).
public struct UnwritableWord: Error, Equatable, Sendable {
    /// The word, as given.
    public let word: String
    /// The first character that cannot be written, as `U+000A`.
    public let character: String

    /// The first control character of `word`, if any.
    static func check(_ word: String) throws(UnwritableWord) {
        if let scalar = word.unicodeScalars.first(where: ControlCharacters.contains) {
            throw UnwritableWord(word: word, character: String(format: "U+%04X", scalar.value))
        }
    }
}

/// The files that start a long-running program with the person's graphical session (DESIGN §9): a systemd user
/// service bound to `graphical-session.target`, and an XDG autostart desktop entry. Each writes a command's
/// words under its own quoting rules, so a path with `%`, spaces, quotes or `$` is read back as it was.
public enum StartupFiles {
    /// A systemd user service that runs `command` for as long as the graphical session does: started with it
    /// (`WantedBy=`), stopped with it (`PartOf=`), started again if it fails.
    public static func systemdService(description: String, command: [String]) throws(UnwritableWord) -> String {
        try UnwritableWord.check(description)
        let line = try command.map { word throws(UnwritableWord) in try systemdWord(word) }.joined(separator: " ")
        return """
        [Unit]
        Description=\(description.replacingOccurrences(of: "%", with: "%%"))
        PartOf=graphical-session.target
        After=graphical-session.target

        [Service]
        Type=simple
        ExecStart=\(line)
        Restart=on-failure
        RestartSec=10s

        [Install]
        WantedBy=graphical-session.target

        """
    }

    /// An XDG autostart entry (the Desktop Entry specification's `Type=Application`), which every desktop runs
    /// at login in the session's environment.
    public static func autostartEntry(name: String, comment: String, command: [String]) throws(UnwritableWord) -> String {
        try UnwritableWord.check(name)
        try UnwritableWord.check(comment)
        let exec = try command.map { word throws(UnwritableWord) in try desktopExecWord(word) }.joined(separator: " ")
        return """
        [Desktop Entry]
        Type=Application
        Name=\(desktopString(name))
        Comment=\(desktopString(comment))
        Exec=\(desktopString(exec))
        Terminal=false
        NoDisplay=true
        X-GNOME-Autostart-enabled=true

        """
    }

    /// One word of `ExecStart=` (systemd.service(5), "Command lines"): `%` is a specifier and `$` a variable, so
    /// each is doubled; a word with anything but plain path characters is put in double quotes, inside which `\`
    /// and `"` are escaped.
    static func systemdWord(_ word: String) throws(UnwritableWord) -> String {
        try UnwritableWord.check(word)
        let expanded = word.replacingOccurrences(of: "%", with: "%%").replacingOccurrences(of: "$", with: "$$")
        guard !isPlain(word) else { return expanded }
        return "\"" + expanded.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// One word of `Exec=` (the Desktop Entry specification, "The Exec key"): `%` is a field code, so it is
    /// doubled; a word holding a reserved character is put in double quotes, inside which `"`, `` ` ``, `$` and
    /// `\` are escaped with a backslash. (The value's own escapes come after, in `desktopString`.)
    static func desktopExecWord(_ word: String) throws(UnwritableWord) -> String {
        try UnwritableWord.check(word)
        let percent = word.replacingOccurrences(of: "%", with: "%%")
        guard !isPlain(word) else { return percent }
        var quoted = "\""
        for character in percent {
            if "\"`$\\".contains(character) { quoted.append("\\") }
            quoted.append(character)
        }
        return quoted + "\""
    }

    /// A value of type string in a desktop entry: a backslash is written `\\` (the spec's escapes come first,
    /// so a backslash inside a quoted `Exec` argument ends up as four).
    static func desktopString(_ text: String) -> String { text.replacingOccurrences(of: "\\", with: "\\\\") }

    /// Letters, digits and `/._-+,:=@`: nothing any of these readers treats specially.
    private static func isPlain(_ word: String) -> Bool {
        !word.isEmpty && word.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "/._-+,:=@".contains($0)) }
    }
}
