import AppCore
import Foundation
import Habits
import Settings

/// The words of the habits screen: what each command takes, its help and how it completes.
extension HabitsViewModel {
    static var commands: [CommandSpec] {
        let name = CommandSyntax.value("NAME", .vocabulary("habits"))
        let nameWhen = CommandSyntax.sequence([name, .optional(.value("WHEN", .words(["today", "yesterday"])))])
        return [
            CommandSpec(name: "habits", syntax: .optional(.word("all")), summary: "today's habits: due, done, streaks, strength; 'all' adds the archived ones",
                        examples: ["habits", "habits all"]) { context, arguments in
                guard arguments.isEmpty || arguments == ["all"] else {
                    throw CommandFailure(.usage, "habits: takes no arguments (or 'all' to include archived ones); for one habit use 'habit show NAME'")
                }
                return try await HabitsViewModel(habitsFeature: context.app.habitsFeature).list(includeArchived: !arguments.isEmpty, style: context.style)
            },
            CommandSpec(name: "habit", syntax: .subcommands([
                            ("add", .sequence([.value("NAME"), .optional(.value("SCHEDULE"))])), ("done", nameWhen), ("undo", nameWhen),
                            ("show", name), ("no", nameWhen), ("skip", nameWhen), ("edit", name), ("rename", name), ("archive", name),
                            ("unarchive", name), ("delete", name), ("restore", .value("NAME")), ("export", .value("FILE", .file)),
                        ]),
                        summary: "manage one habit: add, done, no, skip, undo, show, edit, rename, archive, unarchive, delete, restore, export",
                        examples: [
                            "habit add Read every day", "habit add \"Drink water\" every day target 8",
                            "habit add Gym 3/week", "habit add Drinks every day at-most 2", "habit add Piano mon,wed,fri",
                            "habit done Read", "habit done Read yesterday", "habit done \"Drink water\" 6",
                            "habit done \"Drink water\" 2026-11-20 8", "habit done Drink water +2", "habit done Read note first chapter", "habit no Gym yesterday", "habit skip Gym", "habit undo Read",
                            "habit show Read", "habit edit Gym schedule 4 times a week", "habit edit Water target 10 glasses", "habit rename Read Reading", "habit archive Piano", "habit unarchive Piano",
                            "habit delete Gym", "habit restore Gym", "habit export ~/checkmarks.csv", "habit export ~/loop-export",
                        ]) { context, arguments in
                try await HabitsViewModel(habitsFeature: context.app.habitsFeature, insightsFeature: context.app.insightsFeature,
                                          weightUnit: context.app.weightEntryFeature.unit)
                    .habit(arguments, style: context.style)
            },
        ]
    }
}
