import AppCore
import Progress
import Settings
import WeightLog

/// The words of the progress screen: what each command takes, its help and how it completes.
extension ProgressViewModel {
    static var commands: [CommandSpec] {
        [
            CommandSpec(name: "progress", aliases: ["p", "chart"], usage: "progress [RANGE]",
                        summary: "the chart and numbers (RANGE: 2w 3m 1y all, 2026-02, 2025, START..END; kept)",
                        examples: ["progress", "progress 6m", "progress all"],
                        completion: .positional([.words(ProgressRange.allCases.map(\.rawValue))])) { context, arguments in
                try await ProgressViewModel(progressFeature: context.app.progressFeature).show(arguments, style: context.style)
            },
            CommandSpec(name: "goal", usage: "goal [WEIGHT|clear]", summary: "show, set or clear the goal weight",
                        examples: ["goal", "goal 75", "goal 165 lb", "goal clear"],
                        completion: .positional([.words(["clear"])])) { context, arguments in
                try await ProgressViewModel(progressFeature: context.app.progressFeature).goal(arguments)
            },
        ]
    }
}
