import CommandLanguage
import Foundation
import Habits
import Insights
import Vocabulary

/// `habit show NAME`: the last 60 days as a calendar (a column per week, a
/// row per weekday), the streaks and a strength sparkline.
extension HabitsViewModel {
    func show(_ habit: Habit, style: TerminalStyle) async throws -> CommandOutput {
        // What it goes with in the weight is read (kept) or computed while its days are read: neither waits for the other.
        async let report = insightsFeature?.report(forHabitWithID: habit.id, named: habit.name)
        // Only this habit's days are read when nothing is loaded yet.
        let detail = try await habitsFeature.detailReadingLittle(of: habit, days: 60)
        var effects: [InsightsViewModel.Shown.Finding] = [], shortages: [InsightShortage] = []
        if let report = try await report {
            effects = report.tested.filter { $0.habit == habit.name }.map { InsightsViewModel.Shown.Finding($0, unit: weightUnit) }
            shortages = report.shortages.filter { $0.habit == habit.name }
        }
        return CommandOutput(Shown(detail: detail, today: habitsFeature.today, effects: effects, shortages: shortages), style: style)
    }

    /// `habit show NAME`: the habit, its days and its strengths, drawn as a calendar and for a script.
    struct Shown: CommandAnswer {
        let detail: HabitDetail
        let today: Int
        /// What it goes with in the weight (`insights`), held or not.
        var effects: [InsightsViewModel.Shown.Finding] = []
        var shortages: [InsightShortage] = []

        enum CodingKeys: String, CodingKey { case habit, days, strengths, effects }

        struct Day: Encodable { let date: String, status: String, note: String? }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(HabitsViewModel.json(detail.summary), forKey: .habit)
            try container.encode(detail.days.map {
                Day(date: DayNumber.string($0.day), status: $0.status.rawValue, note: detail.summary.habit.notes[$0.day])
            }, forKey: .days)
            try container.encode(detail.strengths, forKey: .strengths)
            try container.encode(effects, forKey: .effects)
        }

        func text(style: TerminalStyle) -> String {
            var text = HabitsViewModel.calendar(of: detail, today: today, style: style)
            let held = effects.filter(\.holds)
            if !held.isEmpty {
                text += "\n\n  " + held.map(\.sentence).joined(separator: "\n  ") + "\n  " + style.dim("An association in your data, not proof of a cause ('insights').")
            } else if insightsShown {
                let reasons = shortages.map { ($0.kind == .weekly ? "weekly: " : "next morning: ") + $0.explanation }
                text += "\n\n  " + style.dim(reasons.isEmpty ? "No clear link with your weight yet ('insights all' shows the tests)."
                                                 : "It cannot be related to your weight yet (\(reasons.joined(separator: "; "))).")
            }
            return text
        }

        /// Whether insights were asked for at all.
        private var insightsShown: Bool { !effects.isEmpty || !shortages.isEmpty }
    }

    /// The calendar of the last 60 days, the marks' legend, the notes, the streak and the strength sparkline.
    nonisolated static func calendar(of detail: HabitDetail, today: Int, style: TerminalStyle) -> String {
        let habit = detail.summary.habit
        var lines = [style.bold(habit.name) + style.dim("  \(habit.schedule.text)" + (habit.kind == .yesNo ? "" : ", \(habit.kind.text(unit: habit.unit))")
                                                        + (habit.archived ? ", archived" : ""))]
        lines.append("")
        // A calendar of the last 60 days: a column per week, a row per weekday.
        // Weeks before the habit began are left off: a new habit's calendar starts at its first day.
        let firstDay = detail.days.first { $0.status != .beforeStart }?.day ?? today
        let firstMonday = firstDay - DayNumber.weekdayFromMonday(firstDay)
        let lastDay = detail.days.last?.day ?? firstDay
        let weeks = (lastDay - firstMonday) / 7 + 1
        let statusByDay = Dictionary(uniqueKeysWithValues: detail.days.map { ($0.day, $0.status) })
        // Month names over the week holding each month's first day (and over the first week).
        let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        var header = Array(repeating: Character(" "), count: weeks * 4 + 4)
        var nextFree = 0
        for week in 0..<weeks {
            let monday = firstMonday + week * 7
            guard let labelDay = week == 0 ? max(monday, firstDay) : (monday...(monday + 6)).first(where: { DayNumber.civil($0).day == 1 }) else { continue }
            let column = week * 4
            guard column >= nextFree else { continue }
            let label = Array(monthNames[DayNumber.civil(labelDay).month - 1])
            for (offset, character) in label.enumerated() { header[column + offset] = character }
            nextFree = column + label.count + 1
        }
        let headerText = "     " + TerminalText.trimmedAtEnd(String(header))
        lines.append(style.dim(headerText))
        // Each cell is the day's mark and its day of the month: "■ 3", "×29".
        for weekday in 0..<7 {
            var row = "  " + String(DayNumber.weekdayName(firstMonday + weekday).prefix(2)) + " "
            for week in 0..<weeks {
                let day = firstMonday + week * 7 + weekday
                guard let status = statusByDay[day], status != .beforeStart, status != .future else {
                    row += "    "
                    continue
                }
                let number = String(DayNumber.civil(day).day)
                row += Self.cell(status, style: style) + (number.count == 1 ? " " : "") + style.dim(number) + " "
            }
            lines.append(TerminalText.trimmedAtEnd(row))
        }
        lines.append("")
        // No-break spaces keep each mark with its word when a narrow terminal wraps the legend.
        // Every mark the calendar can draw for this kind of habit, and no other.
        var legend = "■\u{00A0}done  ▪\u{00A0}covered  –\u{00A0}skipped  ○\u{00A0}no  ×\u{00A0}missed  ·\u{00A0}not\u{00A0}due  □\u{00A0}open"
        switch habit.kind {
        case .yesNo: break
        case .atLeast: legend += "  ◐\u{00A0}part\u{00A0}done"
        case .atMost: legend = "■\u{00A0}within\u{00A0}the\u{00A0}limit  ▪\u{00A0}nothing\u{00A0}logged  ▲\u{00A0}over\u{00A0}the\u{00A0}limit  –\u{00A0}skipped"
        }
        lines.append(style.dim(legend))
        // A numeric habit's amounts, as Loop shows them: the last week of logged days.
        if habit.kind.isNumeric {
            let logged = detail.days.compactMap { day -> String? in
                guard case let .value(amount)? = habit.marks[day.day] else { return nil }
                return "\(DayNumber.shortLabel(day.day)) \(PlainDecimal.text(amount))"
            }.suffix(7)
            if !logged.isEmpty { lines.append("  amounts  " + logged.joined(separator: " · ") + (habit.unit.isEmpty ? "" : " " + TerminalText.visible(habit.unit))) }
        }
        let notes = detail.days.compactMap { day in habit.notes[day.day].map { (day.day, $0) } }
        if !notes.isEmpty {
            lines.append("")
            lines += notes.map { "  \(DayNumber.longName($0.0))  \(TerminalText.visible($0.1))" }
        }
        let summary = detail.summary
        // Loop's frequency card, summed: the days done on each weekday over the last year.
        let byWeekday = detail.doneByWeekday
        lines.append("")
        lines.append("  done by weekday, last year  "
                     + (0..<7).map { "\(String(DayNumber.weekdayName(firstMonday + $0).prefix(2))) \(byWeekday[$0])" }.joined(separator: "  "))
        lines.append("")
        lines.append("  streak    \(summary.currentStreak) (best \(summary.bestStreak))")
        // The sparkline shows as many of the last days as the terminal has room for.
        let head = "  strength  \(Int((summary.strength * 100).rounded()))%  "
        let shown = max(7, min(detail.strengths.count, style.width - head.count - 12))
        lines.append(head + style.paint(Self.sparkline(Array(detail.strengths.suffix(shown))), .green)
                     + style.dim("  (\(shown) days)"))
        if !summary.habit.reminders.isEmpty {
            lines.append("  reminds   at " + summary.habit.reminders.map(\.description).joined(separator: ", ") + " on the days it is due")
        }
        return lines.joined(separator: "\n")
    }

    nonisolated static func cell(_ status: HabitDayStatus?, style: TerminalStyle) -> String {
        switch status {
        case .done?: return style.paint("■", .green)
        case .auto?: return style.paint("▪", .green)
        case .skipped?: return style.paint("–", .cyan)
        case .no?: return style.paint("○", .red)
        case .partly?: return style.paint("◐", .magenta)
        case .overLimit?: return style.paint("▲", .red)
        case .missed?: return style.paint("×", .red)
        case .notDue?: return style.dim("·")
        case .pending?: return "□"
        case .beforeStart?, .future?, nil: return " "
        }
    }

    nonisolated static func sparkline(_ values: [Double]) -> String {
        let blocks = Array("▁▂▃▄▅▆▇█")
        return String(values.map { blocks[min(7, max(0, Int(($0 * 7).rounded())))] })
    }
}
