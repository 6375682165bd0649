import AppCore
import Foundation
import Testing
import TestSupport
@testable import TrendREPL

/// `export chart.svg`: the file is a standalone SVG that a real renderer
/// (rsvg-convert, librsvg) draws, and the picture holds the chart: not
/// blank, the trend's colour along the line where the data puts it and not
/// where it does not, the goal's colour at its height.
@MainActor
@Suite struct SVGChartTests {
    /// Decodes an 8-bit RGB(A) PNG (zlib and the five PNG filters) and, for
    /// each `x,y,rrggbb` probe, says whether a pixel within 4 of it is within
    /// 48 of that colour; the first line is the share of pixels that are not white.
    static let probe = #"""
    import sys, zlib, struct
    data = open(sys.argv[1], 'rb').read()
    pos, chunks = 8, b''
    while pos < len(data):
        length, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b'IHDR': width, height, depth, color = struct.unpack('>IIBB', body[:10])
        if kind == b'IDAT': chunks += body
        pos += 12 + length
    channels = {2: 3, 6: 4}[color]
    raw, stride = zlib.decompress(chunks), width * channels
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(height):
        kind, line = raw[i], bytearray(raw[i + 1:i + 1 + stride]); i += 1 + stride
        for x in range(stride):
            a = line[x - channels] if x >= channels else 0
            b, c = prev[x], prev[x - channels] if x >= channels else 0
            if kind == 1: line[x] = (line[x] + a) & 255
            elif kind == 2: line[x] = (line[x] + b) & 255
            elif kind == 3: line[x] = (line[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line); prev = line
    pixel = lambda x, y: tuple(rows[y][x * channels:x * channels + 3])
    ink = sum(1 for y in range(height) for x in range(width) if min(pixel(x, y)) < 235)
    print(ink / (width * height))
    for probe in sys.argv[2:]:
        px, py, hexa = probe.split(',')
        want = tuple(int(hexa[k:k + 2], 16) for k in (0, 2, 4))
        hit = any(all(abs(g - w) <= 48 for g, w in zip(pixel(x, y), want))
                  for y in range(max(0, int(float(py)) - 4), min(height, int(float(py)) + 5))
                  for x in range(max(0, int(float(px)) - 4), min(width, int(float(px)) + 5)))
        print(1 if hit else 0)
    """#

    @Test func theExportedChartRendersWithTheTrendWhereTheDataPutsIt() async throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let clock = TestClock(date("2026-07-05 09:00"))
        let graph = makeTestApp(clock: clock, calendar: calendar(zone: "UTC"), directory: temp.url.appendingPathComponent("data"))
        let session = ReplSession(app: graph.app, json: false, style: .plain, isInteractive: false)
        #expect(await session.execute("import \(fixtureURL("year-of-weights.csv").path)").succeeded)
        #expect(await session.execute("goal 82").succeeded)
        let svg = temp.url.appendingPathComponent("chart.svg")
        let exported = await session.execute("export \(svg.path) 1y")
        #expect(exported.succeeded, "\(exported.text)")
        let text = try String(contentsOf: svg, encoding: .utf8)
        #expect(text.hasPrefix("<?xml") && text.contains("<svg") && text.contains("Trend, 1 year (2025-07-06 – 2026-07-05)"))
        // Issue 28, item 7: the goal is a labelled line, and today is marked.
        #expect(text.contains(">goal 82.0 kg</text>"))
        #expect(text.contains(">today</text>"))
        #expect(text.contains(">projection: line of the last 8 weeks</text>"), "the legend says where the projection comes from")
        // Issue 62: the dashed projection starts where the trend line ends, not at the fitted line's level below it.
        let dashed = try #require(text.split(separator: "\n").first { $0.hasPrefix("<line") && $0.contains("stroke-dasharray=\"4 4\"") })
        let start = try #require(try await graph.app.progressFeature.prepare(range: .year).points.last)
        let startLayout = try #require(SVGChart(scale: .weight(.kilograms)).layout(try await graph.app.progressFeature.prepare(range: .year)))
        #expect(dashed.contains("x1=\"\(SVGChart.number(startLayout.x(start.day)))\" y1=\"\(SVGChart.number(startLayout.y(start.smoothedKilograms)))\""),
                "\(dashed)")

        let png = temp.url.appendingPathComponent("chart.png")
        let render = try runTool("/usr/bin/env", ["rsvg-convert", svg.path, "-o", png.path], mergingErrors: true)
        #expect(render.status == 0, "rsvg-convert: \(render.output)")

        // Where the chart puts the first and last trend points, a point well above the line, and the goal.
        let data = try await graph.app.progressFeature.prepare(range: .year)
        let chart = SVGChart(scale: .weight(.kilograms))
        let layout = try #require(chart.layout(data))
        let first = try #require(data.points.first), last = try #require(data.points.last)
        let trend = String(SVGChart.trendColor.dropFirst()), goal = String(SVGChart.goalColor.dropFirst())
        let probes = [
            "\(layout.x(first.day)),\(layout.y(first.smoothedKilograms)),\(trend)",
            "\(layout.x(last.day)),\(layout.y(last.smoothedKilograms)),\(trend)",
            "\(layout.x(last.day)),\(layout.y(first.smoothedKilograms)),\(trend)",
            "\((SVGChart.plot.left + SVGChart.plot.right) / 2),\(layout.y(82)),\(goal)",
            "\(layout.x(data.today)),\(SVGChart.plot.top + 4),\(SVGChart.todayColor.dropFirst())",
        ]
        let script = temp.url.appendingPathComponent("probe.py")
        try Self.probe.write(to: script, atomically: true, encoding: .utf8)
        let result = try runTool("/usr/bin/env", ["python3", script.path, png.path] + probes, mergingErrors: true)
        let answers = result.output.split(separator: "\n").map(String.init)
        try #require(answers.count == 6, "\(result.output)")
        #expect((Double(answers[0]) ?? 0) > 0.03, "the picture is not blank")
        #expect(answers[1] == "1", "the trend where it starts")
        #expect(answers[2] == "1", "the trend where it ends")
        #expect(answers[3] == "0", "no trend where the line never goes (the end of the range at the start's weight)")
        #expect(answers[4] == "1", "the goal at its height")
        #expect(answers[5] == "1", "today's rule at today")
    }

    /// Issue 30, item 2: `export chart.svg RANGE with HABIT` marks the habit's done days along the foot of the plot, drawn by a real renderer.
    @Test func aHabitsDaysAreMarkedInTheSVG() async throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let graph = makeTestApp(clock: TestClock(date("2026-06-15 09:00")), calendar: calendar(zone: "UTC"), directory: temp.url.appendingPathComponent("data"))
        let session = ReplSession(app: graph.app, json: false, style: .plain, isInteractive: false)
        for day in 1...14 { _ = await session.execute("weigh \(80 - Double(day) * 0.1) 2026-06-\(String(format: "%02d", day)) 07:00") }
        _ = await session.execute("habit add Gym 3/week")
        for day in ["2026-06-03", "2026-06-08", "2026-06-12"] { _ = await session.execute("habit done Gym \(day)") }
        let svg = temp.url.appendingPathComponent("gym.svg")
        let exported = await session.execute("export \(svg.path) 2w with Gym")
        #expect(exported.succeeded, "\(exported.text)")
        let text = try String(contentsOf: svg, encoding: .utf8)
        #expect(text.components(separatedBy: "height=\"7\" fill=\"\(SVGChart.trendColor)\"").count - 1 == 4, "three days and the legend's mark")
        #expect(text.contains(">Gym done</text>"))
        let png = temp.url.appendingPathComponent("gym.png")
        #expect(try runTool("/usr/bin/env", ["rsvg-convert", svg.path, "-o", png.path], mergingErrors: true).status == 0)
        let refused = await session.execute("export \(svg.path) 2w with Nope")
        #expect(!refused.succeeded && refused.text.contains("no habit named 'Nope'"))
    }
}
