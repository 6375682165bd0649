import Foundation
import Storage
import Vocabulary
import WeightLog

/// The JSON files Trend reads: its own export and the original Trend app's
/// weight store (`entries` first), Trend recovery snapshots (the weights in
/// them), the original app's recovery backups of `formatVersion` 1
/// (`weight.entries`), Fitbit's `weight-*.json` arrays, Garmin's account
/// export (`userBioMetrics.json`) and FatSecret's saved `weights.get_month` responses.
extension WeightFileReader {
    /// A weight store as Trend exports it and the original app keeps it:
    /// decoded into plain values, not a tree of `Any` (a million entries in
    /// a fraction of the time and memory).
    private struct WeightStoreFile: Decodable {
        var entries: [StoreEntry]
        /// `trend-weights` in Trend's export; the original app writes none.
        var format: String?
        /// Written by neither yet: a file that has one speaks of a newer shape.
        var formatVersion: Double?
        /// Trend's tape measures (`WeightExport.JSONWriter`).
        var measurements: [ExportedMeasurement]?
    }

    /// A tape measure as Trend's JSON export writes it (`BodyMeasurement`'s fields), each checked on the way in.
    struct ExportedMeasurement: Decodable {
        var centimetres: Double?
        /// ISO 8601, with its offset.
        var date: String?
        var id: String?
        /// A `BodyMeasure` raw value (`waist`, `hips`…), and the `LengthUnit` it was typed in.
        var kind: String?, typedUnit: String?
        var note: String?
    }

    /// Keeps the tape measures of Trend's JSON export that pass a measurement's rules; names the others.
    func addMeasurements(_ rows: [ExportedMeasurement], to outcome: inout ReadOutcome) {
        for (index, row) in rows.enumerated() {
            if let reason = measurement(row, into: &outcome) {
                outcome.invalid.append(ImportProblem(line: index + 1, reason: "measurement \(index + 1) \(reason)"))
            }
        }
    }

    /// Adds the row's measurement, or says why it cannot be kept.
    private func measurement(_ row: ExportedMeasurement, into outcome: inout ReadOutcome) -> String? {
        guard let text = row.date, let date = dates.parse(text) else { return "has no usable date" }
        guard date <= latestAccepted else { return "is dated after now" }
        guard let kind = row.kind.flatMap(BodyMeasure.init(rawValue:)), let centimetres = row.centimetres else { return "has no known kind and girth" }
        let unit = row.typedUnit.flatMap(LengthUnit.init(rawValue:))
        var measurement = BodyMeasurement(date: date, kind: kind, centimetres: centimetres, typedUnit: unit, note: row.note.flatMap { $0.isEmpty ? nil : $0 })
        if let id = row.id { measurement.id = id }
        do throws(MeasurementError) {
            try measurement.validate()
        } catch {
            return error.description
        }
        outcome.measurements.append(measurement)
        return nil
    }

    /// Refuses a file whose `formatVersion` is newer than `newest`: its rows may mean what this Trend cannot tell.
    static func checkFormatVersion(_ value: Any?, newest: Int, path: String) throws {
        guard let version = double(value) else { return }
        guard version.isFinite, version <= Double(newest) else {
            throw ImportError.newerFormat(path, version: version.isFinite && abs(version) < 1e15 ? Int(version) : Int.max, newest: newest)
        }
    }

    /// Whether the object's first member is `entries`: Trend's export and the
    /// original app's store both write it first (sorted keys).
    static func startsWithEntries(_ data: Data) -> Bool {
        let head = String(decoding: data.prefix(256), as: UTF8.self)
        return head.range(of: #"^\s*\{\s*"entries"\s*:"#, options: .regularExpression) != nil
    }

    /// The fast path: the `entries` array decoded `batchSize` elements at a
    /// time, so the decoder's index of a million entries never exists at
    /// once; the members after the array are decoded with it left empty.
    /// Nil when the file is not shaped this way (the slow path says what is wrong).
    private func readWeightStore(_ data: Data, path: String) throws -> ReadOutcome? {
        guard let open = data.firstIndex(of: 0x5B) else { return nil }
        var outcome = ReadOutcome(format: .trendJSON, version: nil, unit: .kilograms, unitAssumed: false)
        // A file that turns out not to be shaped this way is read again from the start: no row may have gone ahead.
        outcome.handsOnBatches = false
        var index = 0
        let decoder = JSONDecoder()
        let entries = StreamedMember(source: InMemoryBytes(data), range: open..<data.count)
        guard let close = try? entries.forEachBatch(20_000, { batch in  // Not an array that ends: the slow path says so.
            // Not the usual shape: JSONDecoder decides, and the slow path reports what is wrong.
            let rows = try batch.withUnsafeBytes(StoreEntry.entries) ?? decoder.decode([StoreEntry].self, from: batch)
            for row in rows {
                index += 1
                guard let text = row.date, let date = dates.parse(text) else {
                    outcome.invalid.append(ImportProblem(line: index, reason: "entry \(index) has no usable date"))
                    continue
                }
                // Trend's own id rides along as trendID where it is not a UUID (see `WeightExport.JSONWriter`).
                addKilograms(index, date: date, kilograms: row.kilograms, id: row.trendID ?? row.id, fields: row.fields, to: &outcome)
            }
        }).end else { return nil }
        var rest = data[..<(open + 1)]
        rest.append(contentsOf: data[close...])
        guard let store = try? JSONDecoder().decode(WeightStoreFile.self, from: rest) else { return nil }  // As above.
        try Self.checkFormatVersion(store.formatVersion, newest: 1, path: path)
        outcome.version = store.format == nil ? "the original app's weight store" : nil
        addMeasurements(store.measurements ?? [], to: &outcome)
        return outcome
    }

    func readJSON(_ data: Data, path: String) throws -> ReadOutcome {
        // The fast path; a file that does not decode this way is read below, which reports what is wrong with it.
        if Self.startsWithEntries(data), let outcome = try readWeightStore(data, path: path) {
            return outcome
        }
        // A file that is not JSON at all is a file of no known format, whatever the parser's complaint.
        let parsed = try? JSONSerialization.jsonObject(with: data)
        if let items = parsed as? [Any], Self.isFitbitWeights(items) { return readFitbit(items) }
        if let items = parsed as? [Any], Self.isGarminBiometrics(items) { return readGarminBiometrics(items) }
        if let months = Self.fatSecretMonths(parsed) { return readFatSecret(months) }
        guard let object = parsed as? [String: Any] else {
            throw ImportError.unknownFormat(path)
        }
        if let content = object["content"] as? [String: Any], object["formatVersion"] != nil {
            try Self.checkFormatVersion(object["formatVersion"], newest: SnapshotFormat.newest, path: path)
            var outcome = ReadOutcome(format: .trendSnapshot, version: Self.double(object["formatVersion"]).map { "format \(Int($0))" },
                                      unit: .kilograms, unitAssumed: false)
            for (index, item) in ((content["weights"] as? [Any]) ?? []).enumerated() {
                guard let row = item as? [String: Any], let instant = Self.double(row["instant"]), instant.isFinite,
                      (-2_208_988_800...7_258_118_400).contains(instant) else {
                    outcome.invalid.append(ImportProblem(line: index + 1, reason: "weight \(index + 1) has no usable date"))
                    continue
                }
                addKilograms(index + 1, date: Date(timeIntervalSince1970: instant), kilograms: Self.double(row["kilograms"]),
                             id: row["id"] as? String, fields: Self.optionalFields(row, \.snapshotKey), to: &outcome)
            }
            return outcome
        }
        // The original Trend app's recovery backup (formatVersion 1) keeps its weigh-ins under weight.entries,
        // in the shape of its WeightStore: {id (UUID), date (ISO 8601), kilograms, note}.
        let originalBackup = (object["weight"] as? [String: Any])?["entries"] as? [Any]
        guard let entries = object["entries"] as? [Any] ?? (object["formatVersion"] != nil ? originalBackup : nil) else {
            throw ImportError.unknownFormat(path)
        }
        // The original app's backups and Trend's exports are of format 1; a newer one is refused, not guessed at.
        try Self.checkFormatVersion(object["formatVersion"], newest: 1, path: path)
        var outcome = ReadOutcome(format: object["entries"] == nil ? .trendAppBackup : .trendJSON,
                                  version: object["entries"] == nil ? Self.double(object["formatVersion"]).map { "format \(Int($0))" } : nil,
                                  unit: .kilograms, unitAssumed: false)
        for (index, item) in entries.enumerated() {
            guard let row = item as? [String: Any], let text = row["date"] as? String, let date = dates.parse(text) else {
                outcome.invalid.append(ImportProblem(line: index + 1, reason: "entry \(index + 1) has no usable date"))
                continue
            }
            // Trend's own id rides along as trendID where it is not a UUID (see `WeightExport.JSONWriter`).
            addKilograms(index + 1, date: date, kilograms: Self.double(row["kilograms"]), id: (row["trendID"] ?? row["id"]) as? String,
                         fields: Self.optionalFields(row, \.exportKey), to: &outcome)
        }
        let measurements = (object["measurements"] as? [Any] ?? []).map { item in
            let row = item as? [String: Any] ?? [:]
            return ExportedMeasurement(centimetres: Self.double(row["centimetres"]), date: row["date"] as? String, id: row["id"] as? String,
                                       kind: row["kind"] as? String, typedUnit: row["typedUnit"] as? String, note: row["note"] as? String)
        }
        addMeasurements(measurements, to: &outcome)
        return outcome
    }

    /// The optional fields (`WeightField.optional`) of a file's object, each under its `key`.
    static func optionalFields(_ row: [String: Any], _ key: KeyPath<WeightField, String>) -> WeightEntry {
        var fields = WeightField.blank
        for field in WeightField.optional {
            field.set(&fields, field.imported(row[field[keyPath: key]]))
        }
        return fields
    }
}

