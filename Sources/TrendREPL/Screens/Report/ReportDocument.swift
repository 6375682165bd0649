import Foundation
import Habits
import Insights
import Overview
import Progress
import Vocabulary
import WeightLog

/// The one writer of the report (DESIGN §10): the typed `Report` as an HTML document, escaped in one place
/// (`text`). Figures are tables, calendars are grids with each month named over its own first week, prose wraps,
/// and nothing is laid out with spaces. The first page says it all for a clinician: the person, the period, start
/// and end, the change, the rate, BMI with its height, waist and body fat, each habit in a line, the weight chart
/// and a glossary. Charts are SVG with a text alternative; marks differ in shape as well as colour.
struct ReportDocument {
    let report: Report
    /// When it was made, as a person reads it.
    let made: String

    private var unit: WeightUnit { report.unit }

    /// The page's text: every string that comes from data goes through here.
    static func text(_ value: String) -> String { SVGChart.escaped(value) }

    func html() -> String {
        let title = "Weight and habits" + (report.personName.map { " of \($0)" } ?? "") + ", \(report.periodTitle)"
        var page = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="generator" content="Trend">
            <title>\(Self.text(title))</title>
            <style>\(Self.style)</style>
            </head>
            <body>
            <header><h1>\(Self.text(title))</h1>
            <p class="made">\(Self.text(DayNumber.longName(report.firstDay...report.lastDay))). Made \(Self.text(made)) by Trend.</p></header>
            <nav aria-label="Contents"><ol>
            """
        let sections = [("glance", "At a glance"), ("summary", "The period against the one before")]
            + (report.measures.isEmpty ? [] : [("body", "Body")]) + (report.habits.isEmpty ? [] : [("habits", "Habits")])
            + [("insights", "Insights")]
        page += sections.map { "<li><a href=\"#\($0.0)\">\(Self.text($0.1))</a></li>" }.joined() + "</ol></nav>\n<main>\n"
        page += glance() + summary() + body() + habits() + insights()
        return page + "</main>\n</body>\n</html>\n"
    }

    // MARK: The first page

    private func glance() -> String {
        var rows: [(String, String)] = [("Period", DayNumber.longName(report.firstDay...report.lastDay) + " (\(report.periodTitle))")]
        var person: [String] = []
        if let name = report.personName { person.append(name) }
        if let band = report.ageBand { person.append("aged \(band)") }
        person.append(report.heightMetres.map { "height \(WeightUnit.fixed($0, decimals: 2)) m" } ?? "height not set ('set height 180 cm' gives the BMI)")
        if let sex = report.sex { person.append(sex.rawValue) }
        rows.append(("Person", person.joined(separator: ", ")))
        let now = report.summary?.now
        if let now { rows.append(("Weigh-ins", "\(counted(now.weighIns, "weigh-in")) on \(counted(now.daysWeighed, "day"))")) }
        if let start = report.startTrendKilograms { rows.append(("Start (trend)", unit.format(start))) }
        if let end = report.endTrendKilograms { rows.append(("End (trend)", unit.format(end))) }
        rows.append(("Change of the trend", report.weight.changeKilograms.map { unit.formatChange($0) } ?? "not yet: one weighed day"))
        if let rate = now?.weeklyRateKilograms {
            rows.append(("Weekly rate", "\(unit.formatChange(rate, decimals: 2)) a week"))
        } else {
            rows.append(("Weekly rate", now?.rateShortfall?.description ?? "none yet"))
        }
        if let low = now?.lowestKilograms, let lowDay = now?.lowestDay, let high = now?.highestKilograms, let highDay = now?.highestDay {
            rows.append(("Lowest and highest day", "\(unit.format(low)) (\(DayNumber.longName(lowDay))); \(unit.format(high)) (\(DayNumber.longName(highDay)))"))
        }
        if let bmi = report.bodyMassIndex, let metres = report.heightMetres {
            rows.append(("BMI", "\(WeightUnit.fixed(bmi.value, decimals: 1)) (\(bmi.whoClass.rawValue)), of the end trend and a height of \(WeightUnit.fixed(metres, decimals: 2)) m"))
        }
        for measure in report.measures {
            guard let latest = measure.data.latestTrendKilograms else { continue }
            let value = ChartScale.of(measure.measure, weightUnit: unit, lengthUnit: report.lengthUnit).format(latest)
            let change = measure.data.changeKilograms.map { ", change " + measureChange(measure, $0) } ?? ""
            rows.append((measure.measure.name.prefix(1).uppercased() + measure.measure.name.dropFirst(), value + " (trend)" + change))
        }
        rows.append(("Goal", report.goalKilograms.map { unit.format($0) } ?? "none set"))
        var html = "<section id=\"glance\">\n<h2>At a glance</h2>\n" + table(rows, caption: "Key figures, \(report.periodTitle)")
        if !report.habits.isEmpty {
            let habitRows = report.habits.map { part -> [String] in
                let summary = part.detail.summary, habit = summary.habit
                let share = part.due > 0 ? " (\(Int((Double(part.done) / Double(part.due) * 100).rounded())) %)" : ""
                return [habit.name, habit.schedule.text + (habit.kind == .yesNo ? "" : ", " + habit.kind.text(unit: habit.unit)),
                        part.due > 0 ? "\(part.done) of \(part.due)\(share)" : "none due",
                        counted(summary.currentStreak, "day") + " (best \(summary.bestStreak))", "\(Int((summary.strength * 100).rounded())) %"]
            }
            html += grid(["Habit", "Schedule", "Due days done", "Streak", "Strength"], habitRows, caption: "Each habit, \(report.periodTitle)")
        }
        html += weightChart() + glossary()
        return html + "</section>\n"
    }

    private func weightChart() -> String {
        let data = report.weight
        guard let first = data.points.first else { return "<p>No weigh-ins in \(Self.text(report.periodTitle)): nothing to draw. 'weigh 82.4' records one.</p>\n" }
        var words = "Weight and trend, \(report.periodTitle): \(counted(data.points.count, "day")) weighed"
        if let start = report.startTrendKilograms, let end = report.endTrendKilograms, let change = data.changeKilograms {
            words += "; the trend went from \(unit.format(start)) to \(unit.format(end)) (\(unit.formatChange(change)))"
        }
        if let low = data.minimumKilograms, let high = data.maximumKilograms { words += "; lowest \(unit.format(low)), highest \(unit.format(high))" }
        if let goal = data.goalKilograms { words += "; goal \(unit.format(goal))" }
        if let day = data.projectedGoalDay { words += ", projected for \(DayNumber.longName(day))" }
        let title = "Trend, \(report.periodTitle) (\(DayNumber.string(first.day)) – \(DayNumber.string(data.today)))"
        return figure(SVGChart(scale: .weight(unit)).render(data, title: title), words + ".")
    }

    // MARK: The period against the one before

    private func summary() -> String {
        var html = "<section id=\"summary\">\n<h2>The period against the one before</h2>\n"
        guard let summary = report.summary else { return html + "<p>Nothing to compare yet.</p>\n</section>\n" }
        let previous = summary.periods.previous
        func column(_ figures: WeightPeriodFigures) -> [String] {
            [String(figures.weighIns), String(figures.daysWeighed),
             figures.trendChangeKilograms.map { unit.formatChange($0) } ?? "—",
             figures.weeklyRateKilograms.map { unit.formatChange($0, decimals: 2) + " a week" } ?? "too few days",
             figures.lowestKilograms.map(unit.format) ?? "—", figures.highestKilograms.map(unit.format) ?? "—"]
        }
        let names = ["Weigh-ins", "Days weighed", "Change of the trend", "Weekly rate", "Lowest day", "Highest day"]
        let now = column(summary.now)
        if report.hasPeriodBefore {
            let before = column(summary.before)
            html += grid(["", report.periodTitle, DayNumber.longName(previous)], names.indices.map { [names[$0], now[$0], before[$0]] },
                         caption: "This period (\(DayNumber.longName(summary.periods.current))) and the one before")
        } else {
            html += grid(["", report.periodTitle], names.indices.map { [names[$0], now[$0]] }, caption: "This period")
            html += "<p>Nothing was weighed in the \(counted(previous.count, "day")) before it (\(Self.text(DayNumber.longName(previous)))), so there is no period to compare with.</p>\n"
        }
        if summary.habits.due > 0 {
            html += "<p>Habits: \(summary.habits.done) of \(counted(summary.habits.due, "due day")) done.</p>\n"
        }
        return html + "</section>\n"
    }

    // MARK: Body

    private func body() -> String {
        guard !report.measures.isEmpty else { return "" }
        var html = "<section id=\"body\">\n<h2>Body</h2>\n<div class=\"pair\">\n"
        for measure in report.measures {
            guard let first = measure.data.points.first else { continue }
            let name = measure.measure.name.prefix(1).uppercased() + measure.measure.name.dropFirst()
            let scale = ChartScale.of(measure.measure, weightUnit: unit, lengthUnit: report.lengthUnit)
            var words = "\(name), \(report.periodTitle): \(counted(measure.data.points.count, "day")) measured"
            if let latest = measure.data.latestTrendKilograms { words += ", trend now \(scale.format(latest))" }
            if let change = measure.data.changeKilograms { words += ", change \(measureChange(measure, change))" }
            if let ratio = measure.waistToHeight { words += "; waist to height \(WeightUnit.fixed(ratio, decimals: 2)) (under 0.5 is the line to keep under)" }
            let title = "\(name), \(report.periodTitle) (\(DayNumber.string(first.day)) – \(DayNumber.string(measure.data.today)))"
            html += figure(SVGChart(scale: scale).render(measure.data, title: title), words + ".")
        }
        return html + "</div>\n</section>\n"
    }

    // MARK: Habits

    private func habits() -> String {
        guard !report.habits.isEmpty else { return "" }
        var html = "<section id=\"habits\">\n<h2>Habits</h2>\n" + legend()
        for part in report.habits {
            let summary = part.detail.summary, habit = summary.habit
            html += "<article class=\"habit\">\n<h3>\(Self.text(habit.name))</h3>\n"
            html += "<p class=\"facts\">\(Self.text(habit.schedule.text)); \(part.due > 0 ? "\(part.done) of \(counted(part.due, "due day")) done" : "none due") in the period; "
                + "streak \(counted(summary.currentStreak, "day")), best \(counted(summary.bestStreak, "day")); strength \(Int((summary.strength * 100).rounded())) %.</p>\n"
            html += "<div class=\"side\">" + calendar(part.detail)
            html += figure(HabitReportCharts.strength(part.detail.strengths, name: habit.name),
                           "\(habit.name): strength over the last \(counted(part.detail.strengths.count, "day")), now \(Int((summary.strength * 100).rounded())) %.",
                           small: true)
            html += "</div></article>\n"
        }
        return html + "</section>\n"
    }

    /// A habit's days as a grid: a row per weekday, a column per week, each month named over its own first week.
    private func calendar(_ detail: HabitDetail) -> String {
        let statusByDay = Dictionary(uniqueKeysWithValues: detail.days.map { ($0.day, $0.status) })
        guard let firstDay = detail.days.first(where: { $0.status != .beforeStart })?.day, let lastDay = detail.days.last?.day else { return "" }
        let firstMonday = firstDay - DayNumber.weekdayFromMonday(firstDay)
        let weeks = (lastDay - firstMonday) / 7 + 1
        // The month over a week is the month its first shown day belongs to, said where the month changes.
        var header = "<tr><th scope=\"col\"></th>"
        var lastMonth: Int?
        for week in 0..<weeks {
            let shown = max(firstMonday + week * 7, firstDay)
            let month = DayNumber.civil(shown).month
            header += "<th scope=\"col\">\(month != lastMonth ? String(DayNumber.shortLabel(shown).prefix(3)) : "")</th>"
            lastMonth = month
        }
        var rows = ""
        for weekday in 0..<7 {
            rows += "<tr><th scope=\"row\">\(DayNumber.weekdayName(firstMonday + weekday).prefix(2))</th>"
            for week in 0..<weeks {
                let day = firstMonday + week * 7 + weekday
                guard let status = statusByDay[day], status != .beforeStart, status != .future else { rows += "<td></td>"; continue }
                let (mark, name) = Self.mark(status)
                rows += "<td class=\"\(status.rawValue)\" title=\"\(DayNumber.string(day)): \(name)\"><span class=\"mark\">\(mark)</span>\(DayNumber.civil(day).day)</td>"
            }
            rows += "</tr>\n"
        }
        return "<table class=\"calendar\"><caption>\(Self.text(detail.summary.habit.name)), \(DayNumber.longName(firstDay...lastDay))</caption>\n"
            + "<thead>\(header)</tr></thead>\n<tbody>\n\(rows)</tbody></table>\n"
    }

    /// A day's mark and its name: the same shapes as `habit show`.
    static func mark(_ status: HabitDayStatus) -> (String, String) {
        switch status {
        case .done: ("■", "done")
        case .auto: ("▪", "covered")
        case .skipped: ("–", "skipped")
        case .no: ("○", "no")
        case .partly: ("◐", "part done")
        case .overLimit: ("▲", "over the limit")
        case .missed: ("×", "missed")
        case .notDue: ("·", "not due")
        case .pending: ("□", "open")
        case .beforeStart, .future: ("", "")
        }
    }

    private func legend() -> String {
        let marks: [HabitDayStatus] = [.done, .auto, .skipped, .no, .partly, .overLimit, .missed, .notDue, .pending]
        return "<p class=\"legend\">" + marks.map { status in
            let (mark, name) = Self.mark(status)
            return "<span class=\"\(status.rawValue)\"><span class=\"mark\">\(mark)</span> \(name)</span>"
        }.joined(separator: " ") + "</p>\n"
    }

    // MARK: Insights

    private func insights() -> String {
        var html = "<section id=\"insights\">\n<h2>Insights, \(Self.text(report.periodTitle))</h2>\n"
        html += "<p>Over \(Self.text(DayNumber.longName(report.firstDay...report.lastDay))): associations in this person's own data, each tested; "
            + "at most 10 % of the findings are expected to be chance (Benjamini–Hochberg), and none is proof of a cause.</p>\n"
        let reported = report.insights.reported
        if reported.isEmpty {
            html += "<p>Of \(counted(report.insights.tested.count, "association")) tested, none is clear enough to report.</p>\n"
        } else {
            html += "<ul>\n" + reported.map { "<li>\(Self.text($0.sentence(unit: unit)))</li>\n" }.joined() + "</ul>\n"
            html += "<p>\(reported.count) of \(counted(report.insights.tested.count, "association")) tested hold.</p>\n"
        }
        let untested = Dictionary(grouping: report.insights.shortages.filter { $0.habit != nil }, by: { $0.habit ?? "" })
        if !untested.isEmpty {
            html += "<ul class=\"untested\">\n" + untested.sorted { $0.key < $1.key }.map { habit, shortages in
                "<li>\(Self.text(habit)) cannot be tested yet: " + Self.text(shortages.map(\.explanation).joined(separator: "; ")) + ".</li>\n"
            }.joined() + "</ul>\n"
        }
        return html + "</section>\n"
    }

    // MARK: Glossary

    private func glossary() -> String {
        let terms: [(String, String)] = [
            ("Trend", "a smoothed weight: each day it moves a tenth of the way toward the day's weight, so a single day's water or meal barely moves it."),
            ("Change of the trend", "the trend at the end of a period minus the trend just before it."),
            ("Weekly rate", "the slope of a straight line through the weighed days of the last two weeks, times seven; it needs 8 weighed days over 2 weeks."),
            ("BMI", "the trend in kilograms over the height in metres squared, with its WHO adult class."),
            ("Due days done", "the days a habit's schedule asked for, and how many of them were done."),
            ("Streak", "consecutive days done, covered or skipped."),
            ("Covered", "a day not logged that needed nothing: a quota already met for its week, or an at-most habit with nothing over its limit."),
            ("Skipped", "a day set aside: it keeps a streak going and leaves strength as it was."),
            ("Strength", "Loop Habit Tracker's score: it rises with each day done and fades with each day missed, weighted toward recent weeks."),
            ("Insight", "an association between a habit and the weight that holds at 95 % across this person's own days; never proof of a cause."),
        ]
        return "<div class=\"glossary\">\n<h3>What the words mean</h3>\n<dl>\n"
            + terms.map { "<div><dt>\(Self.text($0.0))</dt><dd>\(Self.text($0.1))</dd></div>\n" }.joined() + "</dl>\n</div>\n"
    }

    // MARK: Parts

    /// An SVG document made an inline chart: no XML declaration, `role="img"`, its text alternative as its
    /// accessible name and its `<title>`, and scaled to the width it has.
    static func labelled(_ svg: String, _ alternative: String) -> String {
        var body = svg
        if body.hasPrefix("<?xml"), let end = body.firstIndex(of: "\n") { body = String(body[body.index(after: end)...]) }
        guard let open = body.range(of: "<svg ") else { return body }
        let attributes = "<svg role=\"img\" aria-label=\"\(text(alternative))\" preserveAspectRatio=\"xMidYMid meet\" "
        body.replaceSubrange(open, with: attributes)
        // The `width`/`height` attributes stay (the CSS scales it down); the title follows the opening tag.
        if let close = body.range(of: ">", range: open.lowerBound..<body.endIndex) {
            body.insert(contentsOf: "<title>\(text(alternative))</title>", at: close.upperBound)
        }
        return body
    }


    private func measureChange(_ measure: MeasureHistory, _ change: Double) -> String {
        switch measure.measure {
        case .bodyFat: (change >= 0 ? "+" : "−") + BodyFat.text(abs(change))
        case .leanMass, .fatMass: unit.formatChange(change)
        case .tape: report.lengthUnit.formatChange(change)
        }
    }

    /// A table of names and values, two pairs a row (the first page holds more that way).
    private func table(_ rows: [(String, String)], caption: String) -> String {
        let pairs = stride(from: 0, to: rows.count, by: 2).map { Array(rows[$0..<min($0 + 2, rows.count)]) }
        return "<table class=\"figures\"><caption>\(Self.text(caption))</caption>\n<tbody>\n"
            + pairs.map { pair in
                "<tr>" + pair.map { "<th scope=\"row\">\(Self.text($0.0))</th><td>\(Self.text($0.1))</td>" }.joined()
                    + (pair.count == 1 ? "<td></td><td></td>" : "") + "</tr>\n"
            }.joined() + "</tbody></table>\n"
    }

    /// A table with a header row.
    private func grid(_ header: [String], _ rows: [[String]], caption: String) -> String {
        "<table class=\"grid\"><caption>\(Self.text(caption))</caption>\n<thead><tr>"
            + header.map { "<th scope=\"col\">\(Self.text($0))</th>" }.joined() + "</tr></thead>\n<tbody>\n"
            + rows.map { row in "<tr>" + row.enumerated().map { $0.offset == 0 ? "<th scope=\"row\">\(Self.text($0.element))</th>" : "<td>\(Self.text($0.element))</td>" }.joined() + "</tr>\n" }.joined()
            + "</tbody></table>\n"
    }

    private func figure(_ svg: String, _ alternative: String, small: Bool = false) -> String {
        "<figure\(small ? " class=\"small\"" : "")>\(Self.labelled(svg, alternative))<figcaption>\(Self.text(alternative))</figcaption></figure>\n"
    }

    /// Light on paper and by default, dark on a dark screen; A4 or Letter with margins, nothing wider than the page,
    /// no chart, table row or habit split across pages, a page break only before a section.
    static let style = """
        :root { color-scheme: light dark; --text: #1e1e1e; --muted: #555; --page: #fdfdfb; --card: #ffffff; --rule: #d0d0d0;
                --done: #1b7a33; --skip: #1b6f8a; --miss: #b3261e; --part: #8a4b00; }
        @media screen and (prefers-color-scheme: dark) {
          :root { --text: #e8e8e8; --muted: #b0b0b0; --page: #17191c; --card: #f4f4f2; --rule: #444;
                  --done: #5cc97a; --skip: #6cc4e0; --miss: #ff8a80; --part: #f0b060; } }
        * { box-sizing: border-box; }
        body { margin: 0 auto; max-width: 860px; padding: 24px; background: var(--page); color: var(--text);
               font: 15px/1.45 Helvetica, Arial, sans-serif; overflow-wrap: anywhere; }
        h1 { margin: 0 0 4px; font-size: 24px; }
        h2 { margin: 24px 0 8px; padding-bottom: 4px; border-bottom: 1px solid var(--rule); font-size: 19px; }
        h3 { margin: 14px 0 4px; font-size: 15px; }
        .made, .facts, figcaption, caption, .legend { color: var(--muted); font-size: 13px; }
        nav ol { margin: 8px 0; padding-left: 20px; columns: 2; font-size: 13px; }
        nav a { color: inherit; }
        table { width: 100%; max-width: 100%; border-collapse: collapse; table-layout: fixed; margin: 6px 0 12px; }
        caption { text-align: left; padding-bottom: 2px; }
        th, td { padding: 3px 6px; border-bottom: 1px solid var(--rule); text-align: left; vertical-align: top; }
        table.figures th { width: 18%; font-weight: 600; } table.figures td { width: 32%; }
        table.grid thead th { font-weight: 600; }
        table.calendar { width: auto; table-layout: auto; font-size: 11px; }
        table.calendar th, table.calendar td { padding: 1px 3px; border: none; text-align: center; white-space: nowrap; }
        .mark { display: inline-block; min-width: 1.1em; font-weight: bold; }
        .done .mark, .auto .mark { color: var(--done); } .skipped .mark { color: var(--skip); }
        .missed .mark, .no .mark, .overLimit .mark { color: var(--miss); } .partly .mark { color: var(--part); }
        .notDue { color: var(--muted); }
        .legend > span { white-space: nowrap; margin-right: 10px; }
        figure { margin: 8px 0 12px; }
        figure svg { display: block; width: 100%; max-width: 100%; height: auto; background: var(--card); border-radius: 4px; }
        figure.small svg { max-height: 110px; }
        .side { display: flex; flex-wrap: wrap; gap: 12px; align-items: flex-start; }
        .side > table.calendar { flex: 0 0 auto; margin: 0; }
        .side > figure { flex: 1 1 260px; min-width: 0; margin: 0; }
        .pair { display: grid; grid-template-columns: repeat(auto-fit, minmax(300px, 1fr)); gap: 10px; }
        .pair > figure { min-width: 0; margin: 0; }
        .glossary dl { margin: 4px 0; columns: 2; column-gap: 18px; font-size: 12px; }
        .glossary dl > div { break-inside: avoid; margin-bottom: 3px; }
        dt { font-weight: 600; display: inline; } dt::after { content: ": "; } dd { display: inline; margin: 0; }
        figure, tr, table.calendar, .habit, dt, dd { break-inside: avoid; page-break-inside: avoid; }
        h2, h3 { break-after: avoid; page-break-after: avoid; }
        @page { margin: 12mm; }
        @media print {
          body { max-width: none; padding: 0; background: #fff; color: #000; font-size: 10pt; }
          nav { display: none; }
          section.page { break-before: page; page-break-before: always; }
          figure svg { background: #fff; border: 1px solid #ccc; max-height: 52mm; }
          #glance figure svg { max-height: 52mm; }
          h2 { margin: 14px 0 6px; } h3 { margin: 8px 0 2px; }
          .glossary dl { font-size: 8.5pt; line-height: 1.3; }
          table.calendar { font-size: 7.5pt; line-height: 1.15; }
          table.figures, table.grid { font-size: 9pt; }
          figure.small svg { max-height: 24mm; }
          .pair { grid-template-columns: 1fr 1fr; }
          table.figures th, table.figures td, table.grid th, table.grid td { padding: 1px 4px; }
          figure.small svg { max-height: 28mm; }
        }
        """
}
