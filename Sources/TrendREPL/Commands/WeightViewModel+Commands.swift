import AppCore
import Foundation
import Progress
import Settings
import WeightLog

/// The words of the weight screen: what each command takes, its help and how it completes.
extension WeightViewModel {
    static var commands: [CommandSpec] {
        [
            CommandSpec(name: "weigh", aliases: ["w", "add", "weight"], syntax: .sequence([.value("WEIGHT"), .optional(.value("UNIT", .words(["kg", "lb", "st"]))),
                                             .optional(.value("WHEN", .words(["today", "yesterday"]))),
                                             .optional(.sequence([.word("fat"), .value("PERCENT")])),
                                             .optional(.sequence([.word("note"), .value("TEXT")]))]),
                        summary: "record a weigh-in (WHEN: 21:00, yesterday 21:00, monday, last fri, 3 days ago, YYYY-MM-DD [HH:MM])",
                        examples: ["weigh 82.4", "weigh 181.6 lb", "weigh 12st 6lb yesterday", "weigh 82.2 last fri 07:30",
                                   "weigh 82.1 2026-11-20 07:15 note after the run", "weigh 82.4 fat 23.5%"]) { context, arguments in
                let today = TodayViewModel(weightEntryFeature: context.app.weightEntryFeature,
                                           dailyTipsFeature: context.app.dailyTipsFeature, insightsFeature: context.app.insightsFeature,
                                           measurementsFeature: context.app.measurementsFeature)
                return try await WeightViewModel(weightEntryFeature: context.app.weightEntryFeature)
                    .weigh(arguments, today: today, context: context)
            },
            CommandSpec(name: "fat", syntax: .sequence([.value("PERCENT"), .optional(.value("WHEN", .words(["today", "yesterday"])))]),
                        summary: "add body fat to the day's latest weigh-in (today, or WHEN); undo takes it back",
                        examples: ["fat 23.5%", "fat 24 yesterday", "fat 23.8% 2026-11-20"]) { context, arguments in
                try await WeightViewModel(weightEntryFeature: context.app.weightEntryFeature).bodyFat(arguments)
            },
            CommandSpec(name: "entries", aliases: ["list", "log"], syntax: .optional(.range),
                        summary: "list weigh-ins with their ids (RANGE: 2w 3m 1y all, 2026-02, 2025, START..END; default 1m)",
                        examples: ["entries", "entries 2w", "entries 2026-02", "entries 2026-01-01..2026-01-31", "entries all"]) { context, arguments in
                try await WeightViewModel(weightEntryFeature: context.app.weightEntryFeature).list(arguments, context: context)
            },
            CommandSpec(name: "edit", syntax: .sequence([.value("ID"), .optional(.value("WEIGHT")), .optional(.sequence([.word("at"), .value("WHEN")])),
                                                        .optional(.choice([.sequence([.word("note"), .value("TEXT")]), .sequence([.word("no"), .word("note")])]))]),
                        summary: "change a weigh-in's weight, time or note, or a measurement's length, time or note (ID: its first characters, or 'last')",
                        examples: ["edit 1a2b 82.05", "edit 1a2b3c4d 181 lb", "edit 1a2b at yesterday 07:30",
                                   "edit 1a2b note after the \"long\" run", "edit 1a2b no note", "edit last 81.6"]) { context, arguments in
                if let id = arguments.first, try await context.app.measurementsFeature.hasMeasurement(matching: id) {
                    return try await MeasurementsViewModel(measurementsFeature: context.app.measurementsFeature)
                        .edit(id: id, Array(arguments.dropFirst()), line: context.line)
                }
                return try await WeightViewModel(weightEntryFeature: context.app.weightEntryFeature).edit(arguments, line: context.line)
            },
            CommandSpec(name: "find", syntax: .value("TEXT"), summary: "list the weigh-ins and measurements whose note holds TEXT",
                        examples: ["find after the run", "find gym"]) { context, arguments in
                try await WeightViewModel(weightEntryFeature: context.app.weightEntryFeature)
                    .find(arguments, line: context.line, style: context.style,
                          measurements: MeasurementsViewModel(measurementsFeature: context.app.measurementsFeature))
            },
            CommandSpec(name: "delete", aliases: ["rm", "remove"], syntax: .value("ID"),
                        summary: "delete a weigh-in or a measurement (ID: its first characters, or 'last' weigh-in); undo brings it back",
                        examples: ["delete 1a2b", "delete last"]) { context, arguments in
                // A measurement's id, from `measurements`, names it; every other id is a weigh-in's.
                if arguments.count == 1, try await context.app.measurementsFeature.hasMeasurement(matching: arguments[0]) {
                    return try await MeasurementsViewModel(measurementsFeature: context.app.measurementsFeature).delete(id: arguments[0])
                }
                return try await WeightViewModel(weightEntryFeature: context.app.weightEntryFeature).delete(arguments)
            },
            CommandSpec(name: "streak", summary: "the weigh-in streak and this week, Monday to Sunday", examples: ["streak"]) { context, arguments in
                return try await WeightViewModel(weightEntryFeature: context.app.weightEntryFeature).streak(style: context.style)
            },
        ]
    }
}
