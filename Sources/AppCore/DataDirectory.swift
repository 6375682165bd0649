import Foundation

/// Where an installation keeps its data: `$TREND_DATA_DIR`, else
/// `$XDG_DATA_HOME/trend`, else `~/.local/share/trend`. The `--data-dir`
/// flag reaches here through `TREND_DATA_DIR`, set by the executable.
public enum DataDirectory {
    public static func resolve(environment: [String: String], home: String = NSHomeDirectory()) -> URL {
        if let explicit = environment["TREND_DATA_DIR"], !explicit.isEmpty {
            return URL(fileURLWithPath: (explicit as NSString).expandingTildeInPath).standardizedFileURL
        }
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("trend")
        }
        return URL(fileURLWithPath: home).appendingPathComponent(".local/share/trend")
    }
}
