import Foundation
import Progress
import WeightLog

/// The progress chart as a standalone SVG to share (`export chart.svg
/// [RANGE]`): the same axis as the terminal chart (`ChartAxis`: round ticks
/// in the person's unit, years when the range needs them, a goal beyond the
/// data marked at the edge), the daily weights as dots, the trend as a line
/// (broken over a gap of more than a week), the projection and the goal
/// dashed, and a title with the range and its dates. Opens in any browser.
struct SVGChart {
    let scale: ChartScale
    /// A habit whose done days are marked along the foot of the plot (`export chart.svg 6m with Gym`).
    var habit: (name: String, days: Set<Int>)?
    static let width = 800.0
    static let height = 420.0
    /// The plot area inside the margins.
    static let plot = (left: 78.0, top: 56.0, right: 780.0, bottom: 360.0)
    static let trendColor = "#1b9e3e"
    static let weightColor = "#2b7bb9"
    static let goalColor = "#b8327a"
    static let todayColor = "#9a9a9a"

    /// Where a day and a weight land in the picture, for this data's axis.
    struct Layout {
        let axis: ChartAxis
        func x(_ day: Int) -> Double {
            plot.left + Double(day - axis.startDay) / Double(axis.span) * (plot.right - plot.left)
        }
        func y(_ kilograms: Double) -> Double { yValue(axis.value(kilograms)) }
        func yValue(_ value: Double) -> Double {
            plot.top + (axis.upper - value) / (axis.upper - axis.lower) * (plot.bottom - plot.top)
        }
    }

    func layout(_ data: WeightHistoryData) -> Layout? {
        ChartAxis(data, scale: scale).map(Layout.init)
    }

    /// - Parameter empty: what the picture says when the range holds nothing to draw.
    func render(_ data: WeightHistoryData, title: String, empty: String = "No weigh-ins in this range.") -> String {
        var svg = """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(Self.width))" height="\(Int(Self.height))" \
            viewBox="0 0 \(Int(Self.width)) \(Int(Self.height))" font-family="Helvetica, Arial, sans-serif" font-size="13">
            <rect width="100%" height="100%" fill="#ffffff"/>
            <text x="\(Self.plot.left)" y="30" font-size="18" font-weight="bold" fill="#222222">\(Self.escaped(title))</text>

            """
        guard let layout = layout(data) else {
            return svg + "<text x=\"\(Self.plot.left)\" y=\"120\" fill=\"#555555\">\(Self.escaped(empty))</text>\n</svg>\n"
        }
        let axis = layout.axis
        let plot = Self.plot
        // Grid and y ticks.
        for tick in axis.ticks {
            let y = Self.number(layout.yValue(tick.value))
            svg += "<line x1=\"\(plot.left)\" y1=\"\(y)\" x2=\"\(plot.right)\" y2=\"\(y)\" stroke=\"#e4e4e4\"/>\n"
            svg += "<text x=\"\(plot.left - 8)\" y=\"\(y)\" dy=\"4\" text-anchor=\"end\" fill=\"#444444\">\(Self.escaped(tick.label))</text>\n"
        }
        svg += "<text x=\"\(plot.left - 8)\" y=\"\(plot.top - 10)\" text-anchor=\"end\" fill=\"#444444\">\(Self.escaped(scale.name))</text>\n"
        svg += "<line x1=\"\(plot.left)\" y1=\"\(plot.bottom)\" x2=\"\(plot.right)\" y2=\"\(plot.bottom)\" stroke=\"#888888\"/>\n"
        svg += "<line x1=\"\(plot.left)\" y1=\"\(plot.top)\" x2=\"\(plot.left)\" y2=\"\(plot.bottom)\" stroke=\"#888888\"/>\n"
        // X ticks: six dates at most, spread over the span.
        let days = axis.tickDays(slots: min(6, axis.span + 1))
        let names = axis.dayLabels(days)
        let slots = days.count
        for (slot, day) in days.enumerated() where !names[slot].isEmpty {
            let x = Self.number(layout.x(day))
            svg += "<line x1=\"\(x)\" y1=\"\(plot.bottom)\" x2=\"\(x)\" y2=\"\(plot.bottom + 5)\" stroke=\"#888888\"/>\n"
            // The first and last labels keep inside the picture.
            let anchor = slot == 0 ? "start" : (slot == slots - 1 ? "end" : "middle")
            svg += "<text x=\"\(x)\" y=\"\(plot.bottom + 20)\" text-anchor=\"\(anchor)\" fill=\"#444444\">\(Self.escaped(names[slot]))</text>\n"
        }
        // The goal: a dashed rule inside (labelled over the data, once it is drawn), its value at the edge outside.
        var goalLabel = ""
        if let goal = axis.goal {
            switch axis.goalPlacement {
            case .inside:
                let y = Self.number(layout.yValue(goal))
                svg += "<line x1=\"\(plot.left)\" y1=\"\(y)\" x2=\"\(plot.right)\" y2=\"\(y)\" stroke=\"\(Self.goalColor)\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>\n"
                goalLabel = "<text x=\"\(plot.left + 6)\" y=\"\(Self.number(layout.yValue(goal) - 5))\" fill=\"\(Self.goalColor)\" stroke=\"#ffffff\" stroke-width=\"3\" paint-order=\"stroke\">\(Self.escaped(axis.goalLabel ?? ""))</text>\n"
            case .above, .below:
                let y = axis.goalPlacement == .above ? plot.top + 14 : plot.bottom - 6
                svg += "<text x=\"\(plot.right)\" y=\"\(y)\" text-anchor=\"end\" fill=\"\(Self.goalColor)\">\(Self.escaped(axis.goalMarker ?? ""))</text>\n"
            case .none:
                break
            }
        }
        // Today: a thin rule across the plot, so the eye finds where the past ends and the projection begins.
        let todayX = Self.number(layout.x(data.today))
        svg += "<line x1=\"\(todayX)\" y1=\"\(plot.top)\" x2=\"\(todayX)\" y2=\"\(plot.bottom)\" stroke=\"\(Self.todayColor)\" stroke-width=\"1\"/>"
            + "<text x=\"\(todayX)\" y=\"\(plot.top - 4)\" text-anchor=\"\(axis.ahead > 0 ? "middle" : "end")\" fill=\"\(Self.todayColor)\">today</text>\n"
        // The daily weights, thinned to the pixels the plot has (ten years of days are a dot a column, as the
        // terminal chart keeps a cell a column): a column's days drawn as their mean, the trend as it stood at the last.
        let points = Self.thinned(data.points, layout: layout)
        for point in points {
            svg += "<circle cx=\"\(Self.number(layout.x(point.day)))\" cy=\"\(Self.number(layout.y(point.kilograms)))\" r=\"2.5\" fill=\"\(Self.weightColor)\" fill-opacity=\"0.75\"/>\n"
        }
        // The trend, one polyline per run of days without a gap longer than a week.
        var runs: [[ProgressPoint]] = []
        for point in points {
            if let last = runs.last?.last, point.day - last.day <= ChartRenderer.longestBridgedGap {
                runs[runs.count - 1].append(point)
            } else {
                runs.append([point])
            }
        }
        for run in runs {
            let points = run.map { "\(Self.number(layout.x($0.day))),\(Self.number(layout.y($0.smoothedKilograms)))" }
            let shape = run.count == 1
                ? "<circle cx=\"\(Self.number(layout.x(run[0].day)))\" cy=\"\(Self.number(layout.y(run[0].smoothedKilograms)))\" r=\"2\" fill=\"\(Self.trendColor)\"/>"
                : "<polyline points=\"\(points.joined(separator: " "))\" fill=\"none\" stroke=\"\(Self.trendColor)\" stroke-width=\"3\" stroke-linejoin=\"round\"/>"
            svg += shape + "\n"
        }
        // The projection, dashed: from where the trend line ends to the fitted line's point `ahead` days on (the
        // trend lags the weight; the line it meets is the one the weekly rate and the goal date come from).
        if axis.ahead > 0, let last = data.points.last {
            let from = (layout.x(last.day), layout.y(last.smoothedKilograms))
            let target = data.projection[axis.ahead - 1]
            svg += "<line x1=\"\(Self.number(from.0))\" y1=\"\(Self.number(from.1))\" x2=\"\(Self.number(layout.x(target.day)))\" "
                + "y2=\"\(Self.number(layout.y(target.kilograms)))\" stroke=\"\(Self.trendColor)\" stroke-width=\"2\" stroke-dasharray=\"4 4\"/>\n"
        }
        svg += goalLabel
        // The legend.
        let legendY = Self.height - 22
        svg += "<circle cx=\"\(plot.left + 6)\" cy=\"\(legendY - 4)\" r=\"3\" fill=\"\(Self.weightColor)\"/>"
            + "<text x=\"\(plot.left + 14)\" y=\"\(legendY)\" fill=\"#444444\">\(Self.escaped(scale.daily))</text>\n"
        svg += "<line x1=\"\(plot.left + 110)\" y1=\"\(legendY - 4)\" x2=\"\(plot.left + 134)\" y2=\"\(legendY - 4)\" stroke=\"\(Self.trendColor)\" stroke-width=\"3\"/>"
            + "<text x=\"\(plot.left + 140)\" y=\"\(legendY)\" fill=\"#444444\">trend</text>\n"
        if axis.ahead > 0 {
            svg += "<line x1=\"\(plot.left + 200)\" y1=\"\(legendY - 4)\" x2=\"\(plot.left + 224)\" y2=\"\(legendY - 4)\" stroke=\"\(Self.trendColor)\" stroke-width=\"2\" stroke-dasharray=\"4 4\"/>"
                + "<text x=\"\(plot.left + 230)\" y=\"\(legendY)\" fill=\"#444444\">projection: line of the last \(WeightRate.windowDays / 7) weeks</text>\n"
        }
        if axis.goalPlacement == .inside {
            let x = plot.left + (axis.ahead > 0 ? 540 : 200)
            svg += "<line x1=\"\(x)\" y1=\"\(legendY - 4)\" x2=\"\(x + 24)\" y2=\"\(legendY - 4)\" stroke=\"\(Self.goalColor)\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>"
                + "<text x=\"\(x + 30)\" y=\"\(legendY)\" fill=\"#444444\">goal</text>\n"
        }
        if let habit {
            // A tick a done day, along the foot of the plot, and its name in the legend.
            for day in habit.days.sorted() where day >= axis.startDay && day <= axis.startDay + axis.span {
                svg += "<rect x=\"\(Self.number(layout.x(day) - 1.5))\" y=\"\(Self.number(plot.bottom - 9))\" width=\"3\" height=\"7\" fill=\"\(Self.trendColor)\"/>\n"
            }
            svg += "<rect x=\"\(plot.left + 410)\" y=\"\(legendY - 9)\" width=\"3\" height=\"7\" fill=\"\(Self.trendColor)\"/>"
                + "<text x=\"\(plot.left + 420)\" y=\"\(legendY)\" fill=\"#444444\">\(Self.escaped(habit.name)) done</text>\n"
        }
        return svg + "</svg>\n"
    }

    /// The points as drawn: those that fall in one pixel column of the plot made one, their weights' mean at the
    /// last day's trend; all of them when there are no more than the plot has columns.
    static func thinned(_ points: [ProgressPoint], layout: Layout) -> [ProgressPoint] {
        guard points.count > Int(plot.right - plot.left) else { return points }
        var thinned: [ProgressPoint] = []
        var column = Int.min, sum = 0.0, count = 0
        var last: ProgressPoint?
        func close() {
            guard let last, count > 0 else { return }
            thinned.append(ProgressPoint(day: last.day, kilograms: sum / Double(count), smoothedKilograms: last.smoothedKilograms))
        }
        for point in points {
            let here = Int(layout.x(point.day).rounded(.down))
            if here != column {
                close()
                (column, sum, count) = (here, 0, 0)
            }
            sum += point.kilograms
            count += 1
            last = point
        }
        close()
        return thinned
    }

    /// A coordinate with two decimals at most.
    static func number(_ value: Double) -> String {
        String(format: "%.2f", value)
    }

    /// The entity text writes for a character that means something in markup; nil for any other.
    static func entity(_ scalar: Unicode.Scalar) -> String? {
        switch scalar {
        case "&": "&amp;"
        case "<": "&lt;"
        case ">": "&gt;"
        case "\"": "&quot;"
        case "'": "&apos;"
        default: nil
        }
    }

    /// Text for an SVG element (or the report's HTML): `&`, `<`, `>` and quotes escaped, control characters dropped.
    static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars where scalar.properties.generalCategory != .control {
            if let entity = entity(scalar) { out += entity } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }
}
