import Foundation
import Testing
import TestSupport
import WeightLog

/// Issue 31: tape measures typed as people say them, trended as weight is, kept by an import of
/// openScale's own columns, taken back by undo, and refused (changing nothing) when no body has them.
@Suite struct MeasurementsEndToEndTests {
    /// The trend of `values` measured `gap` days apart, written out: 1 − 0.9^gap of the way (DESIGN §3).
    static func reference(_ values: [Double], gap: Double = 1) -> Double {
        values.dropFirst().reduce(values[0]) { trend, value in trend + (1 - pow(0.9, gap)) * (value - trend) }
    }

    @Test func measuresTypedInEitherUnitAreTrendedAndUndone() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let data = ["--data-dir", temp.url.path]
        _ = try runTrend(data + ["-c", "measure waist 88 neck 38 chest 101 2 days ago"])
        _ = try runTrend(data + ["-c", "measure waist 34.5 in yesterday"])
        _ = try runTrend(data + ["-c", "measure waist 86.5cm"])
        let listed = try runTrend(data + ["--json", "-c", "measurements waist"]).documents()[0]
        let trend = try #require((listed["trends"] as? [[String: Any]])?.first?["trendCentimetres"] as? Double)
        #expect(abs(trend - Self.reference([88, 34.5 * 2.54, 86.5])) < 1e-6)
        #expect((listed["measurements"] as? [[String: Any]])?.map { $0["typedUnit"] as? String } == ["cm", "in", "cm"])

        // No waist measures 400 cm: refused, with the reason, and nothing is written.
        let refused = try runTrend(data + ["-c", "measure waist 400", "-c", "measurements"])
        #expect(refused.standardError.contains("outside the 40–250 cm a waist can measure"))
        #expect(refused.standardOutput.contains("5 measurements"))
        let undone = try runTrend(data + ["-c", "undo", "-c", "measurements waist"])
        #expect(undone.standardOutput.contains("2 measurements"), "\(undone.standardOutput)")
    }

    @Test func anOpenScaleExportKeepsItsTapeMeasuresAndTodayShowsTheRatio() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        // openScale 2.x's CSV: `ScaleMeasurement`'s columns (CsvHelper.exportTo), girths in cm, 0.0 where none was taken.
        let file = temp.url.appendingPathComponent("openScale.csv")
        try """
            "biceps","chest","comment","dateTime","fat","hip","neck","thigh","waist","water","weight"
            "0.0","101.5","","2026-06-10 07:30","22.5","99.0","38.5","0.0","88.0","0.0","82.4"
            "31.0","0.0","after run","2026-06-14 07:30","22.0","98.5","38.0","0.0","87.0","0.0","81.9"

            """.write(to: file, atomically: true, encoding: .utf8)
        let data = ["--data-dir", temp.url.appendingPathComponent("data").path]
        let imported = try runTrend(data + ["-c", "import \(file.path)"])
        #expect(imported.standardOutput.contains("Imported 2 weigh-ins and 8 new tape measures."), "\(imported.standardOutput)")
        let today = try runTrend(data + ["-c", "set height 176 cm", "-c", "set sex male", "--json", "-c", "today"]).documents().last ?? [:]
        let waist = Self.reference([88, 87], gap: 4), neck = Self.reference([38.5, 38], gap: 4)
        let ratio = try #require(today["waistToHeight"] as? Double)
        #expect(abs(ratio - waist / 176) < 1e-9)
        let navy = try #require(today["navyBodyFatEstimatePercent"] as? Double)
        #expect(abs(navy - (495 / (1.0324 - 0.19077 * log10(waist - neck) + 0.15456 * log10(176)) - 450)) < 1e-9)
        // A second import of the same file keeps nothing twice.
        let again = try runTrend(data + ["-c", "import \(file.path)", "-c", "measurements"])
        #expect(again.standardOutput.contains("8 measurements"), "\(again.standardOutput)")
    }

    @Test func theTypedGrammarReadsSeveralMeasuresAndNamesWhatIsWrong() throws {
        var words = ["neck", "38", "chest", "40", "in", "upper", "arm", "31cm", "yesterday"][...]
        let input = try MeasureInput.take(from: &words, defaultUnit: .centimetres)
        #expect(input.values.map(\.kind) == [.neck, .chest, .upperArm])
        #expect(input.values.map(\.centimetres) == [38, 101.6, 31])
        #expect(Array(words) == ["yesterday"])
        var bad = ["belt", "4"][...]
        #expect(throws: MeasurementError.notAMeasure("belt")) { try MeasureInput.take(from: &bad, defaultUnit: .centimetres) }
        var twice = ["waist", "80", "waist", "81"][...]
        #expect(throws: MeasurementError.repeated(.waist)) { try MeasureInput.take(from: &twice, defaultUnit: .centimetres) }
    }
}
