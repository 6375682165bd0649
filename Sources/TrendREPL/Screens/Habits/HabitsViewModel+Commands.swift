import CommandLanguage
import Foundation
import Habits
import Vocabulary

/// The words of the habits screen: what each command takes, its help and how it completes.
extension HabitsViewModel {
    static var commands: [CommandSpec] {
        // A habit's name needs no quotes: all the words that are left (`habit show Café sans sucre`), or the longest
        // run of words that names a habit where more may follow (`habit done Walk 10k steps yesterday`).
        let name = CommandSyntax.value(.habit, .vocabulary("habits"), .habit(runsToEnd: true))
        let named = CommandSyntax.value(.habit, .vocabulary("habits"), .habit(runsToEnd: false))
        let when = CommandSyntax.optional(.value(.when, .words(["today", "yesterday"]), .when))
        let note = CommandSyntax.optional(.sequence([.word("note"), .value(.text, .words([]), .phrase)]))
        return [
            CommandSpec(name: "habits", syntax: .optional(.word("all")), readsWhenTyped: ["all": .habits], summary: "today's habits: due, done, streaks, strength; 'all' adds the archived ones",
                        examples: ["habits", "habits all"]) { context, arguments in
                try await HabitsViewModel(habitsFeature: context.app.habitsFeature).list(includeArchived: arguments.has("all"), style: context.style)
            },
            CommandSpec(name: "habit", syntax: .subcommands(HabitSubcommand.self, aliases: [
                            "new": .add, "do": .done, "check": .done, "uncheck": .undo, "clear": .undo, "view": .show,
                            "remove": .delete, "rm": .delete, "undelete": .restore,
                        ]) { subcommand in
                            switch subcommand {
                            case .add: .sequence([.value(.namedPlan, .words([]), .namedPlan), .optional(.readByPrevious("SCHEDULE", .words([])))])
                            case .done: .sequence([named, when, .optional(.value(.markValue, .words([]), .markValue)), note])
                            case .undo: .sequence([named, when])
                            case .no, .skip: .sequence([named, when, note])
                            case .show, .archive, .unarchive, .delete: name
                            case .edit: .sequence([named, HabitEdit.change])
                            case .rename: .sequence([named, .value(.newName, .words([]), .phrase)])
                            case .restore: .value(.deletedHabit, .words([]), .phrase)
                            case .export: .value(.file, .file, .path)
                            case .remind: .sequence([named, .choice([.sequence([.word("at"), .value(.times, .words([]), .times)]), .word("off")])])
                            }
                        },
                        reads: [.habitNames],
                        summary: "manage one habit: add, done, no, skip, undo, show, edit, rename, archive, unarchive, delete, restore, export, remind",
                        examples: [
                            "habit add Read every day", "habit add Drink water every day target 8", "habit add Walk 10k steps 5 times a week",
                            "habit add Gym 3/week", "habit add Drinks every day at most 2", "habit add Piano mon,wed,fri",
                            "habit done Read", "habit done Read yesterday", "habit done \"Drink water\" 6",
                            "habit done \"Drink water\" 2026-11-20 8", "habit done Drink water +2", "habit done Read note first chapter", "habit no Gym yesterday", "habit skip Gym", "habit undo Read",
                            "habit show Read", "habit edit Gym schedule 4 times a week", "habit edit Water target 10 glasses", "habit rename Read Reading", "habit archive Piano", "habit unarchive Piano",
                            "habit delete Gym", "habit restore Gym", "habit export ~/checkmarks.csv", "habit export ~/loop-export",
                            "habit remind Read at 21:00", "habit remind Drink water at 10:00 15:00", "habit remind Gym at 6pm", "habit remind Read off",
                        ]) { context, arguments in
                try await HabitsViewModel(habitsFeature: context.app.habitsFeature, insightsFeature: context.app.insightsFeature,
                                          weightUnit: context.app.weightEntryFeature.unit)
                    .habit(HabitRequest(arguments), style: context.style)
            },
        ]
    }
}

/// The words after `habit`, in the order `help` names them.
enum HabitSubcommand: String, CaseIterable {
    case add, done, undo, show, no, skip, edit, rename, archive, unarchive, delete, restore, export, remind
}

/// One `habit …` command, as its declaration read it: the habit as the grammar found it, never a name to look up again.
enum HabitRequest {
    case add(name: String, plan: HabitPlan)
    /// `done`, `no`, `skip` (a mark) or `undo` (nil): on a day, with a number (added to the day's with `+`) and a note.
    case mark(Habit, HabitMark?, when: WhenInput, adding: Bool, note: String?)
    case show(Habit)
    case edit(HabitEdit)
    case rename(Habit, to: String)
    case archive(Habit, Bool)
    case delete(Habit)
    case restore(String)
    case export(URL)
    /// `habit remind NAME at TIME…` (none: `off`).
    case remind(Habit, [TimeOfDay])

    init(_ arguments: ParsedArguments) throws {
        let habit = { () throws -> Habit in try arguments.required(.habit) }
        let subcommand = try arguments.required(subcommand: HabitSubcommand.self)
        switch subcommand {
        case .add:
            let (name, plan) = try arguments.required(.namedPlan)
            self = .add(name: name, plan: plan)
        case .done, .no, .skip, .undo:
            let value = arguments[.markValue]
            let mark: HabitMark? = switch subcommand {
            case .skip: .skipped
            case .no: .no
            case .undo: nil
            default: value.map { HabitMark.value($0.number) } ?? .done
            }
            self = .mark(try habit(), mark, when: arguments[.when] ?? .current, adding: value?.adding ?? false, note: arguments[.text])
        case .show: self = .show(try habit())
        case .edit: self = .edit(HabitEdit(habit: try habit(), change: try HabitEdit.Change(arguments)))
        case .rename: self = .rename(try habit(), to: try arguments.required(.newName))
        case .archive: self = .archive(try habit(), true)
        case .unarchive: self = .archive(try habit(), false)
        case .delete: self = .delete(try habit())
        case .restore: self = .restore(try arguments.required(.deletedHabit))
        case .remind: self = .remind(try habit(), arguments[.times] ?? [])
        case .export: self = .export(try arguments.required(.file))
        }
    }
}

/// `habit edit NAME schedule …|target N [UNIT]|at least N|at most N|unit UNIT`: what changes.
struct HabitEdit {
    enum Change {
        case schedule(HabitSchedule)
        case unit(String)
        /// `target N`, `at least N`, `at most N`: the kind as `habit add` reads it; `target` keeps an at-most habit's direction.
        case kind(HabitKind, unit: String, saidTarget: Bool)

        /// The change as the declaration (`HabitEdit.change`) read it.
        init(_ arguments: ParsedArguments) throws {
            if let schedule = arguments[.schedule] {
                self = .schedule(schedule)
            } else if let unit = arguments[.unitName] {
                self = .unit(unit)
            } else {
                let (kind, unit) = try arguments.required(.habitTarget)
                self = .kind(kind, unit: unit, saidTarget: arguments.has("target"))
            }
        }
    }

    /// The habit, as the words named it.
    let habit: Habit
    let change: Change

    /// What follows the habit's name: each marker a declared word, then the value it takes.
    static var change: CommandSyntax {
        let amount = CommandSyntax.value(.habitTarget, .words([]), .habitTarget)
        return .choice([
            .sequence([.word("schedule"), .value(.schedule, .words([]), .schedule)]),
            .sequence([.word("target"), amount]),
            .sequence([.word("at"), .word("least"), amount]),
            .sequence([.word("at"), .word("most"), amount]),
            .sequence([.word("at-least"), amount]),
            .sequence([.word("at-most"), amount]),
            .sequence([.word("unit"), .value(.unitName, .words([]), .phrase)]),
        ])
    }
}

extension ArgumentGrammar {
    /// A new habit's name and plan, as `HabitPlan.named` splits them.
    static let namedPlan = ArgumentGrammar(noun: "a name", forms: "e.g. 'habit add Read every day' or 'habit add Gym 3/week'") { words, _, _ in
        guard !words.isEmpty else { return [] }
        let read = try HabitsViewModel.reading(Array(words), HabitPlan.named)
        return [ArgumentReading(.habitPlan(name: read.name, plan: read.plan), consumed: words.count)]
    }

    /// The times of `habit remind NAME at …`: `21:00`, `9pm`, `10:00 15:00`, `9am and 6pm` (every word left).
    static let times = ArgumentGrammar(noun: "a time of day", forms: "TIME is 21:00, 9pm or 7:30am; several are written one after another") { words, _, _ in
        guard !words.isEmpty else { return [] }
        do {
            return [ArgumentReading(.times(try TimeOfDay.list(Array(words))), consumed: words.count)]
        } catch {
            throw CommandFailure(.usage, "habit remind: \(error)")
        }
    }

    /// The number of a `habit done`: `6`, or `+2` to add to the day's.
    static let markValue = ArgumentGrammar(noun: "a number", forms: "VALUE is a number, or +VALUE to add to the day's") { words, _, _ in
        guard let text = words.first else { return [] }
        let adding = text.hasPrefix("+")
        guard let number = HabitsViewModel.number(adding ? String(text.dropFirst()) : text) else { return [] }
        return [ArgumentReading(.markValue(number: number, adding: adding), consumed: 1)]
    }

    /// `habit edit NAME schedule …`: the schedule, every word left, as `habit add` reads one.
    static let schedule = ArgumentGrammar(noun: "a schedule", forms: "e.g. 'every day', '3 times a week' or 'mon,wed,fri'") { words, _, _ in
        guard !words.isEmpty else { return [] }
        let plan = try HabitsViewModel.reading(Array(words), command: "habit edit", HabitPlan.parse)
        return [ArgumentReading(.schedule(plan.schedule), consumed: words.count)]
    }

    /// `habit edit NAME target|at least|at most N [UNIT]`: the number and what it counts, as `habit add` reads them after
    /// the marker the declaration read (`target` reads as at least; the Feature keeps an at-most habit's direction).
    static let habitTarget = ArgumentGrammar(noun: "a number", forms: "e.g. 'target 8', 'at least 8 glasses' or 'at most 2'") { words, read, _ in
        guard !words.isEmpty else { return [] }
        // The marker as typed, so a refusal names it (`'at most' needs a number after it`).
        let marker = ["target", "at-least", "at-most"].first(where: read.has).map { [$0] } ?? ["at", read.has("most") ? "most" : "least"]
        let plan = try HabitsViewModel.reading(marker + words, command: "habit edit", HabitPlan.parse)
        return [ArgumentReading(.habitTarget(plan.kind, unit: plan.unit), consumed: words.count)]
    }
}

/// What the habit commands read, by key: the habit named, a new habit's name with its plan, an edit, a day's number,
/// reminder times, a new name, and a deleted habit's.
extension ArgumentKey where Value == Habit { static var habit: Self { .init("NAME") } }
extension ArgumentKey where Value == (name: String, plan: HabitPlan) { static var namedPlan: Self { .init("NAME") } }
extension ArgumentKey where Value == HabitSchedule { static var schedule: Self { .init("SCHEDULE") } }
extension ArgumentKey where Value == (kind: HabitKind, unit: String) { static var habitTarget: Self { .init("N") } }
extension ArgumentKey where Value == (number: Double, adding: Bool) { static var markValue: Self { .init("VALUE") } }
extension ArgumentKey where Value == [TimeOfDay] { static var times: Self { .init("TIME") } }
extension ArgumentKey where Value == String {
    static var newName: Self { .init("NEW") }
    static var deletedHabit: Self { .init("NAME") }
    static var unitName: Self { .init("UNIT") }
}
