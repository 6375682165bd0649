import Foundation
import Storage
import Testing
import TestSupport
@testable import Settings
import Vocabulary

@MainActor
@Suite struct SettingsTests {
    @Test func settingsSurviveANewStoreOnTheSameDatabase() async throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let store = LocalDataStore(directory: temp.url)
        let feature = SettingsFeature(settings: UserSettingsStore(repository: LocalSettingsRepository(store: store)),
                                      dataDirectory: temp.url, currentDate: { date("2026-06-10 08:00") })
        try await feature.setUnit(named: "lb")
        try await feature.setSyncFolder(temp.url.path)

        let reopened = UserSettingsStore(repository: LocalSettingsRepository(store: LocalDataStore(directory: temp.url)))
        try await reopened.ensureLoaded()
        #expect(reopened.unit == .pounds)
        #expect(reopened.settings.syncFolder == temp.url.standardizedFileURL.path)

        try await feature.setSyncFolder(nil)
        #expect(feature.current.syncFolder == nil)
    }

    @Test func anUnknownUnitIsRefusedAndChangesNothing() async throws {
        let feature = SettingsFeature(settings: UserSettingsStore(repository: LocalSettingsRepository(store: .inMemory())),
                                      dataDirectory: URL(fileURLWithPath: "/tmp"), currentDate: { date("2026-06-10 08:00") })
        await #expect(throws: SettingsError.unknownUnit("furlong")) { try await feature.setUnit(named: "furlong") }
        #expect(feature.current.unit == .kilograms)
    }

    @Test func aMissingSyncFolderIsRefused() async throws {
        let feature = SettingsFeature(settings: UserSettingsStore(repository: LocalSettingsRepository(store: .inMemory())),
                                      dataDirectory: URL(fileURLWithPath: "/tmp"), currentDate: { date("2026-06-10 08:00") })
        await #expect(throws: SettingsError.self) { try await feature.setSyncFolder("/no/such/folder/for/trend") }
        #expect(feature.current.syncFolder == nil)
    }

    @Test func aCorruptStoredValueFallsBackToTheDefaultWithAWarning() async throws {
        let store = LocalDataStore.inMemory()
        try store.write { connection in
            try connection.run("INSERT INTO settings(key, value) VALUES('unit', 'furlongs'), ('goalKilograms', 'nan')")
        }
        let settings = UserSettingsStore(repository: LocalSettingsRepository(store: store))
        try await settings.ensureLoaded()
        #expect(settings.unit == .kilograms)
        #expect(settings.goalKilograms == nil)
        #expect(settings.warnings.count == 2)
    }

    nonisolated static let pound = 0.45359237
    nonisolated static let weightCases: [(String, WeightUnit, Double)] = [
        ("82.4", .kilograms, 82.4),
        ("82.4 kg", .pounds, 82.4),
        ("181.6 lb", .kilograms, 181.6 * pound),
        ("181.6lbs", .kilograms, 181.6 * pound),
        ("12st 6lb", .kilograms, 174 * pound),
        ("12st6", .kilograms, 174 * pound),
        ("12 st 6 lb", .kilograms, 174 * pound),
        ("12.5st", .kilograms, 175 * pound),
        ("181.6", .pounds, 181.6 * pound),
        ("82,4", .kilograms, 82.4),
    ]

    @Test(arguments: weightCases)
    func weightsAreReadInEveryUnit(text: String, unit: WeightUnit, kilograms: Double) throws {
        let parsed = try WeightInput.parse(text, defaultUnit: unit)
        #expect(abs(parsed - kilograms) < 1e-9)
    }

    /// The grammar says which unit it read, so nothing after it has to look for the unit in the text again.
    @Test func aWeightSaysTheUnitItWasTypedIn() throws {
        let cases: [([String], WeightUnit, Double, Int, Bool)] = [
            (["82.4"], .pounds, 82.4, 1, true), (["181.6", "lb"], .pounds, 181.6, 2, true), (["82.4kg"], .pounds, 82.4, 1, false),
            (["12st", "6lb", "yesterday"], .kilograms, 12, 2, false), (["12", "st", "6", "lb"], .kilograms, 12, 4, true),
        ]
        let typedUnits: [WeightUnit] = [.pounds, .pounds, .kilograms, .stones, .stones]
        for (index, (tokens, setting, number, consumed, bare)) in cases.enumerated() {
            let reading = try WeightInput.read(tokens[...], defaultUnit: setting)
            #expect(reading.unit == typedUnits[index] && reading.number == number && reading.consumed == consumed
                && reading.startsWithBareNumber == bare, "\(tokens)")
        }
    }

    @Test(arguments: ["nan", "inf", "1e309", "-0", "0x1p3", "abc", "82.4.1", "12st 15lb", "", "82 furlongs", "12.5st6"])
    func malformedWeightsAreRefused(text: String) {
        #expect(throws: WeightInputError.self) { try WeightInput.parse(text, defaultUnit: .kilograms) }
    }

    @Test func weightsOutsideTheAcceptedRangeNameTheRange() {
        #expect(throws: WeightInputError.outOfRange("600", kilograms: 600)) {
            try WeightInput.parse("600", defaultUnit: .kilograms)
        }
        #expect(throws: WeightInputError.self) { try WeightInput.parse("19.9", defaultUnit: .kilograms) }
        #expect(throws: WeightInputError.outOfRange("1200 lb", kilograms: 1200 * 0.45359237)) {
            try WeightInput.parse(["1200", "lb"][...], defaultUnit: .kilograms)
        }
    }

    @Test func fixedDecimalsMatchPrintf() {
        for value in [0.0, 0.04, 0.05, 0.95, 1.25, 82.449, 82.45, 181.66, -0.4, -0.04, 123_456.789, 99.99] {
            for decimals in 0...2 {
                let printf = String(format: "%.\(decimals)f", value)
                // printf rounds halves to even on exact binary ties; the check allows that one difference.
                let ours = WeightUnit.fixed(value, decimals: decimals)
                #expect(ours == printf || abs((Double(ours) ?? .nan) - (Double(printf) ?? .nan)) <= pow(10, -Double(decimals)) + 1e-12,
                        "\(value) to \(decimals): \(ours) vs \(printf)")
            }
        }
        #expect(WeightUnit.fixed(-0.04, decimals: 1) == "0.0")
        #expect(WeightUnit.fixed(82.46, decimals: 1) == "82.5")
    }

    @Test func stonesAreShownAsStonesAndPounds() {
        #expect(WeightUnit.stones.format((12 * 14 + 6) * 0.45359237) == "12 st 6.0 lb")
        #expect(WeightUnit.pounds.format(82.4) == "181.7 lb")
        #expect(WeightUnit.kilograms.formatChange(-0.44) == "−0.4 kg")
    }
}

@Suite struct WhenInputTests {
    @Test(arguments: ["t", "tt", "T", "t2026-01-01"])
    func wordsThatOnlyLookLikeADateAreNotOne(text: String) throws {
        // Found by the fuzzer: a lone "t" once crashed the date reader.
        #expect(try WhenInput.parse([text][...]) == nil)
    }

    @Test func aDateWithAnEmptyTimeIsRefusedNotRead() {
        #expect(throws: WhenInputError.self) { try WhenInput.parse(["2026-01-01t"][...]) }
    }

    @Test func theFormsPeopleTypeAreRead() throws {
        #expect(try WhenInput.parse(["2026-06-01", "07:30"][...])?.0 == .dayTime(year: 2026, month: 6, day: 1, hour: 7, minute: 30))
        #expect(try WhenInput.parse(["2026-06-01T07:30"][...])?.0 == .dayTime(year: 2026, month: 6, day: 1, hour: 7, minute: 30))
        #expect(try WhenInput.parse(["yesterday"][...])?.0 == .yesterday)
        #expect(throws: WhenInputError.self) { try WhenInput.parse(["2026-06-01", "25:61"][...]) }
        #expect(throws: WhenInputError.self) { try WhenInput.parse(["2026-13-01"][...]) }
    }

    /// Issue 16's everyday words, resolved on Wednesday 2026-06-17 at 08:00 in Berlin.
    @Test func everydayWordsNameTheDayAPersonMeans() throws {
        let berlin = calendar(zone: "Europe/Berlin")
        let now = date("2026-06-17 08:00", zone: "Europe/Berlin")
        func at(_ words: String) throws -> String? {
            guard let (when, used) = try WhenInput.parse(words.split(separator: " ").map(String.init)[...]) else { return nil }
            #expect(used == words.split(separator: " ").count, "\(words) is read whole")
            let formatter = DateFormatter()
            formatter.timeZone = berlin.timeZone
            formatter.dateFormat = "yyyy-MM-dd HH:mm"
            return formatter.string(from: try when.resolve(now: now, calendar: berlin))
        }
        #expect(try at("yesterday 21:00") == "2026-06-16 21:00")
        #expect(try at("yesterday") == "2026-06-16 12:00")
        #expect(try at("07:15") == "2026-06-17 07:15", "a time alone is today")
        #expect(try at("today 06:30") == "2026-06-17 06:30")
        #expect(try at("monday") == "2026-06-15 12:00", "the latest Monday before today")
        #expect(try at("wed") == "2026-06-10 12:00", "today's weekday is last week's")
        #expect(try at("last fri 07:30") == "2026-06-12 07:30")
        #expect(try at("3 days ago") == "2026-06-14 12:00")
        #expect(try at("1 day ago 23:59") == "2026-06-16 23:59")
        #expect(throws: WhenInputError.self) { try at("21:00") }
        #expect(throws: WhenInputError.self) { try at("2 days ago 25:00") }
        #expect(try WhenInput.parse(["last", "week"][...]) == nil, "not a WHEN: the words stay for the caller")
    }
}

@Suite struct DayRangeTests {
    let today = DayNumber.from(year: 2026, month: 6, day: 17)

    func days(_ text: String) -> (String?, String?)? {
        DayRange.parse(text, today: today).map { ($0.firstDay.map(DayNumber.string), $0.lastDay.map(DayNumber.string)) }
    }

    @Test func everyRangeFormIsADaySpan() {
        #expect(days("2w")! == ("2026-06-04", nil), "up to today, and past it if the clock was set back")
        #expect(days("30d")! == ("2026-05-19", nil))
        #expect(days("1m")! == ("2026-05-19", nil), "a month is 30 days, as progress has it")
        #expect(days("1y")! == ("2025-06-18", nil))
        #expect(days("all")! == (nil, nil))
        #expect(days("2026-02")! == ("2026-02-01", "2026-02-28"))
        #expect(days("2024-02")! == ("2024-02-01", "2024-02-29"))
        #expect(days("2025")! == ("2025-01-01", "2025-12-31"))
        #expect(days("2026-01-01..2026-01-31")! == ("2026-01-01", "2026-01-31"))
        #expect(days("2026-06-10..")! == ("2026-06-10", nil))
        #expect(days("..2026-01-31")! == (nil, "2026-01-31"))
        #expect(DayRange.parse("2026-02", today: today)?.title == "February 2026")
        for bad in ["1x", "0w", "2026-13", "2026-02-30..2026-03-01", "2026-03-01..2026-02-01", "..", "w", "12345"] {
            #expect(DayRange.parse(bad, today: today) == nil, "\(bad)")
        }
    }
}

@Suite struct FutureWeighInTests {
    let utc = calendar(zone: "UTC")

    @Test func aTimeLaterTodayIsRefusedBeyondFiveMinutesOfClockSkew() throws {
        let now = date("2026-06-15 08:00")
        #expect(throws: WhenInputError.future("2026-06-15 08:30")) {
            try WhenInput.dayTime(year: 2026, month: 6, day: 15, hour: 8, minute: 30).resolve(now: now, calendar: utc)
        }
        #expect(try WhenInput.dayTime(year: 2026, month: 6, day: 15, hour: 8, minute: 4).resolve(now: now, calendar: utc)
            == date("2026-06-15 08:04"))
    }

    @Test func aDateWithoutATimeIsNowTodayAndNoonOnOtherDays() throws {
        let now = date("2026-06-15 08:00")
        #expect(try WhenInput.day(year: 2026, month: 6, day: 15).resolve(now: now, calendar: utc) == now)
        #expect(try WhenInput.day(year: 2026, month: 6, day: 14).resolve(now: now, calendar: utc) == date("2026-06-14 12:00"))
        #expect(throws: WhenInputError.future("2026-06-16")) {
            try WhenInput.day(year: 2026, month: 6, day: 16).resolve(now: now, calendar: utc)
        }
    }
}

/// A plain decimal as files and people write it: digits and one `.` or `,`, nothing else.
@Suite struct PlainDecimalTests {
    @Test func digitsAndOnePointOrCommaOnly() {
        let cases: [(String, Double?)] = [
            ("80.3", 80.3), ("80,3", 80.3), (".5", 0.5), (",5", 0.5), ("80.", 80), ("0082", 82), ("180", 180),
            ("1.2.3", nil), ("1,2.3", nil), ("-80", nil), ("+80", nil), ("8e1", nil), ("", nil), (".", nil), (",", nil),
            ("80 ", nil), (" 80", nil), ("٣", nil), ("8\u{301}", nil), ("inf", nil), ("0x10", nil),
            (String(repeating: "1", count: 32), 1.1111111111111111e31), (String(repeating: "1", count: 33), nil),
        ]
        for (text, expected) in cases {
            #expect(PlainDecimal.parse(text) == expected, "\(text.debugDescription)")
        }
        #expect(PlainDecimal.parse("12.5", maximumLength: 3) == nil)
    }
}
