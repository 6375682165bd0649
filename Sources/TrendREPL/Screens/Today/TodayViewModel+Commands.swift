import AppCore

/// The words of the today screen: what each command takes, its help and how it completes.
extension TodayViewModel {
    static var commands: [CommandSpec] {
        [
            CommandSpec(name: "today", aliases: ["t", "checkin"],
                        summary: "today's check-in: latest weight, trend, verdict, streak",
                        examples: ["today"]) { context, arguments in
                let viewModel = TodayViewModel(checkInFeature: context.app.checkInFeature, weightEntryFeature: context.app.weightEntryFeature,
                                               measurementsFeature: context.app.measurementsFeature)
                return try await viewModel.show(style: context.style)
            },
        ]
    }
}
