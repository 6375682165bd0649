import AppCore

/// The words of the reminders.
extension RemindViewModel {
    static var commands: [CommandSpec] {
        [
            CommandSpec(name: "remind", syntax: .optional(.choice([.word("install"), .word("uninstall")])),
                        summary: "send the habits' reminders that have come due to the desktop, each with Done and Skip "
                            + "(printed on a terminal without one); 'install' starts the watcher, 'trend remind --watch', with "
                            + "each graphical login (a systemd user service, or an autostart entry): it sends each reminder "
                            + "at its time, marks the habit when Done or Skip is pressed, and takes the notification away once "
                            + "the habit is done in any way; 'uninstall' takes it away",
                        examples: ["remind", "remind install", "remind uninstall"]) { context, arguments in
                let model = RemindViewModel(remindersFeature: context.app.remindersFeature)
                if arguments.has("install") { return try await model.install(context: context) }
                if arguments.has("uninstall") { return try model.uninstall() }
                return try await model.send(terminal: context.showsOnTerminal)
            },
        ]
    }
}
