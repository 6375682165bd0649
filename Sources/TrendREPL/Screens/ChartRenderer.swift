import Foundation
import Progress
import Settings
import WeightLog

/// Draws the progress chart in the terminal: daily weights as dots, the
/// trend as an unbroken braille line (two by four dots a cell, so it reads as a
/// curve), the goal as a dashed rule, weights on the y axis in the display
/// unit and dates on the x axis, fitted to the terminal width.
struct ChartRenderer {
    let style: TerminalStyle
    let unit: WeightUnit
    var height = 12

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
        guard let domain = data.domain, let first = data.points.first else { return "" }
        let lower = unit.axisValue(domain.lowerBound)
        let upper = unit.axisValue(domain.upperBound)
        let startDay = data.range.days.map { data.today - ($0 - 1) } ?? first.day
        // The projection continues the line over a quarter of the range more (a week to 30 days).
        let ahead = data.projection.isEmpty ? 0 : min(data.projection.count, max(7, (data.today - startDay) / 4))
        let span = max(1, data.today + ahead - startDay)

        let labels = (0..<height).map { row -> String? in
            guard row % 3 == 0 || row == height - 1 else { return nil }
            let value = upper - (Double(row * 4) + 1.5) / Double(height * 4 - 1) * (upper - lower)
            return String(format: "%.1f", value)
        }
        let labelWidth = max(unit.rawValue.count, labels.compactMap { $0?.count }.max() ?? 4)
        let width = max(16, style.width - labelWidth - 3)
        let subWidth = width * 2, subHeight = height * 4

        func subX(_ day: Int) -> Double { Double(day - startDay) / Double(span) * Double(subWidth - 1) }
        func subY(_ kilograms: Double) -> Double {
            (upper - unit.axisValue(kilograms)) / (upper - lower) * Double(subHeight - 1)
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

        // The trend: straight segments between consecutive days, one dot per sub-step.
        var previous: (Double, Double)?
        for point in data.points {
            let current = (subX(point.day), subY(point.smoothedKilograms))
            let from = previous ?? current
            let steps = max(1, Int(max(abs(current.0 - from.0), abs(current.1 - from.1)).rounded(.up)))
            for step in 0...steps {
                let t = Double(step) / Double(steps)
                plot(Int((from.0 + (current.0 - from.0) * t).rounded()), Int((from.1 + (current.1 - from.1) * t).rounded()))
            }
            previous = current
        }
        for point in data.points {
            let column = min(width - 1, max(0, Int(subX(point.day).rounded()) / 2))
            let row = min(height - 1, max(0, Int(subY(point.kilograms).rounded()) / 4))
            // The trend keeps its cells: a weight on the line adds nothing, a gap in it would.
            if cells[row][column] == .empty { cells[row][column] = .weight }
        }
        // The projection: the fitted line from today on, dashed.
        if let last = data.points.last, ahead > 0 {
            let from = (subX(last.day), subY(data.fittedKilograms ?? last.smoothedKilograms))
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
        if let goal = data.goalKilograms {
            let row = min(height - 1, max(0, Int(subY(goal).rounded()) / 4))
            for column in 0..<width where cells[row][column] == .empty { cells[row][column] = .goal }
        }

        var lines: [String] = []
        for row in 0..<height {
            let label = (labels[row] ?? "").leftPadded(to: labelWidth)
            let axis = labels[row] == nil ? "│" : "┤"
            let body = cells[row].map { cell -> String in
                switch cell {
                case .empty: return " "
                case let .trend(bits): return style.paint(String(UnicodeScalar(0x2800 + UInt32(bits)) ?? " "), .green)
                case .weight: return style.paint("•", .cyan)
                case .goal: return style.paint("┄", .magenta)
                case .projection: return style.paint("·", .green)
                }
            }.joined()
            lines.append(style.dim(label + " " + axis) + body)
        }
        lines.append(style.dim(unit.rawValue.leftPadded(to: labelWidth) + " └" + xAxis(width: width, startDay: startDay, span: span).ticks))
        lines.append(String(repeating: " ", count: labelWidth + 2) + xAxis(width: width, startDay: startDay, span: span).labels)
        var legend = style.paint("•", .cyan) + " daily weight   " + style.paint("⠤⠤", .green) + " trend"
        if ahead > 0 { legend += "   " + style.paint("··", .green) + " projection" }
        if data.goalKilograms != nil { legend += "   " + style.paint("┄┄", .magenta) + " goal" }
        lines.append(String(repeating: " ", count: labelWidth + 2) + legend)
        return lines.joined(separator: "\n")
    }

    /// Tick marks and date labels spread along the x axis without overlapping.
    private func xAxis(width: Int, startDay: Int, span: Int) -> (ticks: String, labels: String) {
        var ticks = Array(repeating: Character("─"), count: width)
        var labels = Array(repeating: Character(" "), count: width + 1)
        let slots = max(2, min(width / 12, span + 1))
        var nextFree = 0
        for slot in 0..<slots {
            let day = startDay + Int((Double(slot) / Double(slots - 1) * Double(span)).rounded())
            let column = min(width - 1, Int((Double(day - startDay) / Double(span) * Double(width - 1)).rounded()))
            let text = Array(DayNumber.shortLabel(day))
            let begin = max(0, min(column - text.count / 2, width + 1 - text.count))
            guard begin >= nextFree else { continue }
            ticks[column] = "┬"
            for (offset, character) in text.enumerated() { labels[begin + offset] = character }
            nextFree = begin + text.count + 2
        }
        return (String(ticks), String(String(labels).reversed().drop { $0 == " " }.reversed()))
    }
}
