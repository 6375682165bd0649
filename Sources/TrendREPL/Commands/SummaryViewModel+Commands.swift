import AppCore

/// The words of the summary screen.
extension SummaryViewModel {
    static var commands: [CommandSpec] {
        [
            CommandSpec(name: "summary", usage: "summary [week|month|year|RANGE]",
                        summary: "a period's weigh-ins, trend, lowest and highest day and habits, against the one before",
                        examples: ["summary", "summary month", "summary 2026-02", "summary 30d"],
                        completion: .positional([.words(["week", "month", "year", "30d", "90d"])])) { context, arguments in
                try await SummaryViewModel(weightEntryFeature: context.app.weightEntryFeature,
                                           habitsFeature: context.app.habitsFeature).show(arguments, style: context.style)
            },
        ]
    }
}
