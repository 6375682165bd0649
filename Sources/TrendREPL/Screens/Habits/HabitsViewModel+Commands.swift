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
            CommandSpec(name: "habits", syntax: .optional(.word("all")), readsFor: { $0.contains { $0.lowercased() == "all" } ? [.habits] : [] }, summary: "today's habits: due, done, streaks, strength; 'all' adds the archived ones",
                        examples: ["habits", "habits all"]) { context, arguments in
                try await HabitsViewModel(habitsFeature: context.app.habitsFeature).list(includeArchived: arguments.has("all"), style: context.style)
            },
            CommandSpec(name: "habit", syntax: .subcommands([
                            ("add", .sequence([.value(.namedPlan, .words([]), .namedPlan), .optional(.readByPrevious("SCHEDULE", .words([])))])),
                            ("done", .sequence([named, when, .optional(.value(.markValue, .words([]), .markValue)), note])),
                            ("undo", .sequence([named, when])),
                            ("show", name), ("no", .sequence([named, when, note])), ("skip", .sequence([named, when, note])),
                            ("edit", .sequence([.value(.habitEdit, .vocabulary("habits"), .habitEdit),
                                                .readByPrevious("schedule|target|at-least|at-most|unit", .words(["schedule", "target", "at-least", "at-most", "unit"]))])),
                            ("rename", .sequence([named, .value(.newName, .words([]), .phrase)])), ("archive", name),
                            ("unarchive", name), ("delete", name), ("restore", .value(.deletedHabit, .words([]), .phrase)),
                            ("export", .value(.file, .file, .path)),
                            ("remind", .sequence([named, .choice([.sequence([.word("at"), .value(.times, .words([]), .times)]), .word("off")])])),
                        ], aliases: ["new": "add", "do": "done", "check": "done", "uncheck": "undo", "clear": "undo", "view": "show",
                                     "remove": "delete", "rm": "delete", "undelete": "restore"]),
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

/// One `habit …` command, as its declaration read it.
enum HabitRequest {
    case add(name: String, plan: HabitPlan)
    /// `done`, `no`, `skip` (a mark) or `undo` (nil): on a day, with a number (added to the day's with `+`) and a note.
    case mark(Habit, HabitMark?, when: WhenInput, adding: Bool, note: String?)
    case show(Habit)
    case edit(HabitEdit)
    case rename(String, to: String)
    case archive(String, Bool)
    case delete(String)
    case restore(String)
    case export(URL)
    /// `habit remind NAME at TIME…` (none: `off`).
    case remind(String, [TimeOfDay])

    init(_ arguments: ParsedArguments) throws {
        let name = { () throws -> String in try arguments.required(.habit).name }
        switch arguments.subcommand {
        case "add":
            let (name, plan) = try arguments.required(.namedPlan)
            self = .add(name: name, plan: plan)
        case let sub? where ["done", "no", "skip", "undo"].contains(sub):
            let value = arguments[.markValue]
            let mark: HabitMark? = switch sub {
            case "skip": .skipped
            case "no": .no
            case "undo": nil
            default: value.map { HabitMark.value($0.number) } ?? .done
            }
            self = .mark(try arguments.required(.habit), mark, when: arguments[.when] ?? .current, adding: value?.adding ?? false,
                         note: arguments[.text])
        case "show": self = .show(try arguments.required(.habit))
        case "edit": self = .edit(try arguments.required(.habitEdit))
        case "rename": self = .rename(try name(), to: try arguments.required(.newName))
        case "archive": self = .archive(try name(), true)
        case "unarchive": self = .archive(try name(), false)
        case "delete": self = .delete(try name())
        case "restore": self = .restore(try arguments.required(.deletedHabit))
        case "remind": self = .remind(try name(), arguments[.times] ?? [])
        default: self = .export(try arguments.required(.file))
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
    }

    /// The habit, as the words named it.
    let habit: Habit
    let change: Change

    static let usage = "habit edit: write habit edit NAME schedule SCHEDULE, habit edit NAME target N [UNIT], "
        + "habit edit NAME at least|at most N [UNIT] or habit edit NAME unit UNIT"
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

    /// `NAME schedule …`, `NAME target 10 glasses`: the name runs to the first word that says what changes.
    static let habitEdit = ArgumentGrammar(noun: "a habit's name and what changes") { words, _, context in
        let markers = ["schedule", "target", "at", "at-least", "at-most", "unit"]
        let words = Array(words)
        guard let split = words.indices.dropFirst().first(where: { markers.contains(words[$0].lowercased()) }) else {
            throw CommandFailure(.usage, HabitEdit.usage)
        }
        let what = words[split].lowercased(), rest = Array(words[(split + 1)...])
        let change: HabitEdit.Change
        switch what {
        case "schedule":
            change = .schedule(try HabitsViewModel.reading(rest, command: "habit edit", HabitPlan.parse).schedule)
        case "unit":
            change = .unit(rest.joined(separator: " "))
        default:
            let plan = try HabitsViewModel.reading([what] + rest, command: "habit edit", HabitPlan.parse)
            guard plan.kind != .yesNo else { throw CommandFailure(.usage, HabitEdit.usage) }
            change = .kind(plan.kind, unit: plan.unit, saidTarget: what == "target")
        }
        let habit = try HabitsFeature.habit(named: words[..<split].joined(separator: " "), in: context.habits)
        return [ArgumentReading(.habitEdit(HabitEdit(habit: habit, change: change)), consumed: words.count)]
    }
}

/// What the habit commands read, by key: the habit named, a new habit's name with its plan, an edit, a day's number,
/// reminder times, a new name, and a deleted habit's.
extension ArgumentKey where Value == Habit { static var habit: Self { .init("NAME") } }
extension ArgumentKey where Value == (name: String, plan: HabitPlan) { static var namedPlan: Self { .init("NAME") } }
extension ArgumentKey where Value == HabitEdit { static var habitEdit: Self { .init("NAME") } }
extension ArgumentKey where Value == (number: Double, adding: Bool) { static var markValue: Self { .init("VALUE") } }
extension ArgumentKey where Value == [TimeOfDay] { static var times: Self { .init("TIME") } }
extension ArgumentKey where Value == String {
    static var newName: Self { .init("NEW") }
    static var deletedHabit: Self { .init("NAME") }
}
