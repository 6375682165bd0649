
/// The words of the insights screen: what it takes, its help and how it completes.
extension InsightsViewModel {
    static var commands: [CommandSpec] {
        [
            CommandSpec(name: "insights", aliases: ["insight"], syntax: .sequence([.optional(.range), .optional(.word("all"))]),
                        reads: [.weighIns],
                        summary: "what your habits go with in your weight, and your own patterns, said only when the statistics hold; 'all' shows every one tested",
                        examples: ["insights", "insights 1y", "insights last year", "insights all"]) { context, arguments in
                try await InsightsViewModel(insightsFeature: context.app.insightsFeature, weightEntryFeature: context.app.weightEntryFeature)
                    .show(range: arguments[.range], everything: arguments.has("all"), style: context.style)
            },
        ]
    }
}
