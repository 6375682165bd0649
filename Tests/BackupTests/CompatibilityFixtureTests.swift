import AppCore
import Cryptography
import DailyTips
import Foundation
import Testing
import TestSupport
import Vocabulary
@testable import Backup

/// Files written by shipped versions of Trend (Tests/Fixtures) still restore
/// and import to exactly the values they hold, whatever the code has become.
@MainActor
@Suite struct CompatibilityFixtureTests {
    static let ids = ["7e403594-f5f6-4725-8bbd-1e8aeb8920af", "f0ab1b26-6099-42df-b901-727576bfc129",
                      "b12c191b-7489-4111-929d-a750c446a507", "d03febe8-0194-45c5-a4b9-ebada377c61c"]
    static let instants: [Double] = [1_767_597_000, 1_767_683_100, 1_767_735_000, 1_767_855_300]
    static let kilograms = [81.828063548, 81.555908126, 81.601267363, 78.92507238]
    static let notes: [String?] = ["first \"quoted\" — naïve café ✓ back\\slash", nil, "evening", nil]

    @Test func aVersion1SnapshotStillDecodesWithItsOwnHash() throws {
        let data = try Data(contentsOf: fixtureURL("snapshot-v1.json"))
        let snapshot = try RecoverySnapshot.decode(data, name: "snapshot-v1", schema: .trend)
        #expect(snapshot.formatVersion == 1)
        #expect(snapshot.contentHash == "b0c7af6941dc9a61258dba1ff2cfa87caf1630eef1cf717ecddd648ce1186633")
        #expect(snapshot.installationID == "2dad3b7d-3497-45e6-8b28-d52913b43f01")
        #expect(snapshot.appVersion == "0.1.0")
        // Format 1 kept a schedule's words; they are read as today's codes.
        #expect(snapshot.content.habits.map(\.schedule)
            == ["daily", "week:3", "daily", "daily", "weekdays:mon,wed,fri", "days:2/10"])
    }

    @Test func aVersion2SnapshotDecodesWithItsOwnHashAndItsEncodingIsToday() throws {
        let data = try Data(contentsOf: fixtureURL("snapshot-v2.json"))
        let snapshot = try RecoverySnapshot.decode(data, name: "snapshot-v2", schema: .trend)
        #expect(snapshot.formatVersion == 2 && snapshot.appVersion == "0.2.0")
        #expect(snapshot.contentHash == "d46467c83f0b90d1692133e44c7c4236e77854a6801f7972a57ae669fbfd2bf6")
        // Content without body fat: today's encoder writes it byte for byte as 0.2.0 did.
        #expect(try ContentHash.sha256(snapshot.content.canonical()) == snapshot.contentHash)
    }

    @Test func aVersion3SnapshotDecodesWithItsOwnHashAndItsEncodingIsToday() throws {
        let data = try Data(contentsOf: fixtureURL("snapshot-v3.json"))
        let snapshot = try RecoverySnapshot.decode(data, name: "snapshot-v3", schema: .trend)
        #expect(snapshot.formatVersion == 3)
        #expect(snapshot.contentHash == "2f0429d5547c5b2ad1691d938a23dfda543433c8d257b997dfa2ab4c58cf48b9")
        // Weigh-ins with body fat: today's encoder (`WeightField`) writes them byte for byte as the landed version did.
        #expect(try ContentHash.sha256(snapshot.content.canonical()) == snapshot.contentHash)
    }

    @Test func aVersion4SnapshotCarriesTheTypedUnits() throws {
        let data = try Data(contentsOf: fixtureURL("snapshot-v4.json"))
        let snapshot = try RecoverySnapshot.decode(data, name: "snapshot-v4", schema: .trend)
        #expect(snapshot.formatVersion == 4)
        #expect(snapshot.contentHash == "540cc1af3dbfcf4e727931780358244e11b3a4342030c6bd87b4f3f535fd51cd")
        #expect(try ContentHash.sha256(snapshot.content.canonical()) == snapshot.contentHash)
    }

    /// Version 5 adds tape measures and the measure-unit and sex settings (Tests/Fixtures/README.md): they restore as typed.
    @Test func aVersion5SnapshotRestoresItsTapeMeasures() async throws {
        let graph = makeTestApp(clock: TestClock(date("2026-11-30 08:00")))
        let plan = try await graph.app.backupFeature.prepareRestore(from: .file(fixtureURL("snapshot-v5.json")))
        let result = try await graph.app.backupFeature.restore(plan)
        #expect(result.entries == 8 && result.habits == 6)
        try await graph.app.measurementsFeature.load()
        let measured = graph.app.measurementsFeature.measurements
        #expect(measured.map(\.kind) == [.waist, .neck, .chest] || measured.map(\.kind) == [.waist, .chest, .neck])
        #expect(measured.map(\.centimetres).sorted() == [38.1, 84.5, 101.6])
        #expect(measured.filter { $0.kind != .waist }.allSatisfy { $0.typedUnit == .inches && $0.note == "tape, after \"coffee\"" })
        try await graph.app.settingsFeature.load()
        #expect(graph.app.settingsFeature.current.measureUnit == .inches)
        #expect(graph.app.settingsFeature.current.sex == .female)
        let data = try Data(contentsOf: fixtureURL("snapshot-v5.json"))
        let snapshot = try RecoverySnapshot.decode(data, name: "snapshot-v5", schema: .trend)
        #expect(try ContentHash.sha256(snapshot.content.canonical()) == snapshot.contentHash)
    }

    /// The newest snapshot fixture is of the format this Trend writes: a new `formatVersion` comes with its fixture.
    @Test func theNewestSnapshotFixtureIsOfTheFormatThisTrendWrites() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: fixtureURL("").path)
        let versions = names.compactMap { name -> Int? in
            guard name.hasPrefix("snapshot-v"), name.hasSuffix(".json") else { return nil }
            return Int(name.dropFirst("snapshot-v".count).dropLast(".json".count))
        }
        #expect(versions.max() == RecoverySnapshot.formatVersion)
        #expect(Set(versions) == Set(1...RecoverySnapshot.formatVersion), "a fixture for every format shipped")
    }

    @Test(arguments: ["snapshot-v1.json", "snapshot-v2.json", "snapshot-v3.json", "snapshot-v4.json", "snapshot-v5.json"])
    func everySnapshotVersionRestoresToExactValues(file: String) async throws {
        let graph = makeTestApp(clock: TestClock(date("2026-11-30 08:00")))
        let backup = graph.app.backupFeature
        let plan = try await backup.prepareRestore(from: .file(fixtureURL(file)))
        let result = try await backup.restore(plan)
        // Version 3's fixture adds two weigh-ins with body fat (Tests/Fixtures/README.md).
        let withBodyFat = ["snapshot-v3.json", "snapshot-v4.json", "snapshot-v5.json"].contains(file)
        let withTypedUnits = ["snapshot-v4.json", "snapshot-v5.json"].contains(file)
        #expect(result.entries == (withTypedUnits ? 8 : withBodyFat ? 6 : 4) && result.habits == 6)

        let all = (try await graph.app.weightEntryFeature.allEntries())
        let entries = Array(all.prefix(4))
        #expect(entries.map(\.id) == Self.ids)
        #expect(entries.map(\.date.timeIntervalSince1970) == Self.instants)
        #expect(entries.map(\.kilograms) == Self.kilograms)
        #expect(entries.map(\.note) == Self.notes)
        #expect(entries.allSatisfy { $0.bodyFatPercent == nil })
        if withBodyFat {
            let added = all.dropFirst(4).prefix(2)
            #expect(added.map(\.id) == ["019ba18e-0d80-7401-9c33-6eab550d182a", "019ba6ab-41c0-799a-ac3a-619f85a62f9d"])
            #expect(added.map(\.date.timeIntervalSince1970) == [1_767_942_000, 1_768_027_800])
            #expect(added.map(\.kilograms) == [78.6, 78.4])
            #expect(added.map(\.note) == ["after the sauna", nil])
            #expect(added.map(\.bodyFatPercent) == [24.1, 23.8])
        }
        // Version 4's adds two weigh-ins typed in pounds and stones; the older ones carry no typed unit.
        #expect(all.prefix(6).allSatisfy { $0.typedUnit == nil })
        if withTypedUnits {
            let typed = all.dropFirst(6)
            #expect(typed.map(\.typedUnit) == [.pounds, .stones] && typed.map(\.note) == [nil, "in stones"])
            #expect(typed.map { abs($0.kilograms - WeightUnit.pounds.kilograms(from: $0.typedUnit == .pounds ? 172.6 : 172)) < 1e-9 } == [true, true])
        }
        #expect(graph.app.settingsFeature.current.unit == .pounds)
        #expect(graph.app.settingsFeature.current.goalKilograms == 74.84274105)

        try await graph.app.habitsFeature.load()
        let habits = graph.app.habitsFeature.habits
        #expect(habits.map(\.name) == ["Read", "Gym", "Water", "Drinks", "Stretch", "Piano"])
        #expect(habits.map(\.schedule) == [.daily, .timesPerWeek(3), .daily, .daily, .weekdays([0, 2, 4]),
                                           .timesPerDays(times: 2, days: 10)])
        #expect(habits.map(\.kind) == [.yesNo, .yesNo, .atLeast(8), .atMost(2), .yesNo, .yesNo])
        #expect(habits.map(\.archived) == [false, false, false, false, false, true])
        #expect(habits[0].marks == [20_458: .done, 20_459: .skipped])
        #expect(habits[1].marks == [20_460: .done])
        #expect(habits[2].marks == [20_458: .value(9.5)])
        #expect(habits[3].marks == [20_459: .value(3)])
        // The deck goes on from the restored one: same seed, and the tip 0.1.0 dealt counts as dealt.
        let deck = try #require(try graph.store.readContent().tipDeck)
        #expect(deck.contains("\"seed\":635849817868298157"), "\(deck)")
        let state = try JSONDecoder().decode(TipDeckState.self, from: Data(deck.utf8))
        // Version 3's was written on a later day, which had dealt one more tip; version 4's and 5's on later ones still.
        let dealt = file == "snapshot-v5.json" ? 5 : (withTypedUnits ? 4 : withBodyFat ? 3 : 2)
        #expect(state.everyday.dealt.count == dealt && state.everyday.dealt.first == "movement-008", "\(deck)")
    }

    @Test(arguments: ["export-v1.json", "export-v1.csv"])
    func aVersion1ExportImportsToExactValues(file: String) async throws {
        let graph = makeTestApp(clock: TestClock(date("2026-11-30 08:00")))
        if file.hasSuffix(".csv") { try await graph.app.settingsFeature.setUnit(named: "lb") }
        let result = try await graph.app.weightImportFeature.importFile(fixtureURL(file))
        #expect(result.imported == 4 && result.preview.invalid.isEmpty)
        let entries = (try await graph.app.weightEntryFeature.allEntries())
        #expect(entries.map(\.id) == Self.ids)
        #expect(entries.map(\.date.timeIntervalSince1970) == Self.instants)
        #expect(entries.map(\.note) == Self.notes)
        if file.hasSuffix(".json") {
            #expect(entries.map(\.kilograms) == Self.kilograms)
        } else {
            // The CSV holds pounds to one decimal, as the person saw them.
            #expect(entries.map { WeightUnit.pounds.value(fromKilograms: $0.kilograms) }
                .map { ($0 * 10).rounded() / 10 } == [180.4, 179.8, 179.9, 174.0])
        }
        let again = try await graph.app.weightImportFeature.importFile(fixtureURL(file))
        #expect(again.imported == 0 && again.preview.duplicates == 4, "importing twice adds nothing")
    }
}
