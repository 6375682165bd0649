import CommandLanguage
import AppCore

/// The command line of `trend`, parsed without side effects.
public struct TrendOptions: Equatable, Sendable {
    public var dataDirectory: String?
    public var json = false
    public var noColor = false
    /// `--color always`: colours even when the output is not a terminal (NO_COLOR still wins).
    public var forceColor = false
    public var commands: [String] = []
    public var showVersion = false
    public var showHelp = false
    /// `--completions SHELL`: print that shell's completion script.
    public var completionShell: ShellIntegration.Shell?
    /// `--complete LINE`: print whole-line candidates for LINE (the completion scripts ask).
    public var completeLine: String?
    /// `--man`: print the man page (make install writes it).
    public var showManPage = false
    /// `remind --watch`: stay running, send reminders at their times and act on "Done" and "Skip".
    public var watchReminders = false
    /// `trend remind install` (not `-c "remind install"`): on a terminal it shows its plan and asks first.
    public var asksBeforeWriting = false

    public init() {}

    public static var version: String { AppModel.version }

    public static let usage = """
    usage: trend [--data-dir DIR] [--json] [--color WHEN] [-c COMMAND]... [--version] [--help]
           trend [--data-dir DIR] [--json] status
           trend [--data-dir DIR] [--json] remind [--watch|install|uninstall]

      --data-dir DIR   keep data in DIR (default: $TREND_DATA_DIR, $XDG_DATA_HOME/trend, ~/.local/share/trend)
      --json           print one JSON document per command, one per line
      --color WHEN     colour the output: auto (on a terminal, the default), always or never; NO_COLOR wins
      --no-color       never colour the output (the same as --color never)
      -c COMMAND       run COMMAND and exit; repeat to run several in order
      --version        print the version and exit
      --help           print this help and exit
      --completions SHELL  print a completion script for bash, zsh or fish
      --man            print the man page
      status           print one line for a shell prompt: trend, streak, habits due
      remind           send the habits' reminders that have come due to the desktop, each with Done and Skip
                       (printed on a terminal without one; with neither they stay due);
                       --watch stays running: sends each at its time, marks the habit on Done or Skip and
                       takes the notification away once the habit is done; install starts that watcher
                       with each graphical login (systemd user service or autostart entry), after asking

    With no -c, trend reads commands from the terminal (trend> prompt) or,
    when stdin is not a terminal, one command per line as a script.
    Exit status: 0 all commands succeeded, 1 a command failed, 2 usage error.
    """

    /// A command line `trend` cannot run; the executable prints it with the usage and exits 2.
    public struct UsageError: Error, Equatable {
        public let message: String
    }

    public static func parse(_ arguments: [String]) throws(UsageError) -> TrendOptions {
        var options = TrendOptions()
        var index = 0
        func value(for flag: String) throws(UsageError) -> String {
            index += 1
            guard index < arguments.count else { throw UsageError(message: "\(flag) needs a value") }
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--data-dir": options.dataDirectory = try value(for: argument)
            case "--json": options.json = true
            case "--no-color", "--no-colour": options.noColor = true
            case "--color", "--colour":
                switch try value(for: argument).lowercased() {
                case "auto": (options.noColor, options.forceColor) = (false, false)
                case "always": (options.noColor, options.forceColor) = (false, true)
                case "never": (options.noColor, options.forceColor) = (true, false)
                case let other: throw UsageError(message: "--color takes auto, always or never, not '\(other)'")
                }
            case "-c", "--command": options.commands.append(try value(for: argument))
            case "--version", "-V": options.showVersion = true
            case "--help", "-h": options.showHelp = true
            case "--man": options.showManPage = true
            case "--complete": options.completeLine = try value(for: argument)
            case "--completions":
                let name = try value(for: argument)
                guard let shell = ShellIntegration.Shell(rawValue: name.lowercased()) else {
                    throw UsageError(message: "--completions takes bash, zsh or fish, not '\(name)'")
                }
                options.completionShell = shell
            default:
                if argument == "status", options.commands.isEmpty {
                    options.commands.append("status")
                } else if argument == "remind", options.commands.isEmpty {
                    options.commands.append("remind")
                } else if options.commands == ["remind"], ["install", "uninstall"].contains(argument) {
                    options.commands = ["remind \(argument)"]
                    options.asksBeforeWriting = argument == "install"
                } else if options.commands == ["remind"], argument == "--watch" {
                    options.watchReminders = true
                } else if argument.hasPrefix("--data-dir=") {
                    options.dataDirectory = String(argument.dropFirst("--data-dir=".count))
                } else {
                    throw UsageError(message: "unknown option '\(argument)'")
                }
            }
            index += 1
        }
        if options.dataDirectory?.isEmpty == true {
            throw UsageError(message: "--data-dir needs a non-empty path")
        }
        return options
    }
}
