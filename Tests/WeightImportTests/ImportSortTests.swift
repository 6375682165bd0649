import Foundation
import Testing
@testable import WeightImport
@testable import WeightLog

/// An import's rows in time order are told apart without a set of every
/// moment: only rows of the same second are compared. Rows out of order take
/// the set, built from the moments kept until the order broke. Every order
/// must find the same new moments and the same number of repeats, against the
/// file itself and against what is stored.
@Suite struct ImportSortTests {
    private static func rows(seed: UInt64) -> [ImportedWeight] {
        var state = seed
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        var rows: [ImportedWeight] = []
        var second = 1_700_000_000.0
        for _ in 0..<3_000 {
            // Many rows share a second; some repeat a weight within it, some only differ past 4 decimals.
            if next(3) == 0 { second += Double(1 + next(3)) }
            let weight = 70 + Double(next(6)) / 10 + (next(5) == 0 ? 0.00001 : 0)
            rows.append(ImportedWeight(id: nil, date: Date(timeIntervalSince1970: second + Double(next(10)) / 10), kilograms: weight))
        }
        return rows
    }

    private static func moments(_ preview: ImportPreview) -> [WeightEntry.Moment] {
        preview.newEntries.map(\.moment).sorted { ($0.second, $0.tenThousandths) < ($1.second, $1.tenThousandths) }
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func timeOrderAndAnyOrderFindTheSameRows(seed: UInt64) {
        var stored = StoredWeightKeys()
        let rows = Self.rows(seed: seed).sorted { $0.date < $1.date }
        for row in rows.prefix(400) where row.kilograms < 70.2 {
            stored.remember(WeightEntry.Moment(date: row.date, kilograms: row.kilograms))
        }
        for keys in [StoredWeightKeys(), stored] {
            var inOrder = ReadOutcome(format: .genericCSV, unit: .kilograms, unitAssumed: false)
            inOrder.weights = rows
            var shuffled = inOrder
            shuffled.weights = rows.reversed()
            // In order for its first half, then backwards: the set is built from the moments kept so far.
            var broken = inOrder
            broken.weights = Array(rows.prefix(rows.count / 2)) + rows.suffix(rows.count - rows.count / 2).reversed()
            let ordered = WeightImportFeature.sort(inOrder, against: keys)
            let unordered = WeightImportFeature.sort(shuffled, against: keys)
            let halfway = WeightImportFeature.sort(broken, against: keys)
            #expect(halfway.duplicates == ordered.duplicates)
            let halfwaySame = Self.moments(halfway) == Self.moments(ordered)
            #expect(halfwaySame, "the same new moments")
            #expect(ordered.duplicates > 100, "the seed makes repeats")
            #expect(ordered.duplicates == unordered.duplicates)
            let unorderedSame = Self.moments(ordered) == Self.moments(unordered)
            #expect(unorderedSame, "the same new moments")
            #expect(Set(Self.moments(ordered)).count == ordered.newEntries.count, "no moment twice")
            #expect(ordered.newEntries.allSatisfy { !keys.moments.contains($0.moment) }, "none already stored")
        }
    }
}
