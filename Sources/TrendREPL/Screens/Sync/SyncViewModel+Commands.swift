import AppCore

/// The words of the sync screen.
extension SyncViewModel {
    static var commands: [CommandSpec] {
        [
            CommandSpec(name: "sync", syntax: .optional(.word("now")),
                        summary: "the devices sharing the sync folder, what came in, any problem; 'sync now' syncs at once",
                        examples: ["sync", "sync now"]) { context, arguments in
                let model = SyncViewModel(syncFeature: context.app.syncFeature, timeZone: context.app.changeHistoryFeature.calendar.timeZone)
                return arguments.has("now") ? try await model.syncNow(style: context.style) : try await model.show(style: context.style)
            },
        ]
    }
}
