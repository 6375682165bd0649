import CommandLanguage
import DailyTips
import Foundation
import Overview
import Vocabulary
import WeightLog

/// The `today` screen: the check-in, with the tip of the day.
@MainActor
struct TodayViewModel {
    let checkInFeature: CheckInFeature
    /// The units and the time zone the check-in is said in.
    let weightEntryFeature: WeightEntryFeature
    let measurementsFeature: MeasurementsFeature

    func show(style: TerminalStyle) async throws -> CommandOutput {
        CommandOutput(Self.answer(try await checkInFeature.today(), unit: weightEntryFeature.unit, timeZone: weightEntryFeature.calendar.timeZone,
                                  lengthUnit: measurementsFeature.unit), style: style)
    }

    /// The check-in with its cards, as one value: what `today` shows and `weigh` answers with.
    static func answer(_ daily: DailyCheckIn, unit: WeightUnit, timeZone: TimeZone, lengthUnit: LengthUnit) -> CheckInAnswer {
        CheckInAnswer(checkIn: daily.checkIn, cards: daily.cards, unit: unit, timeZone: timeZone,
                      sparkline: daily.recentTrend.isEmpty ? nil : sparkline(daily.recentTrend), composition: daily.composition,
                      insight: daily.newInsight.map { TerminalText.visible($0.sentence(unit: unit)) }, shape: daily.shape, lengthUnit: lengthUnit)
    }

    /// `today`: the check-in and its cards, drawn and for a script, from one value.
    struct CheckInAnswer: CommandAnswer {
        let checkIn: CheckIn
        let cards: CheckInCards
        let unit: WeightUnit
        let timeZone: TimeZone
        /// The trend of the last 14 days (fewer while it is younger) as blocks, nil without a trend.
        let sparkline: String?
        /// Body fat and lean mass, when a recent weigh-in carries body fat.
        var composition: BodyComposition?
        /// With the Monday review, an association that became clear this week, in words.
        var insight: String?
        /// The recent tape measures and what they give, when any were taken lately.
        var shape: BodyShape?
        var lengthUnit: LengthUnit = .centimetres

        func encode(to encoder: any Encoder) throws {
            guard case let .object(members) = TodayViewModel.json(checkIn, cards: cards, unit: unit, timeZone: timeZone) else { return }
            let body: JSON = composition.map { composition in
                .object([("date", .string(DayNumber.string(composition.latestDay))), ("bodyFatPercent", .number(composition.latestPercent)),
                         ("bodyFatTrendPercent", .number(composition.percentTrend)),
                         ("leanMassTrendKilograms", .number(composition.leanMassTrendKilograms)),
                         ("fatMassTrendKilograms", .number(composition.fatMassTrendKilograms))])
            } ?? .null
            let measures: JSON = .array((shape?.recent ?? []).map { trend in
                .object([("kind", .string(trend.kind.rawValue)), ("latestDate", .string(DayNumber.string(trend.latestDay))),
                         ("latestCentimetres", .number(trend.latestCentimetres)), ("trendCentimetres", .number(trend.trendCentimetres))])
            })
            try JSON.object(members + [("bodyComposition", body), ("measurements", measures), ("waistToHeight", .optional(shape?.waistToHeight)),
                                       ("navyBodyFatEstimatePercent", .optional(shape?.navyBodyFatPercent)),
                                       ("newInsight", .optional(insight))]).encode(to: encoder)
        }

        func text(style: TerminalStyle) -> String {
            var lines = [style.bold("Today, " + DayNumber.longName(checkIn.day))]
            if let latestEntry = checkIn.latestEntry, let latestDay = checkIn.latestDay {
                var weightLine = "  weight   " + style.bold(unit.format(latestEntry.kilograms))
                if latestDay != checkIn.day {
                    weightLine += style.dim("  (last weigh-in \(DayNumber.longName(latestDay)))")
                } else {
                    weightLine += " at " + DateText(timeZone: timeZone).local(latestEntry.date).suffix(5)
                }
                if let mean = checkIn.dayMeanKilograms {
                    weightLine += ("  (today's mean \(unit.format(mean)) of \(checkIn.weighInsOnLatestDay) weigh-ins)")
                }
                lines.append(weightLine)
                if let trend = checkIn.trendKilograms {
                    var line = "  trend    " + style.paint(unit.format(trend), .green)
                    // It says how many days it draws: fewer than 14 while the trend is younger.
                    if let sparkline { line += "  " + style.paint(sparkline, .green) + style.dim(" \(sparkline.count) days") }
                    lines.append(line)
                }
                if let verdict = checkIn.verdict {
                    var verdictLine = "  verdict  " + TodayViewModel.describe(verdict, style: style)
                    if let change = checkIn.changeSincePreviousKilograms {
                        verdictLine += ("  (day mean \(unit.formatChange(change)) on the weighed day before)")
                    }
                    lines.append(verdictLine)
                }
                if let toGoal = checkIn.toGoalKilograms {
                    let left = checkIn.isNearGoal ? "at your goal" : "\(unit.format(abs(toGoal))) to \(toGoal < 0 ? "lose" : "gain")"
                    lines.append("  to goal  \(left)")
                }
                if let composition {
                    var line = "  body fat \(WeightUnit.fixed(composition.latestPercent, decimals: 1)) %"
                    if composition.days > 1 { line += style.dim("  (trend \(WeightUnit.fixed(composition.percentTrend, decimals: 1)) %)") }
                    line += "   lean \(unit.format(composition.leanMassTrendKilograms))"
                    if composition.days > 1 { line += style.dim("  (\(unit.formatChange(composition.leanMassChangeKilograms)) over \(composition.days) days measured)") }
                    lines.append(line)
                }
                if let bmi = checkIn.bodyMassIndex {
                    lines.append("  BMI      \(WeightUnit.fixed(bmi.value, decimals: 1)) (\(bmi.whoClass.rawValue), from the trend)")
                }
            } else if let later = checkIn.laterEntry {
                // Only weigh-ins dated after now: the clock was set back, or a file brought them.
                lines.append("  Your weigh-ins are dated after now (the latest \(DateText(timeZone: timeZone).local(later.date))): "
                    + "is this device's clock right? 'entries' lists them.")
            } else {
                lines.append("  No weigh-ins yet. Record one with 'weigh 82.4'.")
            }
            if let shape { lines += TodayViewModel.lines(shape, unit: lengthUnit, style: style) }
            lines.append("  streak   \(counted(checkIn.currentStreak, "day"))")
            if let tip = cards.tip { lines += ["", TipViewModel.line(tip, style: style)] }
            if let pepTalk = cards.pepTalk { lines.append(style.paint("★ ", .green) + style.bold(pepTalk.text)) }
            if let review = cards.weekReview { lines += [""] + TodayViewModel.lines(review, unit: unit, style: style) }
            if let insight { lines.append(style.bold("New this week:") + " " + insight + " An association, not proof of a cause.") }
            if let weekAhead = cards.weekAhead { lines += ["", style.bold("Week ahead:") + " " + weekAhead] }
            return lines.joined(separator: "\n")
        }
    }

    /// The trend of the last days as block characters, lowest ▁ to highest █
    /// (a flat trend is a row of ▄), from the first day with a trend; a day without a weigh-in is blank, never a
    /// bar; nil with fewer than two days of trend.
    nonisolated static func sparkline(_ values: [Double?]) -> String? {
        let values = values.drop { $0 == nil }
        let known = values.compactMap { $0 }
        guard known.count >= 2, let low = known.min(), let high = known.max() else { return nil }
        let blocks = Array("▁▂▃▄▅▆▇█")
        return String(values.map { value -> Character in
            guard let value else { return " " }
            guard high - low > 1e-9 else { return blocks[3] }
            return blocks[min(7, Int((value - low) / (high - low) * 7 + 0.5))]
        })
    }

    /// The tape measures' trends, the waist-to-height ratio and the US-Navy estimate, as the check-in shows them.
    nonisolated static func lines(_ shape: BodyShape, unit: LengthUnit, style: TerminalStyle) -> [String] {
        var lines = ["  tape     " + shape.recent.map { trend in
            "\(trend.kind.name) \(unit.format(trend.series.count > 1 ? trend.trendCentimetres : trend.latestCentimetres))"
        }.joined(separator: " · ") + style.dim(shape.recent.contains { $0.series.count > 1 } ? "  (trends)" : "")]
        if let ratio = shape.waistToHeight {
            let side = ratio < WaistToHeight.threshold ? "under" : "over"
            lines.append("  waist/height \(WeightUnit.fixed(ratio, decimals: 2))" + style.dim("  (\(side) \(WeightUnit.fixed(WaistToHeight.threshold, decimals: 1)): keep the waist under half the height)"))
        }
        if let navy = shape.navyBodyFatPercent {
            lines.append("  body fat ≈ \(WeightUnit.fixed(navy, decimals: 1)) %" + style.dim("  (an estimate: US Navy, from neck, waist\(shape.recent.contains { $0.kind == .hips } ? ", hips" : "") and height)"))
        }
        return lines
    }

    /// Last week's review, as the Monday check-in shows it.
    nonisolated static func lines(_ review: WeekReview, unit: WeightUnit, style: TerminalStyle) -> [String] {
        let week = review.week
        var lines = [style.bold("Last week, \(DayNumber.longName(review.start)) to \(DayNumber.longName(review.end))")]
        lines.append("  weighed  \(week.daysWeighed) of 7 days")
        if let change = week.trendChangeKilograms {
            var line = "  trend    \(unit.formatChange(change))"
            if let rate = week.weeklyRateKilograms { line += ("  (\(unit.formatChange(rate)) a week through the days weighed)") }
            lines.append(line)
        }
        if let best = week.bestDay, let kilograms = week.bestDayKilograms {
            lines.append("  best day \(DayNumber.longName(best)), \(unit.format(kilograms))")
        }
        if week.habitsDue > 0 { lines.append("  habits   \(week.habitsDone) of \(week.habitsDue) due done") }
        if let name = week.longestStreakName, week.longestStreakDays > 0 {
            let days = week.longestStreakDays == 1 ? "day" : "days"
            lines.append("  streak   \(TerminalText.visible(name)), \(week.longestStreakDays) \(days) and kept")
        }
        lines.append("  " + review.comparison(unit: unit))
        if let lean = leanSentence(review, unit: unit) { lines.append("  " + lean) }
        return lines
    }

    /// What the week's lean mass did beside its weight (`LeanMassChange`), when body fat was measured.
    nonisolated static func leanSentence(_ review: WeekReview, unit: WeightUnit) -> String? {
        guard let lean = review.week.leanMassChangeKilograms else { return nil }
        return LeanMassChange.sentence(weightChange: review.week.trendChangeKilograms ?? 0, leanChange: lean, unit: unit)
    }

    nonisolated static func json(_ review: WeekReview?, unit: WeightUnit) -> JSON {
        guard let review else { return .null }
        let week = review.week
        return .object([
            ("start", .string(DayNumber.string(review.start))),
            ("end", .string(DayNumber.string(review.end))),
            ("daysWeighed", .integer(week.daysWeighed)),
            ("trendChangeKilograms", .optional(week.trendChangeKilograms)),
            ("weeklyRateKilograms", .optional(week.weeklyRateKilograms)),
            ("bestDay", .optional(week.bestDay.map(DayNumber.string))),
            ("bestDayKilograms", .optional(week.bestDayKilograms)),
            ("habitsDone", .integer(week.habitsDone)),
            ("habitsDue", .integer(week.habitsDue)),
            ("longestStreak", week.longestStreakName.map { .object([("name", .string($0)), ("days", .integer(week.longestStreakDays))]) } ?? .null),
            ("comparedWithPreviousWeek", .string(review.comparison(unit: unit))),
            ("leanMassChangeKilograms", .optional(week.leanMassChangeKilograms)),
            ("leanMass", .optional(leanSentence(review, unit: unit))),
        ])
    }

    nonisolated static func json(_ pepTalk: PepTalk?) -> JSON {
        guard let pepTalk else { return .null }
        return .object([("id", .string(pepTalk.id)), ("event", .string(pepTalk.event.rawValue)), ("text", .string(pepTalk.text))])
    }

    nonisolated static func json(_ checkIn: CheckIn, cards: CheckInCards, unit: WeightUnit, timeZone: TimeZone) -> JSON {
        .object([
            ("date", .string(DayNumber.string(checkIn.day))),
            ("latestKilograms", .optional(checkIn.latestKilograms)),
            ("latestAt", .optional(checkIn.latestEntry.map { DateText(timeZone: timeZone).instant($0.date) })),
            ("laterWeighInAt", .optional(checkIn.laterEntry.map { DateText(timeZone: timeZone).instant($0.date) })),
            ("dayMeanKilograms", .optional(checkIn.dayMeanKilograms)),
            ("trendKilograms", .optional(checkIn.trendKilograms)),
            ("toGoalKilograms", .optional(checkIn.toGoalKilograms)),
            ("bmi", .optional(checkIn.bodyMassIndex?.value)),
            ("bmiClass", .optional(checkIn.bodyMassIndex?.whoClass.rawValue)),
            ("verdict", .optional(checkIn.verdict?.rawValue)),
            ("currentStreak", .integer(checkIn.currentStreak)),
            ("changeKilograms", .optional(checkIn.changeSincePreviousKilograms)),
            ("latestDate", .optional(checkIn.latestDay.map(DayNumber.string))),
            ("tip", TipViewModel.json(cards.tip)),
            ("pepTalk", json(cards.pepTalk)),
            ("weekReview", json(cards.weekReview, unit: unit)),
            ("weekAhead", .optional(cards.weekAhead)),
        ])
    }

    nonisolated static func describe(_ verdict: DailyVerdict, style: TerminalStyle) -> String {
        switch verdict {
        case .firstEntry: return style.paint("first entry — welcome! The trend starts here.", .cyan)
        case .movingDownward: return style.paint("↓ moving downward", .green)
        case .holdingSteady: return style.paint("→ holding steady", .cyan)
        case .needsAttention: return style.paint("↑ up since last time; the trend, not the day, is what counts", .magenta)
        case .timeForReset: return style.paint("↻ time for a reset: the trend has barely moved in two weeks", .magenta)
        }
    }
}
