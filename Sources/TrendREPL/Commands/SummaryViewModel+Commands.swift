import AppCore

/// The words of the summary screen.
extension SummaryViewModel {
    static var commands: [CommandSpec] {
        [
            CommandSpec(name: "summary", syntax: .optional(.choice([.word("week"), .word("month"), .word("year"), .value("RANGE", .words(["30d", "90d"]))])),
                        summary: "a period's weigh-ins, trend, lowest and highest day, body fat, lean mass and tape measures, and habits, against the one before",
                        examples: ["summary", "summary month", "summary 2026-02", "summary 30d"]) { context, arguments in
                try await SummaryViewModel(weightEntryFeature: context.app.weightEntryFeature, habitsFeature: context.app.habitsFeature,
                                           measurementsFeature: context.app.measurementsFeature).show(arguments, style: context.style)
            },
        ]
    }
}
