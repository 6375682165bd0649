import Foundation
import Vocabulary

/// The exports of the big trackers, each in its own shape:
///
/// - **Garmin Connect** `Weight.csv`: a header `Time,Weight,Change,BMI,Body Fat,…`,
///   then a row holding only the day (`" Nov 25, 2025"`) before that day's
///   weigh-ins, whose time is `9:25 AM` or `01:00` and whose weight carries
///   its unit (`157.4 lbs`, `73.3 kg`). Layout from importers of the real
///   files (delize/garmin-convert-weight, an open GarminWeightImporter).
/// - **Samsung Health** `com.samsung.health.weight.<stamp>.csv`: a first line
///   naming the data type, then a header whose names may carry the type as a
///   prefix (`com.samsung.health.weight.start_time`); `start_time` is UTC
///   (`2026-01-10 08:00:00.000`, its `time_offset` only says where), weights in kg.
/// - **Renpho**: the legacy export (`Time of Measurement,Weight(kg),BMI,Body
///   Fat(%),…,Remarks`, `2024-01-01 10:20:30`) and Renpho Health's
///   (`No.,Date,Time,Weight(kg),…,Remarks`, `2026.10.07` and `20:34:03`,
///   separated by tabs, commas or semicolons, `--` for a missing value) —
///   headers as open importers copied them from real exports.
/// - **Zepp Life / Mi Fit** `BODY_*.csv`: `timestamp,weight,height,bmi,fatRate,…`,
///   the timestamp in Unix seconds, weights in kg (openScale's import notes, issue 669).
/// - **Withings** `weight.csv` (`Date,Weight (kg),Fat mass (kg),Bone mass (kg),…`)
///   and **MyFitnessPal** `Measurement-Summary-….csv` (`Date,Weight`) are
///   date-and-weight CSVs, named by their columns or file name.
/// - **GoldenCheetah**'s body measures CSV (`date,weightkg,fatkg,boneskg,
///   musclekg,leankg,fatpercent,comment`, ISO 8601 instants), as openScale's
///   issue 79 quotes it with GoldenCheetah's importer.
/// - **EufyLife** CSV (`Time,Family Members,WEIGHT (kg),BMI,BODY FAT %,…`, or
///   `WEIGHT (lbs)`; `2024-03-01 07:15:00`, with a BOM), as open converters
///   of its export read it.
/// - **Google Fit**'s Takeout `Daily Summaries.csv` (`Date,Average weight (kg),
///   Max weight (kg),…`, a row a day, empty on days without a weight), as
///   GoogleFitToOpenScaleCSV's test file has it: the day's average, at noon.
/// - **Happy Scale**'s CSV: quoted `"Date","Pound(s)"` (or `"Kilogram(s)"`),
///   ISO days, one weight a day, as the open WeightFlow importer reads it
///   (its `HappyScaleParser`: "quoted headers containing Date and Pound(s)").
///   A day without a time is at noon, as every date-only file.
/// - **Fitbit** `weight-YYYY-MM-DD.json` (account export and Google Takeout):
///   an array of `{logId, weight, bmi, fat, date "MM/DD/YY", time "HH:MM:SS", source}`,
///   the time local and the weight in pounds.
extension WeightFileReader {
    /// The separator of a delimited file, from its first line: a tab or a
    /// semicolon when the line holds more of them than commas (Renpho Health
    /// writes any of the three).
    static func separator(ofFirstLineIn head: Data) -> UInt8 {
        let line = head.prefix { $0 != 0x0A }
        let commas = line.filter { $0 == UInt8(ascii: ",") }.count
        let tabs = line.filter { $0 == 0x09 }.count, semicolons = line.filter { $0 == UInt8(ascii: ";") }.count
        if tabs > commas, tabs >= semicolons { return 0x09 }
        if semicolons > commas { return UInt8(ascii: ";") }
        return UInt8(ascii: ",")
    }

    /// The app a date-and-weight CSV comes from, told by its own columns (or,
    /// for MyFitnessPal, its file name); nil for a CSV of no known app.
    static func namedFormat(header: [String], fileName: String) -> ImportFormat? {
        if header.contains("time of measurement") || header.contains("body fat percentage(%)") { return .renpho }
        // Zepp Life's BODY file: `timestamp` in Unix seconds, or (newer) `time` as `2023-11-07 08:12:33+0000`.
        if header.first == "timestamp" && header.contains("fatrate") || isZeppTimeHeader(header) { return .zeppLife }
        // Health Mate writes bone mass beside the fat mass; the older web export, lean mass.
        if header.contains(where: { $0.hasPrefix("fat mass (") }),
           header.contains(where: { $0.hasPrefix("bone mass (") || $0.hasPrefix("lean mass (") }) { return .withings }
        if fileName.lowercased().hasPrefix("measurement-summary") { return .myFitnessPal }
        if header.contains("weightkg"), header.contains("fatkg") || header.contains("fatpercent") { return .goldenCheetah }
        if isEufyHeader(header) { return .eufyLife }
        if header.first == "date", header.contains("average weight (kg)") { return .googleFit }
        if header.first == "date", header.contains(where: { ["pound(s)", "kilogram(s)", "stone(s)"].contains($0) }) { return .happyScale }
        return nil
    }

    /// Zepp Life's newer BODY file, whose instant is in `time`: `time,weight,height,bmi,fatRate,…`.
    static func isZeppTimeHeader(_ names: [String]) -> Bool {
        names.first == "time" && names.contains("fatrate")
    }

    /// EufyLife's export: `Time,Family Members,WEIGHT (kg)|WEIGHT (lbs),BMI,BODY FAT %,…`.
    static func isEufyHeader(_ names: [String]) -> Bool {
        names.first == "time" && names.contains("family members") && names.contains(where: isWeightHeader)
    }

    static let monthNames = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// Whether the first record is Garmin's header.
    static func isGarminHeader(_ names: [String]) -> Bool {
        // Zepp Life's newer BODY file also starts `time,weight,…,bmi`: its `fatRate` tells it apart.
        names.count >= 3 && names[0] == "time" && names[1] == "weight" && names.contains("bmi") && !isZeppTimeHeader(names)
    }

    /// Whether the first line names Samsung Health's weight data.
    static func isSamsungWeight(_ firstFields: [String]) -> Bool {
        guard let first = firstFields.first else { return false }
        return first.hasPrefix("com.samsung.health.weight") || first.hasPrefix("com.samsung.shealth.weight")
    }

    func readGarmin(_ records: Records) -> ReadOutcome {
        var outcome = ReadOutcome(format: .garmin, unit: displayUnit, unitAssumed: false)
        var header = true
        var day: String?
        var fat: Int?
        records { record in
            if header {
                header = false
                fat = record.fields.firstIndex { Self.isBodyFatHeader($0) }
                return
            }
            let first = field(record.fields, 0)
            if let date = Self.garminDay(first) {
                day = date
                return
            }
            let weight = field(record.fields, 1)
            guard !weight.isEmpty, weight != "--" else { outcome.skipped += 1; return }
            guard let day else {
                outcome.invalid.append(ImportProblem(line: record.line, reason: "a weigh-in before any day row"))
                return
            }
            guard let time = Self.clock24(first) else {
                outcome.invalid.append(ImportProblem(line: record.line, reason: "'\(Self.short(first))' is not a time"))
                return
            }
            // Garmin writes the unit in the cell: 157.4 lbs, 73.3 kg.
            add(record.line, dateText: day + " " + time, weightText: weight.replacingOccurrences(of: "lbs", with: "lb"),
                unit: displayUnit, note: nil, id: nil, bodyFat: fat.map { .percent(field(record.fields, $0)) }, to: &outcome)
        }
        return outcome
    }

    func readSamsungHealth(_ records: Records) -> ReadOutcome {
        var outcome = ReadOutcome(format: .samsungHealth, unit: .kilograms, unitAssumed: false)
        var line = 0
        var start: Int?, weight: Int?, fat: Int?
        records { record in
            line += 1
            if line == 1 { return }
            let names = record.fields.map { $0.lowercased() }
            if line == 2 {
                // Names may carry the data type as a prefix: com.samsung.health.weight.start_time.
                func column(_ name: String) -> Int? { names.firstIndex { $0 == name || $0.hasSuffix("." + name) } }
                start = column("start_time")
                weight = column("weight")
                fat = column("body_fat")
                return
            }
            guard let start, let weight else {
                outcome.invalid.append(ImportProblem(line: record.line, reason: "the header names no start_time and weight"))
                return
            }
            // start_time is UTC; time_offset only says where the person was.
            let when = field(record.fields, start)
            add(record.line, dateText: when.isEmpty ? when : when + "Z", weightText: field(record.fields, weight),
                unit: .kilograms, note: nil, id: nil, bodyFat: fat.map { .percent(field(record.fields, $0)) }, to: &outcome)
        }
        return outcome
    }

    func readFitbit(_ items: [Any]) -> ReadOutcome {
        var outcome = ReadOutcome(format: .fitbit, unit: .pounds, unitAssumed: false)
        for (index, item) in items.enumerated() {
            guard let row = item as? [String: Any], let day = (row["date"] as? String).flatMap(Self.monthDayYear) else {
                outcome.invalid.append(ImportProblem(line: index + 1, reason: "entry \(index + 1) has no usable date"))
                continue
            }
            let time = (row["time"] as? String) ?? "12:00:00"
            guard let date = dates.parse(day + " " + time) else {
                outcome.invalid.append(ImportProblem(line: index + 1, reason: "entry \(index + 1) has no usable time"))
                continue
            }
            let id = (row["logId"] as? NSNumber).map { "fitbit-\($0.int64Value)" }
            addKilograms(index + 1, date: date, kilograms: Self.double(row["weight"]).map(WeightUnit.pounds.kilograms(from:)),
                         note: nil, id: id, bodyFatPercent: Self.double(row["fat"]), to: &outcome)
        }
        return outcome
    }

    /// Garmin Connect's account export (Account › Data Management › Export
    /// Your Data): `DI_CONNECT/DI-Connect-Wellness/<id>_userBioMetrics.json`,
    /// an array of records of which those with a `weight` object are weigh-ins:
    /// `timestampGMT` in epoch milliseconds or as a GMT time without a zone
    /// (`2022-08-30T06:12:00.0`), `weight` in grams, `bodyFat` in percent
    /// (0 when the scale's reading failed), `samplePk` kept as the id. Records
    /// of height or VO2 max are passed over. Layout as open readers of the
    /// export read it (openScale issue 879, a GDPR-export ETL's `parse_weigh_ins`).
    func readGarminBiometrics(_ items: [Any]) -> ReadOutcome {
        var outcome = ReadOutcome(format: .garminBiometrics, unit: .kilograms, unitAssumed: false)
        for (index, item) in items.enumerated() {
            guard let weight = (item as? [String: Any])?["weight"] as? [String: Any] else {
                outcome.skipped += 1
                continue
            }
            let stamp = weight["timestampGMT"]
            let date = Self.double(stamp).map { Date(timeIntervalSince1970: $0 / 1000) }
                ?? (stamp as? String).flatMap { dates.parse($0.hasSuffix("Z") ? $0 : $0 + "Z") }
            guard let date else {
                outcome.invalid.append(ImportProblem(line: index + 1, reason: "record \(index + 1) has no usable timestampGMT"))
                continue
            }
            let id = (weight["samplePk"] as? NSNumber).map { "garmin-\($0.int64Value)" }
            addKilograms(index + 1, date: date, kilograms: Self.double(weight["weight"]).map { $0 / 1000 }, note: nil, id: id,
                         bodyFatPercent: Self.double(weight["bodyFat"]), to: &outcome)
        }
        return outcome
    }

    /// Whether a JSON array is Garmin's `userBioMetrics.json`: a record with a `weight` object that has a `timestampGMT`.
    static func isGarminBiometrics(_ items: [Any]) -> Bool {
        items.contains { (($0 as? [String: Any])?["weight"] as? [String: Any])?["timestampGMT"] != nil }
    }

    /// Whether a JSON array is a Fitbit weight log.
    static func isFitbitWeights(_ items: [Any]) -> Bool {
        guard let first = items.first as? [String: Any] else { return false }
        return first["logId"] != nil && first["weight"] != nil && first["date"] != nil
    }

    /// `Nov 25, 2025`, or `21 Sep 2023` as Garmin writes days for a European account (Garmin's day rows,
    /// with or without a leading space), as `2025-11-25`.
    static func garminDay(_ text: String) -> String? {
        let words = text.replacingOccurrences(of: ",", with: " ").split(separator: " ")
        guard words.count == 3, let year = Int(words[2]), (1900...2200).contains(year) else { return nil }
        let (monthWord, dayWord) = Int(words[0]) == nil ? (words[0], words[1]) : (words[1], words[0])
        guard let month = monthNames.firstIndex(of: monthWord.prefix(3).lowercased()), let day = Int(dayWord), (1...31).contains(day) else { return nil }
        return "\(year)-" + two(month + 1) + "-" + two(day)
    }

    /// `9:25 AM`, `12:05 AM` or `01:00` as `HH:MM` on a 24-hour clock.
    static func clock24(_ text: String) -> String? {
        let parts = text.uppercased().split(separator: " ")
        guard let clock = parts.first else { return nil }
        let numbers = clock.split(separator: ":").compactMap { Int($0) }
        guard numbers.count >= 2, parts.count <= 2, (0...59).contains(numbers[1]) else { return nil }
        var hour = numbers[0]
        if parts.count == 2 {
            guard (1...12).contains(hour), parts[1] == "AM" || parts[1] == "PM" else { return nil }
            hour = hour % 12 + (parts[1] == "PM" ? 12 : 0)
        }
        guard (0...23).contains(hour) else { return nil }
        return two(hour) + ":" + two(numbers[1])
    }

    /// Fitbit's `09/12/25` (month, day, two-digit year of this century) as `2025-09-12`.
    static func monthDayYear(_ text: String) -> String? {
        let parts = text.split(separator: "/").compactMap { Int($0) }
        guard parts.count == 3, (1...12).contains(parts[0]), (1...31).contains(parts[1]) else { return nil }
        let year = parts[2] < 100 ? 2000 + parts[2] : parts[2]
        return "\(year)-" + two(parts[0]) + "-" + two(parts[1])
    }

    private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
