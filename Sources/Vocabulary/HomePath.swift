/// Vocabulary holds the words Trend's domain is spoken in, below every
/// feature: local days and ranges of days, the grammars of typed input (a
/// weight with its unit, WHEN), decimals read digit by digit, the plausible
/// span of time, the seeded random source, control characters, and paths
/// that start at the home directory. It imports Foundation only.
import Foundation

/// A path as a person types it, with `~` meaning their home directory.
public enum HomePath {
    /// The home directory: `$HOME` when it is set (as the shell and XDG read
    /// it, so a sandbox, CI or `sudo -E` keeps its own), else the account's
    /// entry in the password database.
    public static func home(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let home = environment["HOME"], !home.isEmpty { return home }
        return NSHomeDirectory()
    }

    /// `path` with a leading `~` or `~/` taken as `home(environment:)`;
    /// `~name/` is that account's home, from the password database; any other path is left as it is.
    public static func expanding(_ path: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        guard path.hasPrefix("~") else { return path }
        if path == "~" { return home(environment: environment) }
        if path.hasPrefix("~/") {
            let home = home(environment: environment)
            return (home.hasSuffix("/") ? String(home.dropLast()) : home) + String(path.dropFirst())
        }
        return (path as NSString).expandingTildeInPath
    }
}
