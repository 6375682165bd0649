import CommandLanguage
import AppCore
import Foundation
import Habits
import Insights
import Vocabulary

/// The habit screens: `habits` (today's list) and `habit …`.
@MainActor
struct HabitsViewModel {
    let habitsFeature: HabitsFeature
    /// For `habit show`: what the habit goes with in the weight (nil: not shown).
    let insightsFeature: InsightsFeature?
    /// The unit those effects are said in.
    let weightUnit: WeightUnit

    init(habitsFeature: HabitsFeature = AppModel.shared.habitsFeature, insightsFeature: InsightsFeature? = nil, weightUnit: WeightUnit = .kilograms) {
        self.habitsFeature = habitsFeature
        self.insightsFeature = insightsFeature
        self.weightUnit = weightUnit
    }

    func habit(_ request: HabitRequest, style: TerminalStyle) async throws -> CommandOutput {
        switch request {
        case let .add(name, plan):
            let habit = try await habitsFeature.add(name: name, schedule: plan.schedule, kind: plan.kind, unit: plan.unit)
            let kindText = habit.kind == .yesNo ? "" : ", \(habit.kind.text(unit: habit.unit))"
            return confirmation("Added '\(habit.name)' (\(habit.schedule.text)\(kindText)).", habit: habit)
        case let .mark(habit, mark, when, adding, note):
            return try await self.mark(habit, mark, when: when, adding: adding, note: note)
        case let .show(name):
            return try await show(name, style: style)
        case let .edit(edit):
            return try await self.edit(edit)
        case let .rename(old, new):
            let habit = try await habitsFeature.rename(old, to: new)
            return confirmation("Renamed '\(old.name)' to '\(habit.name)'.", habit: habit)
        case let .archive(name, archived):
            let habit = try await habitsFeature.setArchived(name, archived)
            let text = archived ? "Archived '\(habit.name)': hidden from the list, history kept. 'habit unarchive \(habit.name)' shows it again."
                : "'\(habit.name)' is back in the list."
            return confirmation(text, habit: habit)
        case let .delete(name):
            let habit = try await habitsFeature.delete(name)
            return confirmation("Deleted '\(habit.name)' and its history. 'habit restore \(CommandTokenizer.quoted(habit.name))' brings it back until you quit.", habit: habit)
        case let .restore(name):
            let habit = try await habitsFeature.restoreDeleted(name)
            return confirmation("Restored '\(habit.name)' with its history.", habit: habit)
        case let .remind(name, times):
            let habit = try await habitsFeature.setReminders(name, at: times)
            let text = habit.reminders.isEmpty ? "'\(habit.name)' reminds you of nothing now."
                : "'\(habit.name)' reminds you at \(habit.reminders.map(\.description).joined(separator: ", ")) on the days it is due and not yet done. "
                    + "'trend remind' sends them to the desktop ('remind install' runs it every minute)."
            return confirmation(text, habit: habit)
        case let .export(url):
            // A .csv name is Loop's combined Checkmarks.csv; anything else is a folder with every file Loop's export holds.
            let single = url.pathExtension.lowercased() == "csv"
            let count: Int
            do {
                count = single ? try await habitsFeature.exportCSV(to: url) : try await habitsFeature.exportLoopFolder(to: url)
            } catch let error as CocoaError where !single && error.code == .fileWriteFileExists {
                // Creating the folder found something else under its name (a file, /dev/null).
                throw CommandFailure(.file, "habit export: cannot write \(url.path): it is there and is not a folder; "
                                     + "name a new folder for Loop's export, or FILE.csv for one file")
            } catch let error as CocoaError {
                throw CommandFailure(.file, "habit export: cannot write \(url.path): \(error.localizedDescription)")
            }
            let what = single ? "Loop's Checkmarks.csv layout, newest day first" : "Loop's export: Habits.csv, Checkmarks.csv, Scores.csv and a folder per habit"
            return CommandOutput(Exported(file: url.path, habits: count, what: what), style: .plain)
        }
    }

    /// What a plan's grammar (`HabitPlan`) read, its refusal said for the command `command`.
    nonisolated static func reading<Value>(_ words: [String], command: String = "habit add",
                                           _ read: ([String]) throws(HabitPlan.Problem) -> Value) throws -> Value {
        do {
            return try read(words)
        } catch let .needsNumber(marker) {
            throw CommandFailure(.usage, "\(command): '\(marker)' needs a number after it, e.g. \(marker) 8")
        } catch let .unreadableSchedule(word) {
            throw CommandFailure(.usage, "\(command): could not read '\(TerminalText.printable(word))' as a schedule; "
                + "write \(HabitSchedule.acceptedForms); for a number: target 8, at least 8 glasses, at most 2, 8 glasses")
        }
    }

    /// `habit edit NAME schedule 3 times a week`, `… target 10`, `… at most 1`, `… unit glasses`.
    func edit(_ edit: HabitEdit) async throws -> CommandOutput {
        let current = edit.habit
        let habit: Habit
        switch edit.change {
        case let .schedule(schedule):
            habit = try await habitsFeature.edit(current, schedule: schedule)
        case let .unit(unit):
            habit = try await habitsFeature.edit(current, unit: unit)
        case let .kind(kind, unit, saidTarget):
            habit = try await habitsFeature.edit(current, kind: kind, unit: unit.isEmpty ? nil : unit, keepingDirection: saidTarget)
        }
        let kindText = habit.kind == .yesNo ? "" : ", \(habit.kind.text(unit: habit.unit))"
        return confirmation("Changed '\(habit.name)' (\(habit.schedule.text)\(kindText)); its days are kept and its numbers recomputed.",
                            habit: habit)
    }

    func mark(_ habit: Habit, _ mark: HabitMark?, when: WhenInput, adding: Bool, note: String?) async throws -> CommandOutput {
        let (habit, day, changed) = try await habitsFeature.markUnlessSame(habit, when: when, as: mark, adding: adding, note: note)
        let summary = habitsFeature.summary(ofHabitWithID: habit.id)
        let added: Double? = if adding, case let .value(number)? = mark { number } else { nil }
        return CommandOutput(Marked(habit: summary.map(Self.json), date: DayNumber.string(day), unchanged: !changed, marked: habit, day: day,
                                    isToday: day == habitsFeature.today, added: added, summary: summary), style: .plain)
    }

    func list(includeArchived: Bool, style: TerminalStyle) async throws -> CommandOutput {
        // A cold list reads each habit from its checkpoint on, not every day of it.
        let summaries = includeArchived ? try habitsFeature.summariesIncludingArchived() : try await habitsFeature.summariesReadingLittle()
        return CommandOutput(Listed(date: DayNumber.string(habitsFeature.today), habits: summaries.map(Self.json),
                                    summaries: summaries, today: habitsFeature.today), style: style)
    }

    nonisolated static func isAtMost(_ habit: Habit) -> Bool { if case .atMost = habit.kind { true } else { false } }

    /// How wide each part of a habit's row is drawn.
    struct RowLayout {
        let name: Int, plan: Int, bar: Int
        let best: Bool, label: Bool
        /// The narrowest rows (40–50 columns): the streak as `12d`, no bar, no "5 today".
        var compact = false
        /// How wide ` (best N)` is drawn: the widest of the rows, so the strength column stays in line.
        var bestWidth = 0
    }

    /// One habit's row of `habits`: today's mark, name, plan, streak, strength and what today holds.
    nonisolated static func row(_ summary: HabitSummary, layout: RowLayout, style: TerminalStyle) -> String {
        let habit = summary.habit
        let symbol: String = switch summary.todayStatus {
        case .skipped: style.paint("–", .cyan)
        case .done, .auto: style.paint("✓", .green)
        case .withinLimit: style.paint("✓", .green)
        case .overLimit: style.paint("▲", .red)
        case .partly: style.paint("◐", .magenta)
        // An at-most habit asks nothing of the day: nothing logged is within its limit.
        case .unknown where HabitsViewModel.isAtMost(habit): style.paint("✓", .green)
        // Answered no: asked and answered, so no longer due (Loop's explicit NO).
        case .no where summary.todayMark == .no: style.paint("✗", .red)
        case .no, .unknown: summary.dueToday ? style.paint("○", .magenta) : style.dim("·")
        }
        var today = ""
        if case let .value(value)? = summary.todayMark { today = "\(PlainDecimal.text(value)) today" }
        else if summary.todayMark == .skipped { today = "skipped" }
        else if summary.todayMark == .no { today = "answered no" }
        else if !summary.dueToday && !summary.doneToday { today = "not due" }
        let name = TerminalText.cut(habit.name, to: layout.name).rightPadded(to: layout.name)
        // Too long for its column, the plan is said short so the target stays in sight (`daily ≥ 8`).
        let full = Self.plan(of: habit)
        let plan = TerminalText.cut(TerminalText.columns(full) <= layout.plan ? full : Self.shortPlan(of: habit), to: layout.plan)
            .rightPadded(to: layout.plan)
        let strength = Int((summary.strength * 100).rounded())
        if layout.compact {
            // Every figure kept, in the fewest columns: a row never wraps at 40.
            return "  \(symbol) \(name) \(plan) " + "\(summary.currentStreak)d".leftPadded(to: 4) + " " + "\(strength)%".leftPadded(to: 4)
                + (habit.archived ? " " + style.dim("archived") : "")
        }
        var line = "  \(symbol) \(name)  \(plan) streak \(String(summary.currentStreak).leftPadded(to: 3))"
        if layout.best { line += " (best \(summary.bestStreak))".rightPadded(to: layout.bestWidth) }
        line += (layout.label ? "  strength " : "  ") + "\(String(strength).leftPadded(to: 3))% " + Self.bar(summary.strength, width: layout.bar, style: style)
        if !today.isEmpty { line += "  " + style.dim(today) }
        if habit.archived { line += "  " + style.dim("archived") }
        return line
    }

    private func confirmation(_ text: String, habit: Habit) -> CommandOutput {
        let summary = habitsFeature.summary(ofHabitWithID: habit.id)
        // The habit with today's numbers, or only its plan when it is no longer listed.
        return CommandOutput(Said(key: "habit", value: summary.map(Self.json) ?? Self.json(plain: habit), sentence: text), style: .plain)
    }

    /// `5/week, at least 10 glasses`: the schedule, and the kind of a numeric habit.
    nonisolated static func plan(of habit: Habit) -> String {
        habit.kind == .yesNo ? habit.schedule.text
            : habit.schedule.text + ", " + habit.kind.text(unit: habit.unit)
    }

    /// The plan in few columns: `daily ≥ 8`, `3/week`, `mon,wed,fri ≤ 2`.
    nonisolated static func shortPlan(of habit: Habit) -> String {
        let schedule = habit.schedule == .daily ? "daily" : habit.schedule.text
        switch habit.kind {
        case .yesNo: return schedule
        case let .atLeast(target): return schedule + " ≥ " + PlainDecimal.text(target)
        case let .atMost(target): return schedule + " ≤ " + PlainDecimal.text(target)
        }
    }

    nonisolated static func bar(_ value: Double, width: Int = 10, style: TerminalStyle) -> String {
        let filled = min(width, max(0, Int((value * Double(width)).rounded())))
        return style.paint(String(repeating: "█", count: filled), .green) + style.dim(String(repeating: "░", count: width - filled))
    }

    static func number(_ text: String) -> Double? {
        PlainDecimal.parse(text, maximumLength: 12)
    }
}
