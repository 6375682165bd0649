import Foundation
import Storage
import TextFormats
import Vocabulary
import WeightLog

/// Recognises a weight file and reads every row of it, with a reason for
/// each row it cannot use. Reading changes nothing.
struct WeightFileReader {
    let displayUnit: WeightUnit
    let dates: ImportDates
    /// Called now and then with the share of the file read, 0…1.
    var progress: @Sendable (Double) -> Void = { _ in }
    /// Where a database inside an archive is copied out to be read; nil: the system's temporary folder.
    var scratchFolder: URL?
    /// The latest moment a row may have: the clock plus its skew (`WhenInput.clockSkew`), as for a typed weigh-in.
    var latestAccepted = Date.distantFuture
    /// The one person to read from a file of several (EufyLife's `Family Members`), compared ignoring case.
    var member: String?
    /// Where full batches of rows go as they are read (an import); nil: every row stays in the outcome.
    var batches: WeightBatches?

    static let metaRowsOfWeightDiary: Set<String> = ["units", "goal", "height", "birthdate", "birthday", "gender", "sex", "name"]

    func read(_ url: URL) throws -> ReadOutcome {
        let path = url.path
        let handle: FileHandle
        do {
            handle = try UntrustedFile.open(path)
        } catch {
            throw ImportError.unreadable(path, reason: error.description)
        }
        // Closing a file only read cannot lose data.
        defer { try? handle.close() }
        let head: Data
        do {
            head = try handle.read(upToCount: 65_536) ?? Data()
        } catch {
            throw ImportError.unreadable(path, reason: Self.reason(error, path: path))
        }
        let start = String(decoding: head.prefix(4_096), as: UTF8.self).trimmingCharacters(in: CharacterSet(charactersIn: "\u{FEFF}").union(.whitespacesAndNewlines))
        // A zip archive (PK\u{3}\u{4}): Apple Health's export.zip, or Health Connect's.
        if head.starts(with: [0x50, 0x4B, 0x03, 0x04]) {
            return try AppleHealthReader(rows: self).readZip(url)
        }
        if head.starts(with: Array("SQLite format 3\0".utf8)) {
            return try HealthConnectReader(rows: self).read(databaseAt: path, shownAs: path, format: .healthConnect)
        }
        if start.hasPrefix("<"), HackersDietXMLReader.recognises(start) {
            let data: Data
            do {
                data = try UntrustedFile.contents(of: handle)
            } catch {
                throw ImportError.unreadable(path, reason: (error as NSError).localizedDescription)
            }
            return try HackersDietXMLReader(rows: self).read(data, path: path)
        }
        if start.hasPrefix("<?xml") || start.hasPrefix("<HealthData") || start.hasPrefix("<!DOCTYPE HealthData") {
            return try AppleHealthReader(rows: self).read(url)
        }
        let data: Data
        do {
            data = try UntrustedFile.contents(of: handle)
        } catch {
            throw ImportError.unreadable(path, reason: (error as NSError).localizedDescription)
        }
        guard !start.isEmpty else { throw ImportError.empty(path) }
        if start.hasPrefix("{") || start.hasPrefix("[") {
            return try readJSON(data, path: path)
        }
        if start.hasPrefix("#") {
            return readLibra(data)
        }
        // Recognise the format from the head of the file, then stream all of it.
        let separator = Self.separator(ofFirstLineIn: head)
        let lowerRows = CSVTable.records(in: head, separator: separator).prefix(60).map { $0.fields.map { $0.lowercased() } }
        let lineEstimate = data.count / 24
        // A quote left open is reported at its line; the record is not read, and the lines after it are.
        let unclosed = UnclosedQuotes()
        let records = { (body: (CSVTable.Record) -> Void) in
            var seen = 0
            CSVTable.forEachRecord(in: data, separator: separator, looksLikeRecordStart: Self.startsWithDate) { record in
                seen += 1
                if seen % 65_536 == 0 { progress(Double(record.line) / Double(max(1, lineEstimate))) }
                if record.unterminatedQuote { unclosed.lines.append(record.line) } else { body(record) }
            }
        }
        var outcome: ReadOutcome
        if let header = lowerRows.firstIndex(where: { $0.count >= 3 && $0[0] == "date" && $0[1] == "weight" && $0[2] == "rung" }) {
            outcome = readHackersDiet(records, header: header)
        } else if let first = lowerRows.first, Self.isGarminHeader(first) {
            outcome = readGarmin(records)
        } else if let first = lowerRows.first, Self.isSamsungWeight(first) {
            outcome = readSamsungHealth(records)
        } else if lowerRows.contains(where: { $0.first == "units" && $0.count >= 2 }) {
            outcome = readWeightDiary(records)
        } else if let header = lowerRows.first,
                  (header.contains("date") && header.contains("time")) || header.contains("datetime"), header.contains("weight") {
            outcome = readOpenScale(records)
        } else if let first = lowerRows.first, let layout = OpenScaleOneLayout(first) {
            outcome = readOpenScaleOne(records, layout: layout)
        } else if let header = lowerRows.first,
                  header.contains(where: Self.isDateHeader) || Self.isEufyHeader(header) || Self.isZeppTimeHeader(header),
                  header.contains(where: Self.isWeightHeader) {
            let named = Self.namedFormat(header: header, fileName: url.lastPathComponent)
            // Zepp Life names no unit and writes kilograms.
            outcome = readGeneric(records, unit: named == .zeppLife ? .kilograms : nil, format: named ?? .genericCSV)
        } else if let header = lowerRows.first, header.filter({ !$0.isEmpty }).count >= 2,
                  header.allSatisfy({ Self.number($0) == nil }) {
            // A header row of a CSV that almost fits: say which column is missing, and what it has.
            let missing = [header.contains(where: Self.isDateHeader) ? nil : "date",
                           header.contains(where: Self.isWeightHeader) ? nil : "weight"].compactMap { $0 }
            throw ImportError.missingColumns(path, found: header.map { Self.short($0) }, missing: missing)
        } else {
            throw ImportError.unknownFormat(path)
        }
        if !unclosed.lines.isEmpty {
            outcome.invalid += unclosed.lines.map { ImportProblem(line: $0, reason: "a quote opened on this line is never closed") }
            outcome.invalid.sort { $0.line < $1.line }
        }
        return outcome
    }

    /// The lines of records whose quote never closed, gathered while a reader streams.
    final class UnclosedQuotes {
        var lines: [Int] = []
    }

    /// Streams a file's records to a reader.
    typealias Records = ((CSVTable.Record) -> Void) -> Void

    // MARK: Formats

    /// - Parameters:
    ///   - knownUnit: the unit of an app that writes one without naming it.
    ///   - format: the app the columns name; its empty weight cells are days without one, not mistakes.
    func readGeneric(_ records: Records, unit knownUnit: WeightUnit? = nil, format: ImportFormat = .genericCSV) -> ReadOutcome {
        var outcome = ReadOutcome(format: format, unit: displayUnit, unitAssumed: true)
        var header: [String]?
        var dateColumn = 0, weightColumn = 1
        var timeColumn: Int?, unitColumn: Int?, noteColumn: Int?, idColumn: Int?, fatColumn: Int?, fatMassColumn: Int?
        var memberColumn: Int?, typedUnitColumn: Int?
        var measureColumns: [(BodyMeasure, Int)] = []
        records { record in
            guard header != nil else {
                let names = record.fields.map { $0.lowercased() }
                header = names
                dateColumn = names.firstIndex(where: Self.isDateHeader) ?? 0
                weightColumn = names.firstIndex(where: Self.isWeightHeader) ?? 1
                // A time column beside the date (EufyLife's `Time` is the whole instant).
                timeColumn = names.firstIndex(of: "time").flatMap { $0 == dateColumn ? nil : $0 }
                unitColumn = names.firstIndex { $0 == "unit" || $0 == "units" }
                noteColumn = names.firstIndex { ["note", "notes", "comment", "comments", "remarks"].contains($0) }
                idColumn = names.firstIndex(of: "id")
                fatColumn = names.firstIndex(where: Self.isBodyFatHeader)
                fatMassColumn = names.firstIndex { $0.hasPrefix("fat mass") }
                memberColumn = names.firstIndex(of: "family members")
                // Trend's own export: the unit each weight was typed in.
                typedUnitColumn = WeightField.all.first { $0.kind == .unit }.flatMap { names.firstIndex(of: $0.csvColumn) }
                // And its tape measures, in centimetres (`waist_cm`).
                measureColumns = BodyMeasure.allCases.compactMap { kind in names.firstIndex(of: kind.csvColumn).map { (kind, $0) } }
                let headerUnit = Self.unit(inHeader: names[weightColumn]) ?? knownUnit
                outcome.unit = headerUnit ?? displayUnit
                outcome.unitAssumed = headerUnit == nil && unitColumn == nil
                return
            }
            let fields = record.fields
            if let memberColumn, !readsRow(of: field(fields, memberColumn), into: &outcome) { return }
            var dateText = field(fields, dateColumn)
            if let timeColumn, !field(fields, timeColumn).isEmpty { dateText += " " + field(fields, timeColumn) }
            let note = noteColumn.map { field(fields, $0) }
            let measures = measureColumns.map { ($0.0, field(fields, $0.1)) }
            // A row of tape measures alone (Trend's export writes one for a measurement taken apart from a weigh-in).
            if field(fields, weightColumn).isEmpty && measures.contains(where: { !$0.1.isEmpty }) {
                if addMeasures(dateText: dateText, measures, note: note, to: &outcome) == 0 {
                    outcome.invalid.append(ImportProblem(line: record.line, reason: "no weight, and no tape measure a body can have on a day up to today"))
                }
                return
            }
            var unit = outcome.unit
            if let unitColumn {
                let word = field(fields, unitColumn)
                if word.isEmpty { unit = displayUnit; outcome.unitAssumed = true }
                else if let named = WeightUnit(word: word) { unit = named }
                else { outcome.invalid.append(ImportProblem(line: record.line, reason: "unknown unit '\(Self.short(word))'")); return }
            }
            let fat = fatColumn.map { BodyFatCell.percent(field(fields, $0)) } ?? fatMassColumn.map { .mass(field(fields, $0)) }
            add(record.line, dateText: dateText, weightText: field(fields, weightColumn), unit: unit,
                note: note, id: idColumn.map { field(fields, $0) }, bodyFat: fat,
                typedUnit: typedUnitColumn.flatMap { WeightUnit(rawValue: field(fields, $0).lowercased()) }, to: &outcome)
            addMeasures(dateText: dateText, measures, note: note, to: &outcome)
        }
        return outcome
    }

    func readWeightDiary(_ records: Records) -> ReadOutcome {
        var outcome = ReadOutcome(format: .weightDiary, unit: displayUnit, unitAssumed: true)
        records { record in
            let first = field(record.fields, 0).lowercased()
            if first == "units" {
                let word = field(record.fields, 1)
                if let unit = WeightUnit(word: word) { outcome.unit = unit; outcome.unitAssumed = false }
                else { outcome.invalid.append(ImportProblem(line: record.line, reason: "unknown unit '\(Self.short(word))'")) }
                return
            }
            if Self.metaRowsOfWeightDiary.contains(first) || first == "date" || first.isEmpty { return }
            // Weight Diary writes date, weight, body fat, note: the third column is a number, never the note.
            let third = field(record.fields, 2)
            let note = record.fields.count > 3 ? field(record.fields, 3) : (Self.number(third) == nil && !third.isEmpty ? third : nil)
            add(record.line, dateText: field(record.fields, 0), weightText: field(record.fields, 1), unit: outcome.unit,
                note: note, id: nil, bodyFat: .percent(third), to: &outcome)
        }
        return outcome
    }

    /// A file of several people (EufyLife's family, openScale 1.0's users):
    /// each is listed as met; only the rows of the one asked for (`member`,
    /// ignoring case) are read.
    func readsRow(of person: String, into outcome: inout ReadOutcome) -> Bool {
        if !person.isEmpty, !outcome.members.contains(person) { outcome.members.append(person) }
        return member.map { person.lowercased() == $0.lowercased() } ?? true
    }

    /// Why a file could not be read, in a person's words.
    static func reason(_ error: any Error, path: String) -> String {
        guard FileManager.default.fileExists(atPath: path) else { return "no such file" }
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        switch underlying?.code ?? (error as NSError).code {
        case Int(EACCES), Int(EPERM), CocoaError.fileReadNoPermission.rawValue: return "permission denied"
        case Int(EISDIR): return "it is a folder"
        default: return (error as NSError).localizedDescription
        }
    }

    // MARK: Rows

    /// A file's body fat cell: a percent, or a mass in the weight's unit (Withings writes `Fat mass (kg)`).
    enum BodyFatCell {
        case percent(String)
        case mass(String)
    }

    func add(_ line: Int, dateText: String, weightText: String, unit: WeightUnit, note: String?, id: String?,
             bodyFat: BodyFatCell? = nil, typedUnit: WeightUnit? = nil, to outcome: inout ReadOutcome) {
        // `--` is what a scale's app writes for nothing (Renpho's Remarks): no note, as no weight below.
        let note = note == "--" ? nil : note
        // Scales write `--` for a value they did not measure: passed over, like an empty cell of a known app.
        if weightText == "--" {
            outcome.skipped += 1
            return
        }
        if weightText.isEmpty {
            if dateText.isEmpty || outcome.format != .genericCSV {
                outcome.skipped += 1
            } else {
                outcome.invalid.append(ImportProblem(line: line, reason: "no weight"))
            }
            return
        }
        guard let date = dates.parse(dateText) else {
            outcome.invalid.append(ImportProblem(line: line, reason: "'\(Self.short(dateText))' is not a date (use YYYY-MM-DD, YYYY-MM-DD HH:MM or ISO 8601)"))
            return
        }
        let kilograms = Self.number(weightText).map(unit.kilograms(from:))
            // Written with its unit, as people type it: 181.6 lb, 12st 6lb. Else: the row is invalid, below.
            ?? (try? WeightInput.parse(weightText, defaultUnit: unit))
        if let kilograms {
            let percent: Double?
            switch bodyFat {
            case let .percent(text)?: percent = BodyFat.fromFile(text)
            case let .mass(text)?: percent = Self.number(text).flatMap { BodyFat.checked(unit.kilograms(from: $0) / kilograms * 100) }
            case nil: percent = nil
            }
            addKilograms(line, date: date, kilograms: kilograms, note: note, id: id, bodyFatPercent: percent, typedUnit: typedUnit, to: &outcome)
        } else {
            outcome.invalid.append(ImportProblem(line: line, reason: "'\(Self.short(weightText))' is not a weight"))
        }
    }

    func addKilograms(_ line: Int, date: Date, kilograms: Double?, note: String?, id: String?, bodyFatPercent: Double? = nil,
                      typedUnit: WeightUnit? = nil, to outcome: inout ReadOutcome) {
        var fields = WeightField.blank
        fields.note = note
        fields.bodyFatPercent = bodyFatPercent
        fields.typedUnit = typedUnit
        addKilograms(line, date: date, kilograms: kilograms, id: id, fields: fields, to: &outcome)
    }

    /// Adds a row whose optional fields (`WeightField.optional`) are those of `fields`, as the file gave them.
    func addKilograms(_ line: Int, date: Date, kilograms: Double?, id: String?, fields: WeightEntry, to outcome: inout ReadOutcome) {
        guard let kilograms, kilograms.isFinite else {
            outcome.invalid.append(ImportProblem(line: line, reason: "no weight"))
            return
        }
        let cleanID = id?.lowercased()
        // A note longer than a weigh-in keeps is cut, and the preview says where (the weigh-in stands).
        if let note = fields.note, note.count > WeightNote.maximumLength,
           note.trimmingCharacters(in: .whitespacesAndNewlines).count > WeightNote.maximumLength {
            outcome.shortenedNotes.append(line)
        }
        var entry = WeightEntry(id: "", date: date, kilograms: kilograms)
        for field in WeightField.optional {
            field.set(&entry, field.fromFile(field.get(fields)))
        }
        let weight = ImportedWeight(id: cleanID.flatMap { WeightEntry.isAcceptedID($0) ? $0 : nil }, entry: entry)
        do {
            try WeightEntry.validate(date: date, kilograms: kilograms, note: weight.note)
        } catch .weightOutOfRange {
            outcome.invalid.append(ImportProblem(line: line, reason: displayUnit.outsideAccepted(kilograms)))
            return
        } catch {
            outcome.invalid.append(ImportProblem(line: line, reason: "the weigh-in \(error)"))
            return
        }
        guard date <= latestAccepted else {
            let minutes = Int(WhenInput.clockSkew / 60)
            outcome.invalid.append(ImportProblem(line: line, reason: "\(date.formatted(.iso8601)) is in the future (more than \(minutes) minutes after now)"))
            return
        }
        outcome.weights.append(weight)
        if let batches, outcome.handsOnBatches, outcome.weights.count >= WeightBatches.size {
            batches.send(outcome.weights)
            outcome.weights.removeAll(keepingCapacity: true)
        }
    }

    /// A field (already trimmed by the CSV reader), or empty when the row is short.
    func field(_ fields: [String], _ index: Int) -> String {
        index < fields.count ? fields[index] : ""
    }

    static func isDateHeader(_ name: String) -> Bool {
        ["date", "datetime", "date_time", "timestamp", "time stamp", "when", "time of measurement"].contains(name)
    }

    /// A column of body fat in percent: `fat`, `body fat`, `Body Fat(%)`, `body_fat`, `fatRate`, `Body Fat Percentage(%)`
    /// — not a trend of it, a mass, or visceral or subcutaneous fat.
    static func isBodyFatHeader(_ name: String) -> Bool {
        let squeezed = name.lowercased().filter { $0.isLetter || $0 == "%" }
        guard !["trend", "mass", "free", "visceral", "subcutaneous", "kg", "lb"].contains(where: squeezed.contains) else { return false }
        return ["fat", "fat%", "bodyfat", "bodyfat%", "fatrate", "bodyfatpercentage", "bodyfatpercentage%", "fatpercent", "bodyfatpercent"]
            .contains(squeezed)
    }

    static func isWeightHeader(_ name: String) -> Bool {
        name == "weight" || name.hasPrefix("weight ") || name.hasPrefix("weight(") || name == "kilograms" || name == "mass"
            || name == "weightkg" || name == "weightlb" || name == "average weight (kg)" || unitNamingColumn(name) != nil
    }

    /// A column named for its unit alone or as `weight_<unit>`: Happy Scale's
    /// `Pound(s)`, `lbs`, `kg`, `weight_kg`, `weight_lbs`.
    static func unitNamingColumn(_ name: String) -> WeightUnit? {
        let word = name.hasPrefix("weight_") ? String(name.dropFirst("weight_".count)) : name
        switch word {
        case "kg", "kgs", "kilogram", "kilogram(s)": return .kilograms
        case "lb", "lbs", "pound", "pounds", "pound(s)": return .pounds
        case "stone(s)": return .stones
        default: return nil
        }
    }

    static func unit(inHeader name: String) -> WeightUnit? {
        if name == "kilograms" || name == "weightkg" { return .kilograms }
        if name == "weightlb" { return .pounds }
        if let unit = unitNamingColumn(name) { return unit }
        for (word, unit) in [("(kg)", WeightUnit.kilograms), ("(lb)", .pounds), ("(lbs)", .pounds), ("(st)", .stones),
                             ("[kg]", .kilograms), ("[lb]", .pounds), ("[lbs]", .pounds), ("(pounds)", .pounds),
                             ("(kilograms)", .kilograms)] where name.hasSuffix(word) {
            return unit
        }
        return nil
    }

    static func number(_ text: String) -> Double? {
        PlainDecimal.parse(text)
    }

    static func double(_ value: Any?) -> Double? {
        (value as? NSNumber)?.doubleValue
    }

    /// A value as messages show it: printable, at most 40 characters.
    static func short(_ text: String) -> String {
        let printable = text.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : String($0) }.joined()
        return printable.count > 40 ? String(printable.prefix(40)) + "…" : printable
    }
}
