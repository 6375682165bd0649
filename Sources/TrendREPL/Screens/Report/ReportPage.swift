import Foundation
import Habits
import Vocabulary

/// The report (DESIGN §10, `export FILE.html [RANGE]`): one self-contained
/// page, inline SVG and CSS, no script and nothing fetched, to look at and to
/// print (A4, a chart never cut across a page break, marks told apart by
/// shape as well as colour, the reader's light or dark scheme). Every chart is
/// `role="img"` with a text alternative that states its figures; every figure
/// is the one the screens give, handed in as the screens made it.
struct ReportPage {
    /// A part of the page: a heading, its charts and the screens' own text.
    struct Section {
        let title: String
        var blocks: [Block]
    }

    enum Block {
        /// A chart: its SVG (drawn by `SVGChart` or here) and the sentence that says what it shows.
        case chart(svg: String, alternative: String)
        /// A screen's text, as the terminal shows it (monospaced: its columns line up).
        case screen(String)
        case paragraph(String)
        case heading(String)
    }

    let title: String
    /// When it was made, as a person reads it, and the data directory's name (nothing more personal).
    let made: String
    let dataDirectoryName: String
    var sections: [Section]

    func html() -> String {
        var page = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="generator" content="Trend">
            <title>\(Self.escaped(title))</title>
            <style>\(Self.style)</style>
            </head>
            <body>
            <header><h1>\(Self.escaped(title))</h1><p class="made">Made \(Self.escaped(made)) from the data directory \
            <b>\(Self.escaped(dataDirectoryName))</b>.</p></header>
            <main>

            """
        for section in sections {
            page += "<section>\n<h2>\(Self.escaped(section.title))</h2>\n"
            for block in section.blocks {
                switch block {
                case let .chart(svg, alternative):
                    page += "<figure>\(Self.labelled(svg, alternative))<figcaption>\(Self.escaped(alternative))</figcaption></figure>\n"
                case let .screen(text):
                    page += "<pre>\(Self.escaped(text))</pre>\n"
                case let .paragraph(text):
                    page += "<p>\(Self.escaped(text))</p>\n"
                case let .heading(text):
                    page += "<h3>\(Self.escaped(text))</h3>\n"
                }
            }
            page += "</section>\n"
        }
        return page + "</main>\n</body>\n</html>\n"
    }

    /// An SVG document made an inline chart: no XML declaration, `role="img"`, its text alternative as its
    /// accessible name and its `<title>`, and scaled to the width it has.
    static func labelled(_ svg: String, _ alternative: String) -> String {
        var body = svg
        if body.hasPrefix("<?xml"), let end = body.firstIndex(of: "\n") { body = String(body[body.index(after: end)...]) }
        guard let open = body.range(of: "<svg ") else { return body }
        let attributes = "<svg role=\"img\" aria-label=\"\(escaped(alternative))\" preserveAspectRatio=\"xMidYMid meet\" "
        body.replaceSubrange(open, with: attributes)
        // The `width`/`height` attributes stay (the CSS scales it down); the title follows the opening tag.
        if let close = body.range(of: ">", range: open.lowerBound..<body.endIndex) {
            body.insert(contentsOf: "<title>\(escaped(alternative))</title>", at: close.upperBound)
        }
        return body
    }

    /// Text for the page: as an SVG's text is escaped, its lines kept (a screen's text is lines).
    static func escaped(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { SVGChart.escaped(String($0)) }.joined(separator: "\n")
    }

    /// The page's look: the README's palette (the charts' own colours), readable in print and in a dark scheme.
    static let style = """
        :root { color-scheme: light dark; --text: #222; --muted: #555; --page: #fdfdfb; --card: #ffffff; --rule: #d8d8d8; }
        @media (prefers-color-scheme: dark) { :root { --text: #e8e8e8; --muted: #b0b0b0; --page: #17191c; --card: #f4f4f2; --rule: #444; } }
        body { margin: 0 auto; max-width: 860px; padding: 24px; background: var(--page); color: var(--text);
               font: 15px/1.45 Helvetica, Arial, sans-serif; }
        h1 { margin: 0 0 4px; font-size: 26px; }
        h2 { margin: 28px 0 10px; padding-bottom: 4px; border-bottom: 1px solid var(--rule); font-size: 20px; }
        h3 { margin: 18px 0 6px; font-size: 16px; }
        .made { margin: 0; color: var(--muted); }
        figure { margin: 10px 0 16px; break-inside: avoid; page-break-inside: avoid; }
        figure svg { display: block; width: 100%; height: auto; max-width: 800px; background: var(--card); border-radius: 4px; }
        figcaption { margin-top: 4px; color: var(--muted); font-size: 13px; }
        pre { margin: 8px 0 14px; padding: 10px 12px; overflow-x: auto; background: var(--card); color: #222; border-radius: 4px;
              font: 12.5px/1.35 "DejaVu Sans Mono", Menlo, Consolas, monospace; break-inside: avoid; page-break-inside: avoid; }
        section { break-inside: auto; }
        h2, h3 { break-after: avoid; page-break-after: avoid; }
        @page { size: A4; margin: 14mm; }
        @media print { body { max-width: none; padding: 0; background: #fff; color: #000; font-size: 11pt; }
                       pre, figure svg { background: #fff; border: 1px solid #ccc; } }
        """
}

/// Small charts of one habit for the report, as Loop draws them: its strength over the days shown, and how
/// often it was done on each weekday.
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

    /// The days done on each weekday, Monday first, as bars with their counts written on them.
    static func weekdays(_ counts: [Int], name: String) -> String {
        let left = 50.0, top = 30.0, bottom = height - 30, slot = (width - 70) / 7
        let most = max(1, counts.max() ?? 1)
        var svg = opening(name + ": days done by weekday, last year", left: left)
        for (index, count) in counts.prefix(7).enumerated() {
            let x = left + Double(index) * slot + slot * 0.2
            let barHeight = Double(count) / Double(most) * (bottom - top - 14)
            svg += "<rect x=\"\(SVGChart.number(x))\" y=\"\(SVGChart.number(bottom - barHeight))\" width=\"\(SVGChart.number(slot * 0.6))\" "
                + "height=\"\(SVGChart.number(barHeight))\" fill=\"\(SVGChart.weightColor)\" stroke=\"#1d4f78\"/>"
                + "<text x=\"\(SVGChart.number(x + slot * 0.3))\" y=\"\(SVGChart.number(bottom - barHeight - 4))\" text-anchor=\"middle\" fill=\"#222222\">\(count)</text>"
                + "<text x=\"\(SVGChart.number(x + slot * 0.3))\" y=\"\(SVGChart.number(bottom + 16))\" text-anchor=\"middle\" fill=\"#444444\">\(["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"][index])</text>\n"
        }
        return svg + "</svg>\n"
    }
}
