import AppCore
import Progress
import Settings
import WeightLog

/// The words of the progress screen: what each command takes, its help and how it completes.
extension ProgressViewModel {
    static var commands: [CommandSpec] {
        [
            CommandSpec(name: "progress", aliases: ["p", "chart"],
                        syntax: .sequence([.optional(.range), .optional(.value("MEASURE", .words(ProgressViewModel.Measure.words))),
                                           .optional(.sequence([.word("with"), .value("HABIT", .vocabulary("habits"))]))]),
                        summary: "the chart and numbers (RANGE: 2w 3m 1y all, 2026-02, 2025, START..END; kept); 'with HABIT' marks its days; "
                            + "MEASURE (fat, lean, fat-mass, waist, hips …) draws that instead of the weight",
                        examples: ["progress", "progress 6m", "progress all", "progress 3m with Gym", "progress 6m waist", "progress all fat"]) { context, arguments in
                try await ProgressViewModel(progressFeature: context.app.progressFeature, habitsFeature: context.app.habitsFeature,
                                            weightEntryFeature: context.app.weightEntryFeature, measurementsFeature: context.app.measurementsFeature)
                    .show(arguments, style: context.style)
            },
            CommandSpec(name: "goal", syntax: .optional(.choice([.value("WEIGHT"), .word("clear")])), summary: "show, set or clear the goal weight",
                        examples: ["goal", "goal 75", "goal 165 lb", "goal clear"]) { context, arguments in
                try await ProgressViewModel(progressFeature: context.app.progressFeature).goal(arguments)
            },
        ]
    }
}
