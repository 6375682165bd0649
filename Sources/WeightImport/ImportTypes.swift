import Foundation
import Vocabulary
import WeightLog

/// The file formats Trend reads.
public enum ImportFormat: String, Sendable, Equatable, CaseIterable {
    case genericCSV = "csv", weightDiary = "weight-diary", libra = "libra", openScale = "openscale"
    case hackersDiet = "hackers-diet", trendJSON = "trend-json", trendSnapshot = "trend-snapshot"
    case trendAppBackup = "trend-app-backup"
    case appleHealth = "apple-health", appleHealthZip = "apple-health-zip"
    case garmin = "garmin", samsungHealth = "samsung-health", fitbit = "fitbit"
    case renpho = "renpho", zeppLife = "zepp-life", withings = "withings", myFitnessPal = "myfitnesspal"
    case goldenCheetah = "goldencheetah", eufyLife = "eufy-life", googleFit = "google-fit"
    case hackersDietXML = "hackers-diet-xml", happyScale = "happy-scale", fatSecret = "fatsecret"
    case healthConnect = "health-connect", healthConnectZip = "health-connect-zip"
    case garminBiometrics = "garmin-biometrics"

    public var title: String {
        switch self {
        case .genericCSV: "CSV (date, weight, unit, note)"
        case .weightDiary: "Weight Diary CSV"
        case .libra: "Libra CSV"
        case .openScale: "openScale CSV"
        case .hackersDiet: "Hacker's Diet Online CSV"
        case .hackersDietXML: "Hacker's Diet Online XML"
        case .trendJSON: "Trend JSON export"
        case .trendSnapshot: "Trend recovery snapshot"
        case .trendAppBackup: "Trend app recovery backup (format 1)"
        case .appleHealth: "Apple Health export.xml"
        case .appleHealthZip: "Apple Health export.zip"
        case .garmin: "Garmin Connect Weight.csv"
        case .samsungHealth: "Samsung Health weight CSV"
        case .fitbit: "Fitbit weight JSON"
        case .renpho: "Renpho CSV"
        case .zeppLife: "Zepp Life / Mi Fit BODY CSV"
        case .withings: "Withings weight CSV"
        case .myFitnessPal: "MyFitnessPal measurement CSV"
        case .goldenCheetah: "GoldenCheetah body measures CSV"
        case .eufyLife: "Eufy Life (EufyLife) CSV"
        case .googleFit: "Google Fit daily summaries (Takeout)"
        case .happyScale: "Happy Scale CSV"
        case .fatSecret: "FatSecret weights (Platform API, weights.get_month)"
        case .healthConnect: "Health Connect export database"
        case .healthConnectZip: "Health Connect export (zip)"
        case .garminBiometrics: "Garmin Connect account export (userBioMetrics.json)"
        }
    }
}

/// One weigh-in read from a file.
public struct ImportedWeight: Sendable, Equatable {
    /// The id the file gave it, when it is one Trend keeps.
    public var id: String?
    /// The weigh-in as the file gives it, every optional field it carries kept (`WeightField.optional`);
    /// its own id is the import's to give.
    public var entry: WeightEntry

    public var date: Date { entry.date }
    public var kilograms: Double { entry.kilograms }
    public var note: String? { entry.note }

    public init(id: String?, entry: WeightEntry) {
        self.id = id
        self.entry = entry
    }

    public init(id: String?, date: Date, kilograms: Double, note: String? = nil) {
        self.init(id: id, entry: WeightEntry(id: "", date: date, kilograms: kilograms, note: note))
    }
}

/// A row that could not be used, with where it is and why.
public struct ImportProblem: Sendable, Equatable {
    public let line: Int
    public let reason: String
}

/// Why a file could not be read at all; nothing was changed.
public enum ImportError: Error, Equatable, CustomStringConvertible, Sendable {
    case unreadable(String, reason: String)
    case unknownFormat(String)
    /// A file of Trend's (or the original app's) whose `formatVersion` is newer than this Trend reads.
    case newerFormat(String, version: Int, newest: Int)
    /// A CSV whose header lacks a date or a weight column: the columns it has, and what is missing.
    case missingColumns(String, found: [String], missing: [String])
    case empty(String)
    /// XML whose root element is not Apple Health's `HealthData` (a GPX track, say).
    case notAppleHealth(String, root: String)
    /// A file with the weigh-ins of several people (EufyLife's `Family Members`) and none chosen.
    case severalPeople(String, members: [String])
    /// `member NAME` names no one the file holds (or the file names no one).
    case noSuchMember(String, member: String, members: [String])

    public var description: String {
        switch self {
        case let .unreadable(path, reason): "cannot read \(path): \(reason)"
        case let .missingColumns(path, found, missing):
            "\(path) looks like a CSV but has no \(missing.joined(separator: " and no ")) column; its columns are "
                + found.prefix(12).map { "'\($0)'" }.joined(separator: ", ")
                + " (a date column is named date, datetime, timestamp or time of measurement; a weight column weight, weight(kg), weight (lb) or kilograms)"
        case let .unknownFormat(path): "cannot tell what \(path) is: expected a CSV with date and weight columns, a Weight Diary, Libra, openScale, Hacker's Diet (CSV or XML), Garmin Connect or Samsung Health export, a Fitbit weight-*.json, an EufyLife, GoldenCheetah or Google Fit CSV, a Trend JSON export or snapshot, or Apple Health's export.zip or export.xml"
        case let .empty(path): "\(path) holds no weigh-ins"
        case let .newerFormat(path, version, newest):
            "\(path) was written by a newer Trend (format \(version); this one reads up to \(newest)); nothing was imported. Update Trend to import it."
        case let .notAppleHealth(path, root): "\(path) is XML but not an Apple Health export: its root element is '\(root)', not 'HealthData'"
        case let .severalPeople(path, members):
            "\(path) holds the weigh-ins of \(members.count) people (\(Self.names(members))); nothing was imported: "
                + "name one, e.g. 'import \(path) member \(members[0])'"
        case let .noSuchMember(path, member, members):
            members.isEmpty ? "\(path) names no family members; import it without 'member \(member)'"
                : "\(path) holds no weigh-ins of '\(member)'; its people are \(Self.names(members))"
        }
    }
}

extension ImportError {
    /// Names as a message lists them: quoted, at most eight, printable.
    static func names(_ members: [String]) -> String {
        members.prefix(8).map { "'\(WeightFileReader.short($0))'" }.joined(separator: ", ") + (members.count > 8 ? ", …" : "")
    }
}

/// What a file holds, checked against the log: nothing written yet.
public struct ImportPreview: Sendable, Equatable {
    public let format: ImportFormat
    /// Which version or layout of the format, where the file says or shows it.
    public var version: String?
    /// The unit weights were read in.
    public let unit: WeightUnit
    /// True when the file names no unit and the display unit was assumed.
    public let unitAssumed: Bool
    /// The new rows, as they would be stored (empty after an import, which writes them as it reads).
    public let newEntries: [WeightEntry]
    /// How many rows are (or were) new.
    public let newCount: Int
    public let duplicates: Int
    public let invalid: [ImportProblem]
    /// Rows without a weight (other measurements, blank lines of a diary).
    public let skipped: Int
    public let first: Date?
    public let last: Date?
    /// The person read from a file of several (`import FILE member NAME`), as the file writes the name.
    public var member: String?
    /// Tape measures the file holds (a preview), or that were new and kept (an import).
    public var measurements = 0
    /// Which measures those are (`waist`), each once, in column order.
    public var measures: [BodyMeasure] = []
    /// The lines whose note was longer than a weigh-in keeps, cut to `WeightNote.maximumLength` (the row stands).
    public var shortenedNotes: [Int] = []
}

/// What an import wrote.
public struct ImportResult: Sendable, Equatable {
    public let preview: ImportPreview
    public let imported: Int
}

/// Rows as a reader produced them.
struct ReadOutcome: Sendable {
    var format: ImportFormat
    /// Which version or layout of the format, where the file says or shows it (`version 6`, `the 2.0 layout`).
    var version: String?
    var unit: WeightUnit
    var unitAssumed: Bool
    var weights: [ImportedWeight] = []
    /// The tape measures the file's rows carry (openScale's waist, hip …), each at its row's moment.
    var measurements: [BodyMeasurement] = []
    var invalid: [ImportProblem] = []
    var skipped = 0
    /// The lines whose note was cut to the longest a weigh-in keeps.
    var shortenedNotes: [Int] = []
    /// Weigh-ins the file holds twice that its reader left out itself (Libra's
    /// midnight placeholders): duplicates, as a repeated row is.
    var repeated = 0
    /// The people a file of several names (EufyLife's `Family Members`), in the order they first appear.
    var members: [String] = []
    /// False while a reader needs every row at its end (Libra's placeholders): no batch is handed on early.
    var handsOnBatches = true
}
