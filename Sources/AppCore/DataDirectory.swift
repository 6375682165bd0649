import Foundation

/// Where an installation keeps its data: the `--data-dir` flag, else
/// `$TREND_DATA_DIR`, else `$XDG_DATA_HOME/trend`, else `~/.local/share/trend`.
public enum DataDirectory {
    /// - Parameters:
    ///   - flag: the value of `--data-dir`, when one was given.
    ///   - environment: the process's environment variables.
    ///   - home: the home directory.
    public static func resolve(flag: String?, environment: [String: String], home: String) -> URL {
        if let flag, !flag.isEmpty { return expanded(flag) }
        if let explicit = environment["TREND_DATA_DIR"], !explicit.isEmpty { return expanded(explicit) }
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("trend")
        }
        return URL(fileURLWithPath: home).appendingPathComponent(".local/share/trend")
    }

    /// The value of the last `--data-dir DIR` or `--data-dir=DIR` among a
    /// command line's arguments (the program's name left out). The word after
    /// `-c` is a command, never a flag. The executable validates the rest.
    public static func flag(in arguments: [String]) -> String? {
        var found: String?
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "-c" || argument == "--command" {
                index += 1
            } else if argument == "--data-dir", index + 1 < arguments.count {
                found = arguments[index + 1]
                index += 1
            } else if argument.hasPrefix("--data-dir=") {
                found = String(argument.dropFirst("--data-dir=".count))
            }
            index += 1
        }
        return found
    }

    /// The directory this process uses, from its own arguments and environment.
    public static func ofThisProcess() -> URL {
        resolve(flag: flag(in: Array(CommandLine.arguments.dropFirst())), environment: ProcessInfo.processInfo.environment,
                home: NSHomeDirectory())
    }

    private static func expanded(_ path: String) -> URL {
        URL(fileURLWithPath: (path as NSString).expandingTildeInPath).standardizedFileURL
    }
}
