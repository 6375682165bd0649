import CommandLanguage
import Overview
import Vocabulary
import WeightLog

/// `summary [week|month|year|RANGE]`: a period's own figures beside the
/// period before it — the same computations as the Monday review
/// (`WeightPeriodFigures`, `HabitPeriodFigures`), laid out for a look back.
@MainActor
struct SummaryViewModel {
    let summaryFeature: SummaryFeature

    func show(_ named: ComparedPeriods?, style: TerminalStyle) async throws -> CommandOutput {
        guard let summary = try await summaryFeature.summary(of: named) else {
            throw CommandFailure(.failed, "summary: this week cannot be compared")
        }
        return CommandOutput(Shown(summary: summary), style: style)
    }

    /// `summary …`: a period's figures beside the one before (`SummaryFeature`), drawn and for a script.
    struct Shown: CommandAnswer {
        let summary: PeriodSummary

        func encode(to encoder: any Encoder) throws {
            try json.encode(to: encoder)
        }

        private var json: JSON {
            let (periods, now, before, habits, body) = (summary.periods, summary.now, summary.before, summary.habits, summary.body)
            return .object([
                ("period", SummaryViewModel.json(periods.current)),
                ("previous", .object(SummaryViewModel.figures(before, days: periods.previous))),
            ] + SummaryViewModel.figures(now, days: nil) + [
                ("habits", .array(habits.habits.map {
                    .object([("name", .string($0.name)), ("done", .integer($0.done)), ("due", .integer($0.due)),
                             ("currentStreak", .integer($0.streakDays))])
                })),
                ("mostWeighedWeekday", .optional(now.mostWeighedWeekday.map { Weekday.plurals[$0] })),
                // In percentage points, kilograms or centimetres, as `quantity` says.
                ("bodyChanges", .array(body.rows.map {
                    .object([("name", .string($0.name)), ("quantity", .string($0.quantity.rawValue)),
                             ("change", .optional($0.now)), ("previousChange", .optional($0.before))])
                })),
            ])
        }

        func text(style: TerminalStyle) -> String {
            let (periods, now, before, habits, body) = (summary.periods, summary.now, summary.before, summary.habits, summary.body)
            let (unit, lengthUnit) = (summary.unit, summary.lengthUnit)
            func change(_ value: Double?) -> String { value.map { unit.formatChange($0) } ?? "—" }
            // A period too short for an honest rate says so, rather than a −3.1 kg week from three days.
            func rate(_ figures: WeightPeriodFigures) -> String {
                figures.weeklyRateKilograms.map { unit.formatChange($0) } ?? (figures.daysWeighed > 0 ? "too few days" : "—")
            }
            func day(_ day: Int?, _ kilograms: Double?) -> String {
                guard let day, let kilograms else { return "—" }
                return "\(unit.format(kilograms)), \(DayNumber.longName(day).dropLast(5))"
            }
            let cells: [(String, String, String)] = [
                ("", "now", "before"),
                ("weigh-ins", "\(now.weighIns)", "\(before.weighIns)"),
                ("days weighed", "\(now.daysWeighed)", "\(before.daysWeighed)"),
                ("trend", change(now.trendChangeKilograms), change(before.trendChangeKilograms)),
                ("weekly rate", rate(now), rate(before)),
                ("lowest", day(now.lowestDay, now.lowestKilograms), day(before.lowestDay, before.lowestKilograms)),
                ("highest", day(now.highestDay, now.highestKilograms), day(before.highestDay, before.highestKilograms)),
            ] + body.rows.map { row in
                func cell(_ value: Double?) -> String {
                    guard let value else { return "—" }
                    switch row.quantity {
                    case .percent: return WeightUnit.signed(value, decimals: 1) + " %"
                    case .kilograms: return unit.formatChange(value)
                    case .centimetres: return lengthUnit.formatChange(value)
                    }
                }
                return (row.name, cell(row.now), cell(row.before))
            }
            var lines = [style.bold("Summary, \(periods.name): \(DayNumber.longName(periods.current))"),
                         style.dim("  against \(DayNumber.longName(periods.previous))")]
            lines += SummaryViewModel.table(cells, width: style.wraps ? style.width : nil)
            if let shortfall = now.rateShortfall, now.daysWeighed > 0 { lines.append(style.dim("  \(shortfall)")) }
            if !habits.habits.isEmpty {
                lines.append("  habits")
                for habit in habits.habits {
                    let streak = habit.streakDays == 1 ? "1 day" : "\(habit.streakDays) days"
                    // An at-most habit, or a day not yet due, asks nothing: "0 of 0 due done" says nothing.
                    let days = habit.due == 0 ? "nothing due" : "\(habit.done) of \(habit.due) due done"
                    lines.append("    \(TerminalText.visible(habit.name)): \(days), streak \(streak)")
                }
            }
            if let weekday = now.mostWeighedWeekday {
                lines.append("  You weighed in most on \(Weekday.plurals[weekday]).")
            }
            return lines.joined(separator: "\n")
        }
    }

    /// The figures' rows: a label, then now and before side by side, each column as wide as its widest cell and
    /// two spaces more (at least 22 where there is room). Where the two columns do not fit `width` (50 columns),
    /// each period's figures are stacked under its own heading instead of wrapping.
    nonisolated static func table(_ cells: [(String, String, String)], width: Int?) -> [String] {
        let widest = cells.map { max(TerminalText.columns($0.1), TerminalText.columns($0.2)) }.max() ?? 0
        let column = max(22, widest + 2)
        func row(_ label: String, _ a: String, _ b: String, column: Int) -> String {
            "  " + label.rightPadded(to: 13) + a.leftPadded(to: column) + b.leftPadded(to: column)
        }
        guard let width, 15 + 2 * column > width else { return cells.map { row($0.0, $0.1, $0.2, column: column) } }
        if 15 + 2 * (widest + 2) <= width { return cells.map { row($0.0, $0.1, $0.2, column: widest + 2) } }
        let figures = cells.dropFirst()
        let value = figures.map { max(TerminalText.columns($0.1), TerminalText.columns($0.2)) }.max() ?? 0
        func block(_ heading: String, _ pick: ((String, String, String)) -> String) -> [String] {
            ["  " + heading] + figures.map { "    " + $0.0.rightPadded(to: 13) + pick($0).leftPadded(to: value) }
        }
        return block(cells.first?.1 ?? "now", \.1) + block(cells.first?.2 ?? "before", \.2)
    }

    nonisolated static func json(_ days: ClosedRange<Int>) -> JSON {
        .object([("start", .string(DayNumber.string(days.lowerBound))), ("end", .string(DayNumber.string(days.upperBound)))])
    }

    nonisolated static func figures(_ figures: WeightPeriodFigures, days: ClosedRange<Int>?) -> [(String, JSON)] {
        func day(_ day: Int?, _ kilograms: Double?) -> JSON {
            guard let day, let kilograms else { return .null }
            return .object([("date", .string(DayNumber.string(day))), ("kilograms", .number(kilograms))])
        }
        return (days.map { [("start", .string(DayNumber.string($0.lowerBound))), ("end", .string(DayNumber.string($0.upperBound)))] } ?? [])
            + [("weighIns", .integer(figures.weighIns)), ("daysWeighed", .integer(figures.daysWeighed)),
               ("trendChangeKilograms", .optional(figures.trendChangeKilograms)),
               ("weeklyRateKilograms", .optional(figures.weeklyRateKilograms)),
               ("rateUnavailableReason", .optional(figures.rateShortfall?.description)),
               ("lowest", day(figures.lowestDay, figures.lowestKilograms)),
               ("highest", day(figures.highestDay, figures.highestKilograms))]
    }
}
