import Foundation
import Testing
import TestSupport
import Vocabulary
@testable import WeightLog

/// Issue 31, item 2: body fat, lean mass and fat mass are each trended with the weight's gap-aware
/// 10 % smoothing over their own daily means, checked against the formula written out here.
@Suite struct BodyCompositionTests {
    let days = LocalDays(timeZone: TimeZone(identifier: "UTC")!)

    func entry(_ day: Int, _ hour: Double, _ kilograms: Double, _ fat: Double?) -> WeightEntry {
        WeightEntry(date: Date(timeIntervalSince1970: (20_000 + Double(day)) * 86_400 + hour * 3_600), kilograms: kilograms, bodyFatPercent: fat)
    }

    /// The Hacker's Diet trend, gap-aware: the first value as it is, then `1 − 0.9^gap` of the way to each day's mean.
    func trend(_ points: [(day: Int, value: Double)]) -> Double {
        var trend = points[0].value, previous = points[0].day
        for point in points.dropFirst() {
            trend += (1 - pow(0.9, Double(point.day - previous))) * (point.value - trend)
            previous = point.day
        }
        return trend
    }

    @Test func fatLeanAndFatMassAreTrendedAsWeightIs() throws {
        // Day 2 has two weigh-ins with fat (their mean counts), day 3 one without (it is not a measurement), then a gap.
        let entries = [entry(0, 7, 90, 30), entry(2, 7, 89, 29), entry(2, 19, 89.6, 29.4), entry(3, 7, 88, nil), entry(6, 7, 88.5, 28)]
        let composition = try #require(BodyComposition.of(entries.shuffled(), localDays: days))
        let percent = [(0, 30.0), (2, 29.2), (6, 28.0)]
        let lean = [(0, 90 * 0.7), (2, (89 * 0.71 + 89.6 * 0.706) / 2), (6, 88.5 * 0.72)]
        let fat = [(0, 90 * 0.3), (2, (89 * 0.29 + 89.6 * 0.294) / 2), (6, 88.5 * 0.28)]
        #expect(abs(composition.percentTrend - trend(percent)) < 1e-6)
        #expect(abs(composition.leanMassTrendKilograms - trend(lean)) < 1e-6)
        #expect(abs(composition.fatMassTrendKilograms - trend(fat)) < 1e-6)
        #expect(composition.latestDay == 20_006 && composition.latestPercent == 28 && composition.days == 3)
        #expect(abs(composition.leanMassChangeKilograms - (trend(lean) - 63)) < 1e-6)
        #expect(BodyComposition.of([entry(0, 7, 90, nil)], localDays: days) == nil)
    }
}
