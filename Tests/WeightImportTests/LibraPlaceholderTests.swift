import Foundation
import Testing
import TestSupport
@testable import WeightImport
import Vocabulary

/// Libra's midnight placeholders, read from Libra 6's layout (`apps/libra-6-berlin.csv`) in any zone.
extension TrackerExportTests {
    /// Issue 32, item 13: Libra writes UTC, and its placeholders sit at the midnight of the zone the file was
    /// kept in (23:00 UTC from Berlin in winter, 22:00 in summer). Read anywhere, the placeholders go and the
    /// real weigh-ins stay; read outside Berlin, every placeholder used to stay beside its real weigh-in.
    @Test(arguments: ["Europe/Berlin", "UTC", "America/New_York", "Asia/Tokyo"])
    func libraSixPlaceholdersGoWhereverTheFileIsRead(zone: String) throws {
        let outcome = try read("libra-6-berlin.csv", zone: zone)
        #expect(outcome.format == .libra && outcome.invalid.isEmpty)
        #expect(outcome.repeated == 3, "three placeholders, counted as the file's copies")
        let instants = ["2018-01-19T17:53:00Z", "2018-01-19T23:00:00Z", "2018-06-11T05:41:00Z", "2018-06-12T06:02:00Z"]
            .map { ISO8601DateFormatter().date(from: $0)! }
        #expect(Array(outcome.weights.map(\.date).prefix(4)) == instants, "the real weigh-ins, and the midnight row with no twin")
        #expect(outcome.weights.map(\.kilograms) == [61.5, 60.2, 60.8, 60.6, 64.0])
        #expect(outcome.weights.map(\.note) == [nil, nil, "after the run", nil, nil])
        #expect(outcome.weights[3].entry.bodyFatPercent == 21.4)
    }

    /// A real weigh-in typed on the hour with the same weight later that day is not a placeholder: one such
    /// time of day is not a midnight the file shares.
    @Test func aWeighInOnTheHourWithALaterTwinStaysWhenNoOtherRowSharesItsTime() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let url = temp.url.appendingPathComponent("libra.csv")
        try Data("""
            #Version: 6
            #Units: kg

            #date;weight;weight trend;body fat;body fat trend;muscle mass;muscle mass trend;log
            2018-03-01T07:00:00.000Z;70.1;70.1;;;;;
            2018-03-01T19:12:00.000Z;70.1;70.1;;;;;
            """.utf8).write(to: url)
        let days = LocalDays.shared(for: try #require(TimeZone(identifier: "UTC")))
        let outcome = try WeightFileReader(displayUnit: .kilograms, dates: ImportDates(localDays: days)).read(url)
        #expect(outcome.weights.count == 2 && outcome.repeated == 0)
    }
}
