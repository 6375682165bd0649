
/// The words of the tip screen: what each command takes, its help and how it completes.
extension TipViewModel {
    static var commands: [CommandSpec] {
        [
            CommandSpec(name: "tip", aliases: ["tips"], syntax: .optional(.word("next")), summary: "today's tip, or another one",
                        examples: ["tip", "tip next"]) { context, arguments in
                try await TipViewModel(dailyTipsFeature: context.app.dailyTipsFeature).show(next: arguments.has("next"), style: context.style)
            },
        ]
    }
}
