import Foundation
import Testing
@testable import Settings

/// Issue 49, item 3: one list of settings (`Setting.all`) drives storage, validation, `set`, `settings`, snapshots,
/// sync's portable set and the README's table.
@Suite struct SettingDescriptionTests {
    /// Each setting's row in the README says what its description says: its command, key, values and whether it travels.
    @Test func theReadmesTableListsEverySettingAsDescribed() throws {
        let readme = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md"), encoding: .utf8)
        let rows = readme.split(separator: "\n").filter { $0.hasPrefix("| `") && $0.contains(" | `") }.map(String.init)
        for setting in Setting.all {
            let row = rows.first { $0.contains("| `\(setting.key)` |") }
            #expect(row != nil, "README has no row for \(setting.key)")
            guard let row else { continue }
            #expect(row.hasSuffix(setting.portable ? "| yes |" : "| no |"), "\(row)")
            #expect(row.contains(setting.forms.replacingOccurrences(of: "|", with: "\\|")), "\(row)")
            if let word = setting.word { #expect(row.hasPrefix("| `set \(word)`"), "\(row)") }
        }
        #expect(rows.filter { $0.contains("| yes |") || $0.contains("| no |") }.count == Setting.all.count)
    }

    /// The portable keys are the described ones, and a stored value is checked by its setting's one rule.
    @Test func portableKeysAndChecksComeFromTheDescriptions() {
        #expect(SettingsTable.portableKeys == ["unit", "goalKilograms", "progressRange", "measureUnit", "heightMetres", "sex", "personName",
                                               "birthYear", "dayStartMinutes"])
        #expect(Setting.problem(key: "unit", value: "furlong") != nil && Setting.problem(key: "unit", value: "lb") == nil)
        #expect(Setting.problem(key: "progressRange", value: String(repeating: "9", count: 100_000)) != nil)
        #expect(Setting.problem(key: "somethingNew", value: "short") == nil)
        let loaded = LocalSettingsRepository.decode(["unit": "furlong", "heightMetres": "1.8", "sex": "male"])
        #expect(loaded.settings.unit == .kilograms && loaded.settings.heightMetres == 1.8 && loaded.settings.sex == .male)
        #expect(loaded.warnings.count == 1 && loaded.warnings[0].contains("unit"))
    }

    /// `settings --json` gives every setting under its own key, in the order scripts have read them since each was
    /// added (a new one last), and `settings` lists each under its own label, from the descriptions.
    @Test func theSettingsScreenComesFromTheDescriptions() {
        #expect(Setting.answerOrder.map(\.answerKey)
                == ["unit", "goalKilograms", "progressRange", "syncFolder", "heightMetres", "dayStartsAt", "deviceName", "measureUnit", "sex",
                    "name", "born"])
        #expect(Set(Setting.all.map(\.answerPosition)) == Set(0..<Setting.all.count))
        #expect(Set(Setting.all.map(\.label)).count == Setting.all.count && Setting.all.allSatisfy { $0.label.count < 16 })
        var settings = UserSettings.defaults
        settings.unit = .pounds
        settings.goalKilograms = 77.1107029
        settings.dayStartMinutes = 240
        #expect(Setting.goal.listed(settings) == "170.0 lb" && Setting.goal.answered(settings) == .number(77.1107029))
        #expect(Setting.dayStart.answered(settings) == .text("04:00") && Setting.height.answered(settings) == nil)
        #expect(Setting.dayStart.listed(settings).hasPrefix("04:00 (habit marks"))
    }

    /// `off` and its other words clear any setting that has a default, and refuse for the unit.
    @Test func oneVocabularyForOff() {
        for word in ["off", "None", "clear", "default", "auto"] { #expect(Setting.isOff(word)) }
        #expect(!Setting.isOff("midnight"))
        #expect(!Setting.unit.clearable && Setting.height.clearable)
    }
}

/// Issue 62: who the report is about. `set name` and `set born` are settings like the others: checked by their
/// one rule, refused in words, and the year given as a ten-year band.
@Suite struct PersonSettingsTests {
    @Test func aNameAndAYearOfBirthAreCheckedAndTheAgeIsABand() throws {
        #expect(try Setting.personName.read("  Alex Doe ") == "Alex Doe")
        #expect(throws: SettingsError.self) { try Setting.personName.read("line\nbreak") }
        #expect(try Setting.birthYear.read("1984") == "1984")
        for bad in ["84", "1850", "nineteen", "1984-05-01"] {
            #expect(throws: SettingsError.self, "\(bad)") { try Setting.birthYear.read(bad) }
        }
        #expect(Setting.problem(key: "birthYear", value: "2300") != nil && Setting.problem(key: "birthYear", value: "1990") == nil)
        #expect(BirthYear.ageBand(born: 1984, in: 2026) == "40–49" && BirthYear.ageBand(born: 1984, in: 2024) == "40–49")
        #expect(BirthYear.ageBand(born: 1984, in: 2023) == "30–39" && BirthYear.ageBand(born: 2030, in: 2026) == nil)
        #expect(Setting.named("name") == Setting.personName && Setting.named("device-name") == Setting.deviceName)
    }
}
