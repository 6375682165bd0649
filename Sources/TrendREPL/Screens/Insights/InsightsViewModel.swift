import CommandLanguage
import Insights
import Vocabulary
import WeightLog

/// `insights [RANGE|all]`: the associations between habits and weight, and
/// the person's own patterns, that survive the statistics; `all` shows every
/// one tested, with those that did not hold marked.
@MainActor
struct InsightsViewModel {
    let insightsFeature: InsightsFeature
    let weightEntryFeature: WeightEntryFeature

    func show(range named: NamedRange?, everything: Bool, style: TerminalStyle) async throws -> CommandOutput {
        let range = try named?.listed(by: "insights")
        let report = try await insightsFeature.report(from: range?.firstDay, through: range?.lastDay)
        return CommandOutput(Shown(report: report, title: range?.title ?? "all time", everything: everything, unit: weightEntryFeature.unit),
                             style: style)
    }

    /// `insights …`: what held, what was tested, and what needs more data.
    struct Shown: CommandAnswer {
        let range: String
        let tested: Int
        let insights: [Finding]
        let notEnoughData: [Shortage]
        let falseDiscoveryRate: Double
        let everything: Bool
        let unit: WeightUnit

        enum CodingKeys: String, CodingKey { case range, tested, insights, notEnoughData, falseDiscoveryRate }

        init(report: InsightsReport, title: String, everything: Bool, unit: WeightUnit) {
            range = title
            tested = report.tested.count
            insights = (everything ? report.tested : report.reported).map { Finding($0, unit: unit) }
            notEnoughData = report.shortages.map(Shortage.init)
            falseDiscoveryRate = InsightsCalculator.falseDiscoveryRate
            self.everything = everything
            self.unit = unit
        }

        struct Finding: Encodable {
            let insight: Insight
            /// What it says, in the person's unit.
            let sentence: String
            var holds: Bool { insight.reported }

            init(_ insight: Insight, unit: WeightUnit) {
                self.insight = insight
                sentence = TerminalText.visible(insight.sentence(unit: unit))
            }

            func encode(to encoder: any Encoder) throws {
                let estimate = insight.estimate
                try JSON.object([
                    ("kind", .string(insight.kind.rawValue)), ("habit", .optional(insight.habit)),
                    ("weekday", .optional(insight.weekday.map { String(Weekday.plurals[$0].dropLast()) })),
                    ("differenceKilograms", .number(estimate.value)), ("lowerKilograms", .number(estimate.lower)),
                    ("upperKilograms", .number(estimate.upper)), ("pValue", .number(estimate.pValue)),
                    ("count", .integer(insight.count)), ("otherCount", .integer(insight.otherCount)), ("holds", .bool(holds)), ("sentence", .string(sentence)),
                ]).encode(to: encoder)
            }
        }

        struct Shortage: Encodable {
            let kind: String
            let habit: String?
            let have: Int
            let need: Int
            /// The counted days or weeks with the habit and without it.
            let with: Int, without: Int
            /// Every counted day or week on one side: it cannot be tested until the other side has some.
            let oneSided: Bool
            /// Why, as a code and in words.
            let reason: String, explanation: String

            init(_ shortage: InsightShortage) {
                kind = shortage.kind.rawValue
                habit = shortage.habit
                have = shortage.have
                need = shortage.need
                (with, without, oneSided) = (shortage.with, shortage.without, shortage.isOneSided)
                (reason, explanation) = (shortage.reason.rawValue, shortage.explanation)
            }
        }

        func text(style: TerminalStyle) -> String {
            var lines = [style.bold("Insights, \(range)")]
            if tested == 0 && notEnoughData.isEmpty {
                return (lines + ["Nothing to look at yet: insights need weeks of weigh-ins, and habits to relate them to."]).joined(separator: "\n")
            }
            let holding = insights.filter(\.holds).count
            if !insights.isEmpty {
                for finding in insights where finding.insight.kind != .weekday {
                    lines.append((finding.holds ? "  " : style.dim("  (does not hold) ")) + finding.sentence)
                }
                // The weekdays in one line: seven sentences would say one thing.
                let weekdays = insights.filter { $0.insight.kind == .weekday }
                if !weekdays.isEmpty {
                    let parts = weekdays.map { finding in
                        "\(finding.insight.weekday.map { Weekday.plurals[$0].prefix(3) } ?? "") \(unit.formatChange(finding.insight.estimate.value, decimals: 2))" + (finding.holds ? "" : " (does not hold)")
                    }
                    lines.append("  By weekday, against the line through the days around it: " + parts.joined(separator: ", ")
                                 + " (\(weekdays.map(\.insight.count).min() ?? 0)+ mornings each).")
                }
            }
            // Each habit that could not be tested, once, with the reason of each test it missed.
            let byHabit = Dictionary(grouping: notEnoughData.filter { $0.habit != nil }, by: { $0.habit ?? "" })
            for (habit, shortages) in byHabit.sorted(by: { $0.key < $1.key }) {
                let reasons = shortages.map { ($0.kind == "weekly" ? "weekly: " : "next morning: ") + $0.explanation }
                lines.append(style.dim("  \(TerminalText.visible(habit)) cannot be tested yet (\(reasons.joined(separator: "; ")))."))
            }
            lines.append("")
            let threshold = "a 95 % interval that leaves out zero, with at most \(Int(falseDiscoveryRate * 100)) % of such findings "
                + "expected to be chance (Benjamini–Hochberg)"
            let summary = tested == 0
                ? "Nothing could be tested yet."
                : "Tested \(counted(tested, "association")) of your habits and patterns with your weight; "
                    + (holding == 0 ? "none holds yet: none is clear enough (\(threshold)) to tell you about" : "\(holding) \(holding == 1 ? "holds" : "hold"): \(threshold)") + "."
            lines.append(style.dim(summary + " These are associations in your own data, not proof of a cause."
                + (everything ? "" : " 'insights all' shows every one tested.")))
            return lines.joined(separator: "\n")
        }
    }
}
