import Foundation
import Vocabulary

/// One setting, described once, as `WeightField` describes a weigh-in's field: its stored key and the word `set`
/// takes, whether it travels to the person's other devices (and comes back in a restore), how a stored value is
/// checked and put into `UserSettings`, how the words `set` is given are read, and what the history calls a
/// change. `Setting.all` drives storage, validation, `set`, `settings`, snapshots, sync's portable set and the
/// README's table: a new setting is one entry there.
public struct Setting: Sendable, Hashable {
    /// The key it is stored under (`unit`, `goalKilograms`).
    public let key: String
    /// The word `set` takes for it (`unit`, `day-starts-at`); nil: another command sets it (`goal`, `progress`).
    public let word: String?
    /// Other words `set` reads the same way (`units`, `start-of-day`).
    public let aliases: [String]
    /// Whether it travels to the other devices and comes back in a restore; a device-local one never does.
    public let portable: Bool
    /// Whether `off` takes it back to its default (the unit has no off).
    public var clearable: Bool { key != Setting.unit.key }
    /// What `set` is given, for help and a refusal (`kg|lb|st`), and the words Tab offers.
    public let forms: String
    public let choices: [String]
    /// What the setting is, in the words of a warning about a stored value (`the unit`).
    let noun: String
    /// Why a stored value cannot be used (nil: it can): the one check `set`, loading, a restore and a sync make.
    let problem: @Sendable (String) -> String?
    /// Puts a stored value, checked, into the settings (nil: the default).
    let apply: @Sendable (String?, inout UserSettings) -> Void
    /// Reads what `set` was given into the value to store; nil clears it (`off`). Throws what is wrong with it.
    let read: @Sendable (String) throws(SettingsError) -> String?
    /// What the history calls setting it to a stored value, in the settings of the moment.
    let said: @Sendable (String?, UserSettings) -> String
    /// The one line `set` answers with: the setting as it is now (the settings after, and before).
    public let confirmed: @Sendable (UserSettings, UserSettings) -> String
    /// How `settings` lists it: its label, and its value now (with how to set it, where it is not set).
    public let label: String
    public let listed: @Sendable (UserSettings) -> String
    /// Its member in `settings --json`: the key, where it stands among the members (scripts have read them in this
    /// order since each was added; a new one goes last), and its value now (nil: `null`).
    public let answerKey: String
    public let answerPosition: Int
    public let answered: @Sendable (UserSettings) -> Answer?

    /// A setting's value as `settings --json` gives it.
    public enum Answer: Sendable, Equatable {
        case text(String)
        case number(Double)
    }

    /// The settings in the order `settings --json` gives them.
    public static var answerOrder: [Setting] { all.sorted { $0.answerPosition < $1.answerPosition } }

    public static func == (lhs: Setting, rhs: Setting) -> Bool { lhs.key == rhs.key }
    public func hash(into hasher: inout Hasher) { hasher.combine(key) }

    /// The words that turn a setting off (back to its default), the same for every one.
    public static let offWords: Set<String> = ["off", "none", "clear", "default", "auto"]

    /// Whether `typed` means off.
    public static func isOff(_ typed: String) -> Bool { offWords.contains(typed.trimmingCharacters(in: .whitespaces).lowercased()) }

    /// The setting stored under `key`.
    public static func stored(under key: String) -> Setting? { all.first { $0.key == key } }

    /// The words `set` names it by: `word`, then its aliases.
    public var words: [String] { (word.map { [$0] } ?? []) + aliases }

    /// The setting `set` names by `word` or one of its aliases.
    public static func named(_ word: String) -> Setting? {
        let word = word.lowercased()
        return all.first { $0.word == word || $0.aliases.contains(word) }
    }

    /// The keys that travel and come back in a restore.
    public static var portableKeys: Set<String> { Set(all.filter(\.portable).map(\.key)) }

    /// Why the stored `value` cannot be kept under `key`; a key this Trend does not know is checked only for length.
    public static func problem(key: String, value: String) -> String? {
        guard let setting = stored(under: key) else { return value.count > 16 ? "the setting '\(key)' is overlong" : nil }
        return setting.problem(value)
    }

    /// The warning for a stored value loading cannot use: the default is used instead.
    func warning(_ problem: String) -> String {
        "the stored \(noun) cannot be used: \(problem); the default is used"
    }
}

extension Setting {
    /// Every setting, in the order `settings` lists them.
    public static let all: [Setting] = [unit, goal, progressRange, measureUnit, height, sex, personName, birthYear, dayStart, syncFolder,
                                        deviceName]

    public static let unit = Setting(
        key: "unit", word: "unit", aliases: ["units"], portable: true, forms: "kg|lb|st", choices: WeightUnit.allCases.map(\.rawValue),
        noun: "unit",
        problem: { WeightUnit(rawValue: $0) == nil ? "the unit '\($0.prefix(20))' is unknown" : nil },
        apply: { value, settings in settings.unit = value.flatMap(WeightUnit.init(rawValue:)) ?? .kilograms },
        read: { typed throws(SettingsError) in
            guard let unit = WeightUnit(word: typed) else { throw .unknownUnit(typed) }
            return unit.rawValue
        },
        said: { value, _ in "set units \(value ?? "kg")" },
        confirmed: { now, before in
            "Unit: \(now.unit.rawValue)." + (now.measureUnit == nil && now.tapeUnit != before.tapeUnit
                ? " Tape measures follow it, in \(now.tapeUnit.name) ('set measure-unit \(before.tapeUnit.rawValue)' keeps them as they were)." : "")
        },
        label: "unit", listed: { $0.unit.rawValue },
        answerKey: "unit", answerPosition: 0, answered: { .text($0.unit.rawValue) })

    public static let goal = Setting(
        key: "goalKilograms", word: nil, aliases: [], portable: true, forms: "a weight, or clear", choices: [], noun: "goal",
        problem: { value in
            guard let goal = Double(value), goal.isFinite, WeightUnit.acceptedKilograms.contains(goal) else {
                return "the goal '\(value.prefix(20))' is outside \(WeightUnit.acceptedKilogramsText)"
            }
            return nil
        },
        apply: { value, settings in settings.goalKilograms = value.flatMap(Double.init) },
        read: { typed throws(SettingsError) in typed },
        said: { value, settings in value.flatMap(Double.init).map { "goal \(settings.unit.format($0))" } ?? "goal cleared" },
        confirmed: { now, _ in now.goalKilograms.map { "Goal: \(now.unit.format($0))." } ?? "No goal set." },
        label: "goal", listed: { settings in settings.goalKilograms.map { settings.unit.format($0) } ?? "none" },
        answerKey: "goalKilograms", answerPosition: 1, answered: { $0.goalKilograms.map(Answer.number) })

    public static let progressRange = Setting(
        key: "progressRange", word: nil, aliases: [], portable: true, forms: "a RANGE", choices: [], noun: "progress range",
        // A RANGE as `progress` reads it (whatever today is), no longer than any it writes.
        problem: { $0.count <= 24 && DayRange.parse($0, today: 20_000) != nil ? nil : "the progress range '\($0.prefix(20))' is not a range" },
        apply: { value, settings in settings.progressRange = value ?? UserSettings.defaults.progressRange },
        read: { typed throws(SettingsError) in typed },
        said: { value, _ in "progress range \(value ?? UserSettings.defaults.progressRange)" },
        confirmed: { now, _ in "Progress range: \(now.progressRange)." },
        label: "progress range", listed: { $0.progressRange },
        answerKey: "progressRange", answerPosition: 2, answered: { .text($0.progressRange) })

    public static let measureUnit = Setting(
        key: "measureUnit", word: "measure-unit", aliases: ["measure-units", "tape-unit", "length-unit"], portable: true,
        forms: "cm|in|off", choices: LengthUnit.allCases.map(\.rawValue) + ["off"], noun: "measure unit",
        problem: { LengthUnit(rawValue: $0) == nil ? "the measure unit '\($0.prefix(20))' is unknown" : nil },
        apply: { value, settings in settings.measureUnit = value.flatMap(LengthUnit.init(rawValue:)) },
        read: { typed throws(SettingsError) in
            guard let unit = LengthUnit(word: typed) else { throw .unknownMeasureUnit(String(typed.prefix(40))) }
            return unit.rawValue
        },
        said: { value, _ in "set measure-unit \(value ?? "off")" },
        confirmed: { now, _ in "Tape measures: \(now.tapeUnit.rawValue)" + (now.measureUnit == nil ? ", as usual with \(now.unit.rawValue)." : ".") },
        label: "measure unit",
        listed: { $0.tapeUnit.rawValue + ($0.measureUnit == nil ? " (with the weight's unit; 'set measure-unit cm|in' to choose)" : "") },
        answerKey: "measureUnit", answerPosition: 7, answered: { .text($0.tapeUnit.rawValue) })

    public static let height = Setting(
        key: "heightMetres", word: "height", aliases: [], portable: true, forms: "180 cm|5ft 11in|off", choices: ["off"], noun: "height",
        problem: { value in
            guard let height = Double(value), HeightInput.acceptedMetres.contains(height) else {
                return "the height '\(value.prefix(20))' is outside 0.5–2.8 m"
            }
            return nil
        },
        apply: { value, settings in settings.heightMetres = value.flatMap(Double.init) },
        read: { typed throws(SettingsError) in "\(try HeightInput.parse(typed))" },
        said: { value, _ in value.flatMap(Double.init).map { "set height \(Int(($0 * 100).rounded())) cm" } ?? "set height off" },
        confirmed: { now, _ in "Height: " + (now.heightMetres.map(now.tapeUnit.height) ?? "none") + "." },
        label: "height", listed: { settings in settings.heightMetres.map(settings.tapeUnit.height) ?? "none ('set height 180 cm' for the BMI)" },
        answerKey: "heightMetres", answerPosition: 4, answered: { $0.heightMetres.map(Answer.number) })

    public static let sex = Setting(
        key: "sex", word: "sex", aliases: [], portable: true, forms: "female|male|off", choices: ["female", "male", "off"], noun: "sex",
        problem: { Sex(rawValue: $0) == nil ? "the sex '\($0.prefix(20))' is unknown" : nil },
        apply: { value, settings in settings.sex = value.flatMap(Sex.init(rawValue:)) },
        read: { typed throws(SettingsError) in
            guard let sex = Sex(word: typed) else { throw .unknownSex(String(typed.prefix(40))) }
            return sex.rawValue
        },
        said: { value, _ in "set sex \(value ?? "off")" },
        confirmed: { now, _ in
            now.sex.map { "Sex: \($0.rawValue); with a height, neck and waist (and hips) measured, 'today' shows the US-Navy body-fat estimate." }
                ?? "Sex: not set; no body-fat estimate is made."
        },
        label: "sex", listed: { $0.sex?.rawValue ?? "not set (only the US-Navy body-fat estimate uses it: 'set sex female|male')" },
        answerKey: "sex", answerPosition: 8, answered: { $0.sex.map { .text($0.rawValue) } })

    public static let dayStart = Setting(
        key: "dayStartMinutes", word: "day-starts-at", aliases: ["day-start", "start-of-day"], portable: true, forms: "HH:MM",
        choices: ["00:00", "03:00", "04:00"], noun: "start of day",
        problem: { value in
            guard let minutes = Int(value), DayStart.acceptedMinutes.contains(minutes) else {
                return "the start of day '\(value.prefix(20))' is outside 00:00–12:00"
            }
            return nil
        },
        apply: { value, settings in settings.dayStartMinutes = value.flatMap { Int($0) } ?? 0 },
        // Midnight is the default, stored as nothing.
        read: { typed throws(SettingsError) in
            let minutes = typed.lowercased() == "midnight" ? 0 : try DayStart.parse(typed)
            return minutes == 0 ? nil : String(minutes)
        },
        said: { value, _ in "set day-start \(DayStart.text(value.flatMap { Int($0) } ?? 0))" },
        confirmed: { now, _ in
            "Days start at \(DayStart.text(now.dayStartMinutes))" + (now.dayStartMinutes == 0 ? "." : "; habit marks before it count for the day before.")
        },
        label: "day starts at",
        listed: { DayStart.text($0.dayStartMinutes) + ($0.dayStartMinutes == 0 ? "" : " (habit marks before it count for the day before)") },
        answerKey: "dayStartsAt", answerPosition: 5, answered: { .text(DayStart.text($0.dayStartMinutes)) })

    public static let syncFolder = Setting(
        key: "syncFolder", word: "sync-folder", aliases: ["sync", "syncfolder"], portable: false, forms: "PATH|off", choices: [],
        noun: "sync folder",
        problem: { _ in nil },
        apply: { value, settings in settings.syncFolder = value.flatMap { $0.isEmpty ? nil : $0 } },
        // An existing folder, stored as an absolute path.
        read: { typed throws(SettingsError) in
            let url = URL(fileURLWithPath: HomePath.expanding(typed), relativeTo: nil).standardizedFileURL
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw .syncFolderMissing(url.path)
            }
            return url.path
        },
        said: { value, _ in "set sync-folder \(value ?? "off")" },
        confirmed: { now, _ in "Sync folder: \(now.syncFolder ?? "off")." },
        label: "sync folder", listed: { $0.syncFolder ?? "off" },
        answerKey: "syncFolder", answerPosition: 3, answered: { $0.syncFolder.map(Answer.text) })

    public static let deviceName = Setting(
        key: "deviceName", word: "device-name", aliases: ["device"], portable: false, forms: "NAME|off", choices: [],
        noun: "device name",
        problem: { DeviceName.checked($0) == nil ? "the device name '\($0.prefix(20))' is empty, too long or holds control characters" : nil },
        apply: { value, settings in settings.deviceName = value.flatMap(DeviceName.checked) },
        read: { typed throws(SettingsError) in
            guard let name = DeviceName.checked(typed) else { throw .invalidDeviceName(String(typed.prefix(60))) }
            return name
        },
        said: { value, _ in "set device-name \(value ?? "off")" },
        confirmed: { now, _ in "Device name: \(now.deviceName ?? "the host's name")." },
        label: "device name", listed: { $0.deviceName ?? "the host's name" },
        answerKey: "deviceName", answerPosition: 6, answered: { $0.deviceName.map(Answer.text) })

    /// Who the report is about: the person's name, where they want it on the page. It travels with their data.
    public static let personName = Setting(
        key: "personName", word: "name", aliases: [], portable: true, forms: "NAME|off", choices: [], noun: "name",
        problem: { DeviceName.checked($0) == nil ? "the name '\($0.prefix(20))' is empty, too long or holds control characters" : nil },
        apply: { value, settings in settings.personName = value.flatMap(DeviceName.checked) },
        // The same rule as a device's name: 1–40 characters, no control characters.
        read: { typed throws(SettingsError) in
            guard let name = DeviceName.checked(typed) else { throw .invalidPersonName(String(typed.prefix(60))) }
            return name
        },
        said: { value, _ in "set name \(value ?? "off")" },
        confirmed: { now, _ in now.personName.map { "Name: \($0); the report names you so." } ?? "No name: the report names no one." },
        label: "name", listed: { $0.personName ?? "not set (only the report shows it: 'set name Alex')" },
        answerKey: "name", answerPosition: 9, answered: { $0.personName.map(Answer.text) })

    /// The year of birth, for the report's age band (never the date).
    public static let birthYear = Setting(
        key: "birthYear", word: "born", aliases: ["birth-year"], portable: true, forms: "YEAR|off", choices: [], noun: "year of birth",
        problem: { value in Int(value).map(BirthYear.accepted.contains) == true ? nil : "the year of birth '\(value.prefix(20))' is not one from 1900 to 2100" },
        apply: { value, settings in settings.birthYear = value.flatMap { Int($0) }.flatMap { BirthYear.accepted.contains($0) ? $0 : nil } },
        read: { typed throws(SettingsError) in
            let trimmed = typed.trimmingCharacters(in: .whitespaces)
            guard trimmed.count == 4, let year = Int(trimmed), BirthYear.accepted.contains(year) else { throw .notABirthYear(String(typed.prefix(20))) }
            return String(year)
        },
        said: { value, _ in "set born \(value ?? "off")" },
        confirmed: { now, _ in now.birthYear.map { "Born in \($0); the report gives the age band." } ?? "No year of birth: the report gives no age." },
        label: "born", listed: { $0.birthYear.map(String.init) ?? "not set (only the report's age band uses it: 'set born 1984')" },
        answerKey: "born", answerPosition: 10, answered: { $0.birthYear.map { .number(Double($0)) } })
}
