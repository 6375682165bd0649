import AppCore

/// The words of the history screen: what each command takes, its help and how it completes.
extension HistoryViewModel {
    static var commands: [CommandSpec] {
        [
            CommandSpec(name: "undo", usage: "undo",
                        summary: "take back the latest change, made in any session") { context, arguments in
                guard arguments.isEmpty else { throw CommandFailure(.usage, "undo: takes no arguments") }
                return try await HistoryViewModel(changeHistoryFeature: context.app.changeHistoryFeature).undo()
            },
            CommandSpec(name: "redo", usage: "redo", summary: "apply again the change undone last") { context, arguments in
                guard arguments.isEmpty else { throw CommandFailure(.usage, "redo: takes no arguments") }
                return try await HistoryViewModel(changeHistoryFeature: context.app.changeHistoryFeature).redo()
            },
            CommandSpec(name: "history", usage: "history [N]", summary: "the last N changes (default 10), newest first",
                        examples: ["history", "history 50"]) { context, arguments in
                try await HistoryViewModel(changeHistoryFeature: context.app.changeHistoryFeature).history(arguments, style: context.style)
            },
        ]
    }
}
