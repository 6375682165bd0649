import AppCore

/// The words of the status line.
extension StatusViewModel {
    static var commands: [CommandSpec] {
        [
            CommandSpec(name: "status",
                        reads: [.weighIns],
                        summary: "one line for a shell prompt: trend, streak, habits due",
                        examples: ["status"]) { context, arguments in
                return try await StatusViewModel(weightEntryFeature: context.app.weightEntryFeature,
                                                 habitsFeature: context.app.habitsFeature).show()
            },
        ]
    }
}
