import CommandLanguage

/// The words of the history screen: what each command takes, its help and how it completes.
extension HistoryViewModel {
    static var commands: [CommandSpec] {
        [
            CommandSpec(name: "undo",
                        summary: "take back the latest change, made in any session",
                        examples: ["undo"]) { context, arguments in
                return try await HistoryViewModel(changeHistoryFeature: context.app.changeHistoryFeature).undo()
            },
            CommandSpec(name: "redo", summary: "apply again the change undone last", examples: ["redo"]) { context, arguments in
                return try await HistoryViewModel(changeHistoryFeature: context.app.changeHistoryFeature).redo()
            },
            CommandSpec(name: "history", syntax: .optional(.value(.count, .words([]), .count(upTo: HistoryViewModel.maximumCount))), summary: "the last N changes (default 10), newest first",
                        examples: ["history", "history 50"]) { context, arguments in
                try await HistoryViewModel(changeHistoryFeature: context.app.changeHistoryFeature).history(count: arguments[.count] ?? HistoryViewModel.defaultCount, style: context.style)
            },
        ]
    }
}

/// How many changes `history N` lists, by key.
extension ArgumentKey where Value == Int { static var count: Self { .init("N") } }
