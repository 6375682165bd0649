import Foundation

/// A small chart of one habit for the report, as Loop draws it: its strength over the days shown.
enum HabitReportCharts {
    static let width = 800.0, height = 160.0

    /// A small chart's opening: its size, a white ground and its title at `left`.
    private static func opening(_ title: String, left: Double) -> String {
        """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" viewBox="0 0 \(Int(width)) \(Int(height))" \
        font-family="Helvetica, Arial, sans-serif" font-size="12">
        <rect width="100%" height="100%" fill="#ffffff"/>
        <text x="\(left)" y="18" font-weight="bold" fill="#222222">\(SVGChart.escaped(title))</text>

        """
    }

    /// Strength (0…1) a day, a line over the days shown, with a 50 % rule.
    static func strength(_ strengths: [Double], name: String) -> String {
        let left = 50.0, right = width - 20, top = 30.0, bottom = height - 30
        var svg = opening(name + ": strength", left: left)
        for (value, label) in [(0.0, "0 %"), (0.5, "50 %"), (1.0, "100 %")] {
            let y = bottom - value * (bottom - top)
            svg += "<line x1=\"\(left)\" y1=\"\(SVGChart.number(y))\" x2=\"\(right)\" y2=\"\(SVGChart.number(y))\" stroke=\"#e4e4e4\"/>"
                + "<text x=\"\(left - 6)\" y=\"\(SVGChart.number(y))\" dy=\"4\" text-anchor=\"end\" fill=\"#444444\">\(label)</text>\n"
        }
        if strengths.count > 1 {
            let step = (right - left) / Double(strengths.count - 1)
            let points = strengths.enumerated().map { "\(SVGChart.number(left + Double($0.offset) * step)),\(SVGChart.number(bottom - min(1, max(0, $0.element)) * (bottom - top)))" }
            svg += "<polyline points=\"\(points.joined(separator: " "))\" fill=\"none\" stroke=\"\(SVGChart.trendColor)\" stroke-width=\"2.5\"/>\n"
        }
        return svg + "</svg>\n"
    }
}
