import AppCore

/// The words of the reminders.
extension RemindViewModel {
    static var commands: [CommandSpec] {
        [
            CommandSpec(name: "remind", syntax: .optional(.choice([.word("install"), .word("uninstall")])),
                        summary: "send the reminders that have come due to the desktop, with Done and Skip; 'install' "
                            + "starts the watcher ('trend remind --watch': each reminder at its time, Done and Skip mark "
                            + "the habit) with each login, 'uninstall' stops that",
                        examples: ["remind", "remind install", "remind uninstall"]) { context, arguments in
                let model = RemindViewModel(remindersFeature: context.app.remindersFeature)
                if arguments.has("install") { return try await model.install(context: context) }
                if arguments.has("uninstall") { return try model.uninstall() }
                return try await model.send(terminal: context.showsOnTerminal)
            },
        ]
    }
}
