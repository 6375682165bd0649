import AppCore
import Foundation
import Notifications

/// The words of the reminders.
extension RemindViewModel {
    static var commands: [CommandSpec] {
        [
            CommandSpec(name: "remind", syntax: .optional(.choice([.word("install"), .word("uninstall")])),
                        summary: "send the habits' reminders that have come due to the desktop (printed without one); "
                            + "'install' runs it every minute (a systemd user timer, or cron), 'uninstall' stops that",
                        examples: ["remind", "remind install", "remind uninstall"]) { context, arguments in
                let model = RemindViewModel(remindersFeature: context.app.remindersFeature)
                guard arguments.has("install") || arguments.has("uninstall") else { return try await model.send() }
                let environment = ProcessInfo.processInfo.environment
                let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
                let timer = ReminderTimer(command: [executable, "--data-dir", context.app.settingsFeature.dataDirectory.path, "remind"],
                                          environment: environment)
                return arguments.has("install") ? try await model.install(timer, context: context) : try model.uninstall(timer)
            },
        ]
    }
}
