import CommandLanguage
import Foundation
import Habits
import Vocabulary

/// The habits screens' answers: each one value for the text and the JSON (`CommandAnswer`).
extension HabitsViewModel {
    /// `habit done|no|skip|undo NAME …`: the habit as it is after the mark, and the day marked.
    struct Marked: CommandAnswer {
        let habit: JSON?
        let date: String
        /// The day already held this mark: nothing was changed, and the history has no entry for it.
        let unchanged: Bool
        /// The text only: the habit and day marked, what was added, its numbers after.
        let marked: Habit, day: Int, isToday: Bool, added: Double?, summary: HabitSummary?

        enum CodingKeys: String, CodingKey { case habit, date, unchanged }

        func text(style: TerminalStyle) -> String {
            let dayText = isToday ? "today" : DayNumber.longName(day)
            let already: String? = switch marked.marks[day] {
            case .done?: "done"
            case .skipped?: "skipped"
            case .no?: "marked not done"
            case let .value(number)?: "at \(PlainDecimal.text(number))"
            case nil: nil
            }
            if unchanged, let already {
                return "'\(marked.name)' was already \(already) \(dayText); nothing changed."
                    + (summary.map { " Streak \($0.currentStreak), strength \(Int(($0.strength * 100).rounded()))%." } ?? "")
            }
            let text: String = switch marked.marks[day] {
            case .done?: "'\(marked.name)' done \(dayText)."
            case .skipped?: "'\(marked.name)' skipped \(dayText); the streak is kept."
            case .no?: "'\(marked.name)' not done \(dayText)."
            case let .value(number)?: "'\(marked.name)': \(PlainDecimal.text(number)) \(dayText)" + (added.map { " (+\(PlainDecimal.text($0)))" } ?? "")
                + (marked.kind.isMet(by: number) ? ", target met." : ", \(marked.kind.text(unit: marked.unit)) not met.")
            case nil: "'\(marked.name)' cleared for \(dayText)."
            }
            return text + (summary.map { " Streak \($0.currentStreak), strength \(Int(($0.strength * 100).rounded()))%." } ?? "")
        }
    }

    /// `habits [all]`: today's habits, each with its streak and strength, in rows that fit the terminal.
    struct Listed: CommandAnswer {
        let date: String
        let habits: [JSON]
        /// The text only: the summaries the rows are drawn from, and today.
        let summaries: [HabitSummary], today: Int

        enum CodingKeys: String, CodingKey { case date, habits }

        func text(style: TerminalStyle) -> String {
            guard !summaries.isEmpty else { return "No habits yet. Add one: habit add Read every day" }
            var lines = [style.bold("Habits, " + DayNumber.longName(today))]
            // The widest layout that fits the terminal: the bar shrinks, then the best streak and the
            // strength label go, then the plan and the name are cut short — a row never wraps.
            // Down a pipe nothing wraps, so nothing is cut: names and plans are given whole.
            let widestName = summaries.map { TerminalText.columns($0.habit.name) }.max() ?? 4
            let widestPlan = max(22, summaries.map { TerminalText.columns(HabitsViewModel.plan(of: $0.habit)) }.max() ?? 0)
            let nameWidth = style.wraps ? min(24, widestName) : widestName
            let planWidth = style.wraps ? min(34, widestPlan) : widestPlan
            let bestWidth = summaries.map { " (best \($0.bestStreak))".count }.max() ?? 0
            let layouts = [
                RowLayout(name: nameWidth, plan: planWidth, bar: 10, best: true, label: true, bestWidth: bestWidth),
                RowLayout(name: nameWidth, plan: planWidth, bar: 6, best: true, label: true, bestWidth: bestWidth),
                RowLayout(name: nameWidth, plan: planWidth, bar: 6, best: false, label: true),
                RowLayout(name: nameWidth, plan: planWidth, bar: 6, best: false, label: false),
                RowLayout(name: min(nameWidth, 14), plan: min(planWidth, 18), bar: 5, best: false, label: false),
                RowLayout(name: min(nameWidth, 10), plan: min(planWidth, 12), bar: 4, best: false, label: false),
                RowLayout(name: min(nameWidth, 12), plan: min(planWidth, 12), bar: 0, best: false, label: false, compact: true),
                RowLayout(name: min(nameWidth, 9), plan: min(planWidth, 10), bar: 0, best: false, label: false, compact: true),
            ]
            let chosen = !style.wraps ? layouts[0] : layouts.first { layout in
                summaries.allSatisfy { TerminalText.columns(HabitsViewModel.row($0, layout: layout, style: .plain)) <= style.width }
            } ?? layouts[layouts.count - 1]
            lines += summaries.map { HabitsViewModel.row($0, layout: chosen, style: style) }
            // The marks the rows use, each explained: the numeric ones only when a row shows them.
            var legend = "✓\u{00A0}done  ○\u{00A0}due  –\u{00A0}skipped  ·\u{00A0}not\u{00A0}due\u{00A0}today"
            if summaries.contains(where: { $0.todayMark == .no }) { legend += "  ✗\u{00A0}answered\u{00A0}no" }
            if summaries.contains(where: { $0.todayStatus == .partly }) { legend += "  ◐\u{00A0}part\u{00A0}done" }
            if summaries.contains(where: { $0.todayStatus == .overLimit }) { legend += "  ▲\u{00A0}over\u{00A0}the\u{00A0}limit" }
            lines.append(style.dim(legend))
            return lines.joined(separator: "\n")
        }
    }

    /// `habit export FILE`: the file or folder written, and how many habits it holds.
    struct Exported: CommandAnswer {
        let file: String
        let habits: Int
        /// The text only: which of Loop's layouts was written.
        let what: String

        enum CodingKeys: String, CodingKey { case file, habits }

        func text(style: TerminalStyle) -> String { "Wrote \(counted(habits, "habit")) to \(TerminalText.visible(file)) (\(what))." }
    }

    /// A habit and its day as scripts read it.
    nonisolated static func json(_ summary: HabitSummary) -> JSON {
        let habit = summary.habit
        let todayValue: Double? = if case let .value(value)? = summary.todayMark { value } else { nil }
        return .object([
            ("name", .string(habit.name)), ("schedule", .string(habit.schedule.text)),
            ("kind", .string(habit.kind == .yesNo ? "yesNo" : habit.kind.code)), ("target", .optional(habit.kind.target)),
            ("dueToday", .bool(summary.dueToday)), ("doneToday", .bool(summary.doneToday)), ("skippedToday", .bool(summary.todayMark == .skipped)),
            ("status", .string(summary.todayStatus.rawValue)), ("todayValue", .optional(todayValue)),
            ("targetKind", .optional(habit.kind.isNumeric ? habit.kind.code : nil)), ("unit", .optional(habit.unit.isEmpty ? nil : habit.unit)),
            ("currentStreak", .integer(summary.currentStreak)), ("bestStreak", .integer(summary.bestStreak)),
            ("strength", .number(summary.strength)), ("archived", .bool(habit.archived)),
            // Its reminder times (`21:00`), in the order of the clock.
            ("reminders", .array(habit.reminders.map { .string($0.description) })),
        ])
    }

    /// A habit's name and plan, without the numbers of a day (one no longer listed: archived, deleted).
    nonisolated static func json(plain habit: Habit) -> JSON {
        .object([("name", .string(habit.name)), ("schedule", .string(habit.schedule.text)),
                 ("kind", .string(habit.kind.text)), ("archived", .bool(habit.archived))])
    }
}
