import CommandLanguage
import AppCore
import Foundation
import Habits
import Progress
import Vocabulary
import WeightLog

/// `export FILE.html [RANGE]`: the report (DESIGN §10). Each part is what a screen shows, made by that
/// screen's own ViewModel and the same Feature calls (the chart as `export chart.svg`, the figures as
/// `summary`, each habit as `habit show`, the insights as `insights all`), so the page and the screens
/// cannot disagree; this only lays them out.
@MainActor
struct ReportViewModel {
    let app: AppModel

    /// The habits a page draws at most (ten years of twenty habits stays a few megabytes).
    static let habitLimit = 40

    func export(to url: URL, range named: NamedRange?) async throws -> CommandOutput {
        let progress = ProgressViewModel(progressFeature: app.progressFeature, weightEntryFeature: app.weightEntryFeature,
                                         measurementsFeature: app.measurementsFeature)
        let range = try named.map { try progress.range(named: $0.name) } ?? app.progressFeature.selectedProgressRange
        let data = try await app.progressFeature.prepare(range: range)
        let unit = app.weightEntryFeature.unit
        var sections: [ReportPage.Section] = []

        // The weight: the chart `export chart.svg` draws, and the check-in's figures as `today` gives them.
        let checkIn = app.weightEntryFeature.checkIn()
        var weight = ReportPage.Section(title: "Weight, \(data.periodTitle)", blocks: [])
        if data.points.isEmpty {
            weight.blocks.append(.paragraph("No weigh-ins in \(data.range.title): nothing to draw. 'weigh 82.4' records one; a longer range, such as 'all', may hold some."))
        } else {
            let title = "Trend, \(data.periodTitle) (\(DayNumber.string(data.points[0].day)) – \(DayNumber.string(data.today)))"
            let svg = SVGChart(scale: .weight(app.progressFeature.selectedWeightUnit)).render(data, title: title)
            weight.blocks.append(.chart(svg: svg, alternative: Self.weightAlternative(data, checkIn: checkIn, unit: unit)))
        }
        weight.blocks.append(.screen(Self.checkInText(checkIn, unit: unit)))
        sections.append(weight)

        // The period's figures beside the one before, as `summary` gives them.
        if let periods = app.weightEntryFeature.comparedPeriods(named: range.rawValue) ?? app.weightEntryFeature.comparedPeriods(named: "year") {
            let summary = try await SummaryViewModel(summaryFeature: app.summaryFeature).show(periods, style: .plain)
            sections.append(ReportPage.Section(title: "Summary", blocks: [.screen(summary.text)]))
        }

        // Body fat, lean mass and each tape measure measured, each with its trend.
        var body = ReportPage.Section(title: "Body", blocks: [])
        let measures: [ProgressMeasure] = [.bodyFat, .leanMass] + BodyMeasure.allCases.map { .tape($0) }
        for measure in measures {
            let shown = try await progress.measured(measure, range: range.rawValue)
            guard let first = shown.data.points.first else { continue }
            let name = measure.name.prefix(1).uppercased() + measure.name.dropFirst()
            let title = "\(name), \(shown.data.range.title) (\(DayNumber.string(first.day)) – \(DayNumber.string(shown.data.today)))"
            let svg = SVGChart(scale: shown.scale).render(shown.data, title: title)
            var alternative = "\(name): \(shown.data.points.count) days measured"
            if let latest = shown.data.latestTrendKilograms { alternative += ", trend now \(shown.scale.format(latest))" }
            if let change = shown.data.changeKilograms { alternative += ", change \(shown.scale.format(change)) over the range" }
            body.blocks.append(.chart(svg: svg, alternative: alternative + "."))
            if let ratio = shown.waistToHeight { body.blocks.append(.paragraph(ratio)) }
        }
        if !body.blocks.isEmpty { sections.append(body) }

        // Each habit: `habit show`'s calendar and figures, Loop's strength and weekday charts.
        let habits = app.habitsFeature.habits.filter { !$0.archived }.prefix(Self.habitLimit)
        if !habits.isEmpty {
            var section = ReportPage.Section(title: "Habits", blocks: [])
            let screen = HabitsViewModel(habitsFeature: app.habitsFeature, insightsFeature: app.insightsFeature, weightUnit: unit)
            for habit in habits {
                let detail = try app.habitsFeature.detail(of: habit.name, days: 60)
                let shown = try await screen.show(habit, style: .plain)
                section.blocks.append(.heading(habit.name))
                section.blocks.append(.screen(shown.text))
                let strength = detail.summary.strength
                section.blocks.append(.chart(svg: HabitReportCharts.strength(detail.strengths, name: habit.name),
                                             alternative: "\(habit.name): strength over the last \(detail.strengths.count) days, now \(Int((strength * 100).rounded())) %; "
                                                + "streak \(detail.summary.currentStreak) days, best \(detail.summary.bestStreak)."))
                let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
                section.blocks.append(.chart(svg: HabitReportCharts.weekdays(detail.doneByWeekday, name: habit.name),
                                             alternative: "\(habit.name), days done by weekday over the last year: "
                                                + zip(weekdays, detail.doneByWeekday).map { "\($0) \($1)" }.joined(separator: ", ") + "."))
            }
            sections.append(section)
        }

        // The insights, every test and its false-discovery rate, as `insights all` says them.
        let insights = try await InsightsViewModel(insightsFeature: app.insightsFeature, weightEntryFeature: app.weightEntryFeature)
            .show(range: nil, everything: true, style: .plain)
        sections.append(ReportPage.Section(title: "Insights", blocks: [
            .paragraph("Associations in your own data, each tested; the false-discovery rate across all of them is held at 10 % "
                       + "(Benjamini–Hochberg), and an association is never proof of a cause."),
            .screen(insights.text),
        ]))

        let made = DateText(timeZone: app.changeHistoryFeature.calendar.timeZone).local(app.weightEntryFeature.now)
        let page = ReportPage(title: "Trend, \(data.range.title)", made: made,
                              dataDirectoryName: app.settingsFeature.dataDirectory.lastPathComponent, sections: sections)
        try await app.weightImportFeature.writeDocument(page.html(), to: url)
        let charts = sections.flatMap(\.blocks).filter { if case .chart = $0 { true } else { false } }.count
        return CommandOutput(Reported(file: url.path, charts: charts, habits: habits.count, range: data.range.title), style: .plain)
    }

    /// What the weight chart shows, in words: its days, the trend's start and end, the lowest and highest, the goal.
    static func weightAlternative(_ data: WeightHistoryData, checkIn: CheckIn, unit: WeightUnit) -> String {
        var words = "Weight and trend over \(data.range.title), \(data.points.count) days weighed"
        if let first = data.points.first, let last = data.points.last {
            words += "; the trend went from \(unit.format(first.smoothedKilograms)) to \(unit.format(last.smoothedKilograms))"
        }
        if let low = data.minimumKilograms, let high = data.maximumKilograms { words += "; lowest \(unit.format(low)), highest \(unit.format(high))" }
        if let trend = checkIn.trendKilograms { words += "; trend today \(unit.format(trend))" }
        if let goal = data.goalKilograms { words += "; goal \(unit.format(goal))" }
        if let day = data.projectedGoalDay { words += ", projected for \(DayNumber.string(day))" }
        return words + "."
    }

    /// The check-in's figures as `today` words them: the latest weigh-in, the trend, the way to the goal.
    static func checkInText(_ checkIn: CheckIn, unit: WeightUnit) -> String {
        var lines = ["Today, \(DayNumber.longName(checkIn.day))"]
        if let latest = checkIn.latestKilograms { lines.append("  weight   \(unit.format(latest))") }
        if let trend = checkIn.trendKilograms { lines.append("  trend    \(unit.format(trend))") }
        if let toGoal = checkIn.toGoalKilograms { lines.append("  to goal  \(unit.format(abs(toGoal)))") }
        if let bmi = checkIn.bodyMassIndex { lines.append("  BMI      \(WeightUnit.fixed(bmi.value, decimals: 1))") }
        if lines.count == 1 { lines.append("  no weigh-ins yet") }
        return lines.joined(separator: "\n")
    }

    /// `export FILE.html`: the page written, and what it holds.
    struct Reported: CommandAnswer {
        let file: String
        let charts: Int
        let habits: Int
        /// The text only: the range's name.
        let range: String

        enum CodingKeys: String, CodingKey { case file, charts, habits }

        func text(style: TerminalStyle) -> String {
            "Wrote the report of \(range) (\(counted(charts, "chart")), \(counted(habits, "habit"))) to \(TerminalText.visible(file)); "
                + "open it in a browser, or print it."
        }
    }
}
