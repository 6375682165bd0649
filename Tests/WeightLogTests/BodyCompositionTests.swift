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

/// Issue 31: `summary` sets body fat, lean mass and each tape measure period against period by the
/// weight's own rule of a period's change, and a flat weight line says what the lean mass did.
@Suite struct BodyChangesTests {
    let days = LocalDays(timeZone: TimeZone(identifier: "UTC")!)

    func seconds(_ day: Int) -> Double { (20_000 + Double(day)) * 86_400 + 7 * 3_600 }

    @Test func eachMeasureChangesByTheWeightsRuleOfAPeriod() throws {
        // Body fat on days 0, 3, 8 and 10; a waist on days 1, 9; hips on day 2 only (the period before).
        let samples = BodyFatSamples(seconds: [0, 3, 8, 10].map(seconds), kilograms: [90, 89.5, 89, 88.8], percent: [30, 29.5, 29, 28.6])
        let composition = BodyComposition.Series(samples, localDays: days)
        let tape = [BodyMeasurement(date: Date(timeIntervalSince1970: seconds(1)), kind: .waist, centimetres: 90),
                    BodyMeasurement(date: Date(timeIntervalSince1970: seconds(9)), kind: .waist, centimetres: 88),
                    BodyMeasurement(date: Date(timeIntervalSince1970: seconds(2)), kind: .hips, centimetres: 101)]
        let trends = BodyMeasure.allCases.compactMap { MeasureTrend($0, measurements: tape, localDays: days) }
        let changes = BodyChanges(composition: composition, tapes: trends, current: 20_007...20_013, previous: 20_000...20_006)
        #expect(changes.rows.map(\.name) == ["body fat", "lean mass", "waist", "hips"])
        // The period's change: the trend at its end minus the trend just before it (DESIGN §3), by hand.
        var fat = 30.0
        fat += (1 - pow(0.9, 3)) * (29.5 - fat)
        let fatBefore = fat
        fat += (1 - pow(0.9, 5)) * (29 - fat)
        fat += (1 - pow(0.9, 2)) * (28.6 - fat)
        #expect(abs((changes.rows[0].now ?? .nan) - (fat - fatBefore)) < 1e-9)
        #expect(abs((changes.rows[0].before ?? .nan) - (fatBefore - 30)) < 1e-9)
        let waist = 90 + (1 - pow(0.9, 8)) * (88 - 90.0)
        #expect(abs((changes.rows[2].now ?? .nan) - (waist - 90)) < 1e-9)
        // Hips were measured once, the first value of all, alone in the period before: the row is there, but a first
        // value has no change to tell (issue 63, item 2), and none came after.
        #expect(changes.rows.count == 4 && changes.rows[3].now == nil && changes.rows[3].before == nil, "hips: one day before, none now")
        #expect(changes.rows[2].quantity == .centimetres && changes.rows[1].quantity == .kilograms && changes.rows[0].quantity == .percent)
        // The weight's figures use the same rule.
        let weight = DailySeries(sortedSeconds: samples.seconds, kilograms: samples.kilograms, localDays: days)
        #expect(weight.figures(from: 20_007, through: 20_013, gaining: false).trendChangeKilograms == weight.trendChange(from: 20_007, through: 20_013))
    }

    @Test func theLeanMassIsSaidWhenItMovedEnough() {
        #expect(LeanMassChange.sentence(weightChange: 0.1, leanChange: 0.6, unit: .kilograms) == "Your weight held, your lean mass rose 0.6 kg.")
        #expect(LeanMassChange.sentence(weightChange: -1.2, leanChange: 0.5, unit: .pounds)
            == "Your weight went down and your lean mass rose 1.1 lb: muscle kept while you lose is the change that lasts.")
        #expect(LeanMassChange.sentence(weightChange: 0.8, leanChange: -0.7, unit: .kilograms) == "Your weight went up and your lean mass fell 0.7 kg.")
        #expect(LeanMassChange.sentence(weightChange: 0, leanChange: 0.4, unit: .kilograms) == nil, "below a scale's noise")
    }
}
