import Foundation
import Storage
import Vocabulary

/// Where an installation keeps its data: the `--data-dir` flag, else
/// `$TREND_DATA_DIR`, else `$XDG_DATA_HOME/trend`, else `~/.local/share/trend`,
/// with `~` the home directory `$HOME` names (`HomePath`).
public enum DataDirectory {
    /// - Parameters:
    ///   - flag: the value of `--data-dir`, when one was given (the executable parses its arguments once).
    ///   - environment: the process's environment variables.
    public static func resolve(flag: String?, environment: [String: String]) -> URL {
        if let flag, !flag.isEmpty { return expanded(flag, environment) }
        if let explicit = environment["TREND_DATA_DIR"], !explicit.isEmpty { return expanded(explicit, environment) }
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("trend")
        }
        return URL(fileURLWithPath: HomePath.home(environment: environment)).appendingPathComponent(".local/share/trend")
    }

    /// Whether `directory` holds no database yet: a first launch, before anything has opened it.
    public static func isNew(_ directory: URL) -> Bool {
        !FileManager.default.fileExists(atPath: directory.appendingPathComponent(LocalDataStore.fileName).path)
    }

    private static func expanded(_ path: String, _ environment: [String: String]) -> URL {
        URL(fileURLWithPath: HomePath.expanding(path, environment: environment)).standardizedFileURL
    }
}
