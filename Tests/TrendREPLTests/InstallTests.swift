import Foundation
import Testing
import TestSupport

/// Issue 16: trend installs like a tool — a binary that keeps its tips away
/// from the build folder, a man page, and completions a real bash loads.
@Suite struct InstallTests {
    func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
        try runTool(executable, arguments,
                    environment: ["PATH": "/usr/bin:/bin", "HOME": FileManager.default.temporaryDirectory.path].merging(environment) { $1 })
    }

    @Test func theInstallScriptGivesAWorkingTrendWithTipsAManPageAndCompletions() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let prefix = temp.url.appendingPathComponent("prefix")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/install.sh")
        #expect(try run("/bin/sh", [script.path, trendExecutable().path, prefix.path]).status == 0)
        let installed = prefix.appendingPathComponent("bin/trend").path
        // Far from the build folder, the tips are still there: they are compiled in.
        let tip = try run(installed, ["--data-dir", temp.url.appendingPathComponent("data").path, "--json", "-c", "tip"])
        #expect(tip.status == 0 && tip.output.contains("\"category\""), "\(tip.output)")
        let manual = try String(contentsOf: prefix.appendingPathComponent("share/man/man1/trend.1"), encoding: .utf8)
        #expect(manual.hasPrefix(".TH TREND 1") && manual.contains("habit add|done"))
        for file in ["share/bash-completion/completions/trend", "share/zsh/site-functions/_trend",
                     "share/fish/vendor_completions.d/trend.fish"] {
            #expect(FileManager.default.fileExists(atPath: prefix.appendingPathComponent(file).path), "\(file)")
        }

        // A real bash loads the script and completes with it.
        let data = temp.url.appendingPathComponent("data").path
        _ = try run(installed, ["--data-dir", data, "-c", "habit add Reading every day"])
        let probe = """
        source '\(prefix.appendingPathComponent("share/bash-completion/completions/trend").path)'
        complete -p trend
        COMP_WORDS=(trend -c hab); COMP_CWORD=2; _trend; echo "[${COMPREPLY[*]}]"
        COMP_WORDS=(trend -c '"habit done Re'); COMP_CWORD=2; _trend; echo "[${COMPREPLY[*]}]"
        COMP_WORDS=(trend --no); COMP_CWORD=1; _trend; echo "[${COMPREPLY[*]}]"
        """
        let bash = try run("/bin/bash", ["-c", probe], environment: ["PATH": prefix.appendingPathComponent("bin").path + ":/usr/bin:/bin",
                                                                     "TREND_DATA_DIR": data])
        let lines = bash.output.split(separator: "\n").map(String.init)
        #expect(lines.first == "complete -o default -F _trend trend", "\(bash.output)")
        #expect(lines.dropFirst().first == "[habit habits]")
        #expect(lines.dropFirst(2).first == "[\"habit done Reading]", "a quoted -c line completes its last word, habit names too")
        #expect(lines.dropFirst(3).first == "[--no-color]")

        // A real zsh registers the function after compinit; a real fish completes with its script.
        let environment = ["PATH": prefix.appendingPathComponent("bin").path + ":/usr/bin:/bin", "TREND_DATA_DIR": data,
                           "HOME": temp.url.path, "XDG_CONFIG_HOME": temp.url.appendingPathComponent("config").path,
                           "XDG_DATA_HOME": temp.url.appendingPathComponent("share").path]
        let zshScript = prefix.appendingPathComponent("share/zsh/site-functions/_trend").path
        let zsh = try run("/usr/bin/zsh", ["-f", "-c", "autoload -U compinit; compinit -u -D; source '\(zshScript)'; print -r -- $_comps[trend]"],
                          environment: environment)
        #expect(zsh.output.trimmingCharacters(in: .whitespacesAndNewlines) == "_trend", "zsh: \(zsh.output)")
        let fishScript = prefix.appendingPathComponent("share/fish/vendor_completions.d/trend.fish").path
        let fish = try run("/usr/bin/fish", ["--no-config", "-c", "source '\(fishScript)'; complete -C 'trend -c \"habit done Re'; complete -C 'trend --no'"],
                           environment: environment)
        let candidates = fish.output.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
        #expect(candidates.contains { $0.contains("habit done Reading") }, "fish: \(fish.output)")
        #expect(candidates.contains("--no-color"), "fish: \(fish.output)")
    }
}
