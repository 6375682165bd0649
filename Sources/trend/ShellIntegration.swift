import CommandLanguage
import Foundation

/// What makes `trend` install like a tool: shell completion scripts and the
/// man page, both made from the same command catalogue as `help`, so they
/// never describe commands the program does not have.
public enum ShellIntegration {
    /// The shells `--completions` writes a script for.
    public enum Shell: String, CaseIterable, Sendable {
        case bash, zsh, fish
    }

    /// The completion script for `shell`. Words inside `-c '…'` are completed
    /// by `trend --complete LINE`, the REPL's own completer (commands, ranges,
    /// habit names, backup names), so the script needs no list of its own.
    public static func completionScript(for shell: Shell) -> String {
        let options = "--data-dir --json --no-color -c --command --version --help --completions status"
        switch shell {
        case .bash:
            return """
            # trend completion for bash: eval "$(trend --completions bash)", or install it as
            # ~/.local/share/bash-completion/completions/trend (make install does).
            _trend() {
                local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
                case $prev in
                    --data-dir) COMPREPLY=($(compgen -d -- "$cur")); return ;;
                    --completions) COMPREPLY=($(compgen -W "bash zsh fish" -- "$cur")); return ;;
                    -c|--command)
                        local quote=${cur:0:1} line=$cur
                        [[ $quote == '"' || $quote == "'" ]] && line=${cur:1} || quote=
                        local IFS=$'\\n'
                        COMPREPLY=($(trend --complete "$line" 2>/dev/null))
                        [[ -n $quote ]] && COMPREPLY=("${COMPREPLY[@]/#/$quote}")
                        return ;;
                esac
                COMPREPLY=($(compgen -W "\(options)" -- "$cur"))
            }
            complete -o default -F _trend trend

            """
        case .zsh:
            return """
            #compdef trend
            # trend completion for zsh: put this file on $fpath as _trend (make install does), or
            # eval "$(trend --completions zsh)" after compinit.
            _trend() {
                local cur=${words[CURRENT]} prev=${words[CURRENT-1]}
                case $prev in
                    --data-dir) _files -/; return ;;
                    --completions) compadd bash zsh fish; return ;;
                    -c|--command) compadd -- ${(f)"$(trend --complete "${(Q)cur}" 2>/dev/null)"}; return ;;
                esac
                compadd -- \(options)
            }
            if (( $+functions[compdef] )); then compdef _trend trend; fi

            """
        case .fish:
            return """
            # trend completion for fish: trend --completions fish | source, or install it as
            # ~/.local/share/fish/vendor_completions.d/trend.fish (make install does).
            complete -c trend -l data-dir -r -a '(__fish_complete_directories)' -d 'keep data in DIR'
            complete -c trend -l json -d 'print one JSON document per command'
            complete -c trend -l no-color -d 'never colour the output'
            complete -c trend -s c -l command -x -a '(trend --complete (commandline -ct | string trim -l -c "\\"\\'") 2>/dev/null)' -d 'run COMMAND and exit'
            complete -c trend -l version -d 'print the version'
            complete -c trend -l help -d 'print the help'
            complete -c trend -l completions -x -a 'bash zsh fish' -d 'print a completion script'
            complete -c trend -f -n '__fish_use_subcommand' -a status -d 'one line for a shell prompt'

            """
        }
    }

    /// Whole-line candidates for a partly typed command line: the earlier
    /// words as typed, then each candidate for the last word.
    public static func completions(of line: String, table: CompletionTable) -> [String] {
        Completer.completeLine(line, table: table)
    }

    /// `trend(1)` in roff: the usage, every command with its summary and
    /// examples, the files, the environment and the exit status.
    @MainActor public static func manPage(commands: [CommandHelp.Page], version: String, usage: String) -> String {
        func escaped(_ text: String) -> String {
            text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
                .split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.hasPrefix(".") || $0.hasPrefix("'") ? "\\&" + $0 : String($0) }.joined(separator: "\n")
        }
        var page = """
        .TH TREND 1 "" "trend \(version)" "User Commands"
        .SH NAME
        trend \\- a weight-and-habits tracker for the terminal
        .SH SYNOPSIS
        .nf
        \(escaped(usage))
        .fi
        .SH DESCRIPTION
        trend keeps weigh-ins and habits in an SQLite database in its data directory and shows the
        trend through them, the rate, a goal date, streaks and a tip a day. With no \\fB\\-c\\fR it reads
        commands at a \\fBtrend>\\fR prompt, with editing, history and Tab completion.
        .SH COMMANDS

        """
        for spec in commands {
            page += ".TP\n.B \(escaped(spec.usage))\n\(escaped(spec.summary))"
            if !spec.aliases.isEmpty { page += " (also: \(escaped(spec.aliases.joined(separator: ", "))))" }
            page += "\n"
            for example in spec.examples { page += ".br\n\\fI\(escaped(example))\\fR\n" }
        }
        page += """
        .SH FILES
        .TP
        .I $XDG_DATA_HOME/trend/trend.sqlite
        the database (default data directory ~/.local/share/trend; \\fB\\-\\-data\\-dir\\fR or \\fBTREND_DATA_DIR\\fR choose another)
        .TP
        .I <data dir>/Backups/
        recovery snapshots: Latest.json, Previous.json, Weekly/, Before\\-restore/
        .SH ENVIRONMENT
        .TP
        .B TREND_DATA_DIR
        the data directory
        .TP
        .B NO_COLOR
        when set, no colours
        .SH EXIT STATUS
        0 when every command succeeded, 1 when one failed or the output could not be written, 2 for a usage error.

        """
        return page
    }
}
