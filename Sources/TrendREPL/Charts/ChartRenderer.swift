import CommandLanguage
import Foundation
import Progress
import Vocabulary

/// Draws the progress chart in the terminal: daily weights as dots, the
/// trend as a braille line (two by four dots a cell, so it reads as a curve;
/// broken over a gap of more than a week), the goal as a dashed rule or, when
/// it lies beyond the data, its value at the edge; round weights on the y
/// axis in the display unit (`ChartAxis`) and dates on the x axis, with years
/// when the range needs them, fitted to the terminal width (down to 40 columns).
struct ChartRenderer {
    let style: TerminalStyle
    let scale: ChartScale
    var height = 12
    /// A habit whose done days are marked under the chart (`progress 6m with Gym`), so a person can see
    /// for themselves what `insights` relates.
    var habit: (name: String, days: Set<Int>)?

    init(style: TerminalStyle, scale: ChartScale, habit: (name: String, days: Set<Int>)? = nil) {
        self.style = style
        self.scale = scale
        self.habit = habit
    }

    init(style: TerminalStyle, unit: WeightUnit, habit: (name: String, days: Set<Int>)? = nil) {
        self.init(style: style, scale: .weight(unit), habit: habit)
    }

    private enum Cell: Equatable {
        case empty
        case trend(UInt8)
        case weight
        case goal
        case projection
    }

    /// Braille dot bits by sub-row (0…3) and sub-column (0…1).
    private static let dotBits: [[UInt8]] = [[0x01, 0x08], [0x02, 0x10], [0x04, 0x20], [0x40, 0x80]]

    func render(_ data: WeightHistoryData) -> String {
        guard let axis = ChartAxis(data, scale: scale) else { return "" }
        let (lower, upper, startDay, span, ahead) = (axis.lower, axis.upper, axis.startDay, axis.span, axis.ahead)
        let labelWidth = max(scale.name.count, axis.ticks.map(\.label.count).max() ?? 4)
        let width = max(16, style.width - labelWidth - 3)
        let subWidth = width * 2, subHeight = height * 4

        func subX(_ day: Int) -> Double { Double(day - startDay) / Double(span) * Double(subWidth - 1) }
        func subY(_ kilograms: Double) -> Double {
            (upper - axis.value(kilograms)) / (upper - lower) * Double(subHeight - 1)
        }
        func row(ofValue value: Double) -> Int {
            min(height - 1, max(0, Int(((upper - value) / (upper - lower) * Double(subHeight - 1)).rounded()) / 4))
        }

        var cells = Array(repeating: Array(repeating: Cell.empty, count: width), count: height)
        func plot(_ x: Int, _ y: Int) {
            guard (0..<subWidth).contains(x), (0..<subHeight).contains(y) else { return }
            let bit = Self.dotBits[y % 4][x % 2]
            if case let .trend(bits) = cells[y / 4][x / 2] {
                cells[y / 4][x / 2] = .trend(bits | bit)
            } else if cells[y / 4][x / 2] == .empty {
                cells[y / 4][x / 2] = .trend(bit)
            }
        }

        // The trend: straight segments between consecutive days, one dot per sub-step; a gap of more
        // than a week is left as a break, not bridged by a long straight line.
        // A day with no neighbour within a week has no line through it: its weight dot shows alone.
        var previous: (day: Int, x: Double, y: Double)?
        for point in data.points {
            let current = (day: point.day, x: subX(point.day), y: subY(point.smoothedKilograms))
            defer { previous = current }
            guard let from = previous, current.day - from.day <= Self.longestBridgedGap else { continue }
            let steps = max(1, Int(max(abs(current.x - from.x), abs(current.y - from.y)).rounded(.up)))
            for step in 0...steps {
                let t = Double(step) / Double(steps)
                plot(Int((from.x + (current.x - from.x) * t).rounded()), Int((from.y + (current.y - from.y) * t).rounded()))
            }
        }
        // The daily weights: a dot of their own where the line is not; where it is, a braille dot at the
        // weight's place in that cell, so the weight stays visible and the line unbroken.
        for point in data.points {
            let x = min(subWidth - 1, max(0, Int(subX(point.day).rounded())))
            let y = min(subHeight - 1, max(0, Int(subY(point.kilograms).rounded())))
            switch cells[y / 4][x / 2] {
            case let .trend(bits): cells[y / 4][x / 2] = .trend(bits | Self.dotBits[y % 4][x % 2])
            default: cells[y / 4][x / 2] = .weight
            }
        }
        // The projection, dashed: from where the trend line ends to the fitted line's point `ahead` days on (the
        // trend lags the weight; the line it meets is the one the weekly rate and the goal date come from).
        if let last = data.points.last, ahead > 0 {
            let from = (subX(last.day), subY(last.smoothedKilograms))
            let target = data.projection[ahead - 1]
            let to = (subX(target.day), subY(target.kilograms))
            let steps = max(1, Int(max(abs(to.0 - from.0), abs(to.1 - from.1)).rounded(.up)))
            for step in stride(from: 0, through: steps, by: 2) {
                let t = Double(step) / Double(steps)
                let x = Int((from.0 + (to.0 - from.0) * t).rounded()), y = Int((from.1 + (to.1 - from.1) * t).rounded())
                // Every other column: a dashed line, told apart from the trend at a glance.
                guard (0..<subWidth).contains(x), (0..<subHeight).contains(y), (x / 2) % 2 == 0,
                      cells[y / 4][x / 2] == .empty else { continue }
                cells[y / 4][x / 2] = .projection
            }
        }
        if let goal = axis.goal, axis.goalPlacement == .inside {
            let row = row(ofValue: goal)
            for column in 0..<width where cells[row][column] == .empty { cells[row][column] = .goal }
        }

        var labels = [String?](repeating: nil, count: height)
        for tick in axis.ticks where labels[row(ofValue: tick.value)] == nil { labels[row(ofValue: tick.value)] = tick.label }
        var lines: [String] = []
        for row in 0..<height {
            let label = (labels[row] ?? "").leftPadded(to: labelWidth)
            let axisMark = labels[row] == nil ? "│" : "┤"
            var body = cells[row].map { cell -> String in
                switch cell {
                case .empty: return " "
                case let .trend(bits): return style.paint(String(UnicodeScalar(0x2800 + UInt32(bits)) ?? " "), .green)
                case .weight: return style.paint("•", .cyan)
                case .goal: return style.paint("┄", .magenta)
                case .projection: return style.paint("·", .green)
                }
            }
            // A goal beyond the axis: its value at the edge it lies past, over the chart's last cells.
            if let marker = axis.goalMarker, row == (axis.goalPlacement == .above ? 0 : height - 1), marker.count + 2 <= width {
                let text = Array(" " + marker)
                body.replaceSubrange((width - text.count)..<width, with: text.map { style.paint(String($0), .magenta) })
            }
            // The values read plain (a dim figure is lost on a dark theme); only the frame is dim.
            lines.append(label + " " + style.dim(axisMark) + body.joined())
        }
        let xAxis = xAxis(width: width, axis: axis)
        lines.append(scale.name.leftPadded(to: labelWidth) + " " + style.dim("└" + xAxis.ticks))
        lines.append(String(repeating: " ", count: labelWidth + 2) + xAxis.labels)
        if let habit {
            // A mark in each column holding a done day, on the days the x axis spans.
            var marks = Array(repeating: " ", count: width)
            for day in habit.days where day >= startDay && day <= startDay + span {
                marks[min(width - 1, Int((Double(day - startDay) / Double(span) * Double(width - 1)).rounded()))] = style.paint("▮", .green)
            }
            lines.append(String(repeating: " ", count: labelWidth + 2) + TerminalText.trimmedAtEnd(marks.joined()))
        }
        var legend: [(mark: String, plain: String)] = [(style.paint("•", .cyan) + " " + scale.daily, "• " + scale.daily),
                                                       (style.paint("⠤⠤", .green) + " trend", "⠤⠤ trend")]
        if let habit {
            let name = TerminalText.cut(TerminalText.visible(habit.name), to: 24)
            legend.append((style.paint("▮", .green) + " " + name + " done", "▮ " + name + " done"))
        }
        if ahead > 0 { legend.append((style.paint("··", .green) + " projection", "·· projection")) }
        if axis.goalPlacement == .inside { legend.append((style.paint("┄┄", .magenta) + " goal", "┄┄ goal")) }
        // The legend wraps rather than run past the terminal's edge.
        var line = "", used = 0
        for item in legend {
            if used > 0, used + 3 + item.plain.count > width {
                lines.append(String(repeating: " ", count: labelWidth + 2) + line)
                (line, used) = ("", 0)
            }
            line += (used > 0 ? "   " : "") + item.mark
            used += (used > 0 ? 3 : 0) + item.plain.count
        }
        lines.append(String(repeating: " ", count: labelWidth + 2) + line)
        return lines.joined(separator: "\n")
    }

    /// The longest gap (days) the trend line bridges; a longer one is drawn as a break.
    static let longestBridgedGap = 7

    /// Tick marks and date labels spread along the x axis without overlapping.
    private func xAxis(width: Int, axis: ChartAxis) -> (ticks: String, labels: String) {
        var ticks = Array(repeating: Character("─"), count: width)
        var labels = Array(repeating: Character(" "), count: width + 1)
        let (startDay, span) = (axis.startDay, axis.span)
        // A label is at most 6 characters (`Jun 29`), 8 with years (`Jun 2025`), and two spaces keep them apart.
        let slots = max(2, min(width / (axis.showsYears ? 11 : 8), span + 1))
        var nextFree = 0
        let days = axis.tickDays(slots: slots)
        let names = axis.dayLabels(days)
        for (day, name) in zip(days, names) where !name.isEmpty {
            let column = min(width - 1, Int((Double(day - startDay) / Double(span) * Double(width - 1)).rounded()))
            let text = Array(name)
            let begin = max(0, min(column - text.count / 2, width + 1 - text.count))
            guard begin >= nextFree else { continue }
            ticks[column] = "┬"
            for (offset, character) in text.enumerated() { labels[begin + offset] = character }
            nextFree = begin + text.count + 2
        }
        return (String(ticks), String(String(labels).reversed().drop { $0 == " " }.reversed()))
    }
}
