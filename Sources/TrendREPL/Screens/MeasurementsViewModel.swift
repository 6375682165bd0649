import AppCore
import Foundation
import Settings
import Vocabulary
import WeightLog

/// The tape-measure screens: `measure` and `measurements`; `edit`, `delete` and `find` reach them through the weight screen.
@MainActor
struct MeasurementsViewModel {
    private let measurementsFeature: MeasurementsFeature

    init(measurementsFeature: MeasurementsFeature = AppModel.shared.measurementsFeature) {
        self.measurementsFeature = measurementsFeature
    }

    var unit: LengthUnit { measurementsFeature.unit }
    private var dates: DateText { DateText(timeZone: measurementsFeature.calendar.timeZone) }

    static let usage = "measure: needs a measure and its length, e.g. 'measure waist 84 cm', 'measure neck 38 chest 101' "
        + "(measures: \(BodyMeasure.allCases.map(\.word).joined(separator: ", ")); a WHEN and 'note TEXT' may follow)"

    /// `measure KIND VALUE [UNIT] … [WHEN] [note TEXT]`.
    func measure(_ arguments: [String], line: String) async throws -> CommandOutput {
        try await measurementsFeature.load()
        guard !arguments.isEmpty else { throw CommandFailure(.usage, Self.usage) }
        var rest = arguments[...]
        let input = try MeasureInput.take(from: &rest, defaultUnit: unit)
        let when = try WhenInput.take(from: &rest)
        var note: String?
        if let first = rest.first {
            guard first.lowercased() == "note" else {
                throw CommandFailure(.usage, "measure: did not understand '\(ReplSession.printable(first))'; after the measures come an optional WHEN "
                    + "(yesterday, last fri, YYYY-MM-DD [HH:MM]) and 'note TEXT'")
            }
            note = CommandTokenizer.text(after: "note", in: line) ?? rest.dropFirst().joined(separator: " ")
            guard note?.isEmpty == false else { throw CommandFailure(.usage, "measure: 'note' needs some text after it") }
        }
        let made = try await measurementsFeature.record(input, when: when, note: note)
        var trends: [MeasureTrend] = []
        for kind in made.map(\.kind) {
            if let trend = try await measurementsFeature.trend(of: kind) { trends.append(trend) }
        }
        return CommandOutput(Measured(measurements: made.map { MeasurementValue($0, dates: dates) }, trends: trends.map(TrendValue.init),
                                      unit: unit), style: .plain)
    }

    /// `measure …`: what was recorded, and each measure's trend after it.
    struct Measured: CommandAnswer {
        let measurements: [MeasurementValue]
        let trends: [TrendValue]
        let unit: LengthUnit

        enum CodingKeys: String, CodingKey { case measurements, trends }

        func text(style: TerminalStyle) -> String {
            guard let first = measurements.first else { return "Nothing was recorded." }
            let what = measurements.map { "\($0.measurement.kind.name) \(unit.format($0.measurement.centimetres))" }.joined(separator: ", ")
            var lines = ["Recorded \(what) at \(first.dates.local(first.measurement.date)) (id\(measurements.count > 1 ? "s" : "") "
                + measurements.map(\.measurement.shortID).joined(separator: ", ") + ")."]
            let trended = trends.filter { $0.days > 1 }
            if !trended.isEmpty {
                lines.append("Trend: " + trended.map { "\($0.kind.name) \(unit.format($0.trendCentimetres))" }.joined(separator: ", ") + ".")
            }
            return lines.joined(separator: "\n")
        }
    }

    /// `measurements [KIND] [RANGE]`: the measurements with their ids, newest first, and each measure's trend.
    func list(_ arguments: [String]) async throws -> CommandOutput {
        try await measurementsFeature.load()
        var words = arguments
        var kind: BodyMeasure?
        if let first = words.first, let named = BodyMeasure(word: first) {
            kind = named
            words.removeFirst()
        }
        let today = measurementsFeature.today
        words = DayRange.spoken(words, today: today).map { [$0] } ?? words
        guard words.count <= 1 else {
            throw CommandFailure(.usage, "measurements: takes a measure and a RANGE at most, e.g. 'measurements waist 3m' (\(WeightViewModel.rangeForms))")
        }
        let name = words.first ?? "all"
        guard let range = DayRange.parse(name, today: today) else {
            throw CommandFailure(.usage, "measurements: '\(ReplSession.printable(name))' is not a RANGE or a measure; use \(WeightViewModel.rangeForms)")
        }
        let shown = try await measurementsFeature.measurements(in: range, kind: kind)
        var trends: [MeasureTrend] = []
        for measure in kind.map({ [$0] }) ?? BodyMeasure.allCases {
            if let trend = try await measurementsFeature.trend(of: measure) { trends.append(trend) }
        }
        return CommandOutput(Listed(range: name.lowercased(), measurements: shown.map { MeasurementValue($0, dates: dates) },
                                    trends: trends.map(TrendValue.init), unit: unit), style: .plain)
    }

    struct Listed: CommandAnswer {
        let range: String
        let measurements: [MeasurementValue]
        let trends: [TrendValue]
        let unit: LengthUnit

        enum CodingKeys: String, CodingKey { case range, measurements, trends }

        func text(style: TerminalStyle) -> String {
            guard !measurements.isEmpty else {
                return "No measurements in \(range == "all" ? "your history" : range). Record one with 'measure waist 84 cm'."
            }
            var lines = measurements.reversed().map { value in
                let measurement = value.measurement
                return "\(measurement.shortID)  \(value.dates.local(measurement.date))  \(measurement.kind.name.padding(toLength: 9, withPad: " ", startingAt: 0))"
                    + unit.format(measurement.centimetres).leftPadded(to: 9) + (measurement.note.map { "  " + TerminalText.visible($0) } ?? "")
            }
            lines.append("")
            lines += trends.map { trend in
                "\(trend.kind.name.padding(toLength: 9, withPad: " ", startingAt: 0)) trend \(unit.format(trend.trendCentimetres)), "
                    + "last \(unit.format(trend.latestCentimetres)) on \(DayNumber.string(trend.latestDay))"
            }
            lines.append(style.dim(counted(measurements.count, "measurement") + "; 'edit ID 83.5' and 'delete ID' change them, 'undo' takes a change back"))
            return lines.joined(separator: "\n")
        }
    }

    /// `delete ID` for a measurement.
    func delete(id: String) async throws -> CommandOutput {
        let measurement = try await measurementsFeature.delete(id: id)
        return CommandOutput(Deleted(deleted: MeasurementValue(measurement, dates: dates), unit: unit), style: .plain)
    }

    struct Deleted: CommandAnswer {
        let deleted: MeasurementValue
        let unit: LengthUnit

        enum CodingKeys: String, CodingKey { case deleted }

        func text(style: TerminalStyle) -> String {
            let measurement = deleted.measurement
            return "Deleted \(measurement.shortID): \(measurement.kind.name) \(unit.format(measurement.centimetres)) on \(deleted.dates.local(measurement.date)). 'undo' brings it back."
        }
    }

    /// `edit ID [LENGTH [UNIT]] [at WHEN] [note TEXT|no note]` for a measurement.
    func edit(id: String, _ rest: [String], line: String) async throws -> CommandOutput {
        let kind = try await measurementsFeature.measurement(matching: id).kind
        var words = rest[...]
        var length: MeasureInput.Value?
        if let first = words.first?.lowercased(), !["at", "note", "no"].contains(first) {
            length = try MeasureInput.takeLength(of: kind, from: &words, defaultUnit: unit)
        }
        var when: WhenInput?
        if words.first?.lowercased() == "at" {
            words = words.dropFirst()
            when = try WhenInput.take(from: &words)
        }
        var note: WeightEntryFeature.NoteEdit?
        if words.first?.lowercased() == "note" {
            guard let text = CommandTokenizer.text(after: "note", in: line) ?? Optional(words.dropFirst().joined(separator: " ")), !text.isEmpty else {
                throw CommandFailure(.usage, "edit: 'note' needs some text after it")
            }
            note = .set(text)
            words = []
        } else if words.count == 2, words.first?.lowercased() == "no", words.last?.lowercased() == "note" {
            note = .clear
            words = []
        }
        if let extra = words.first { throw CommandFailure(.usage, "edit: did not understand '\(ReplSession.printable(extra))'; e.g. 'edit 1a2b 83.5', 'edit 1a2b at yesterday'") }
        guard length != nil || when != nil || note != nil else {
            throw CommandFailure(.usage, "edit: says nothing to change; e.g. 'edit \(id) 83.5' or 'edit \(id) at yesterday'")
        }
        let (before, after) = try await measurementsFeature.edit(id: id, centimetres: length?.centimetres, typedUnit: length?.unit, when: when, note: note)
        return CommandOutput(Edited(before: MeasurementValue(before, dates: dates), after: MeasurementValue(after, dates: dates), unit: unit), style: .plain)
    }

    struct Edited: CommandAnswer {
        let before: MeasurementValue
        let after: MeasurementValue
        let unit: LengthUnit

        enum CodingKeys: String, CodingKey { case before, after }

        func text(style: TerminalStyle) -> String {
            let old = before.measurement, new = after.measurement
            return "Changed \(new.shortID): \(old.kind.name) \(unit.format(old.centimetres)) at \(before.dates.local(old.date)) → "
                + "\(unit.format(new.centimetres)) at \(after.dates.local(new.date)). 'undo' takes it back."
        }
    }

    /// `find TEXT`'s measurements.
    func find(_ text: String) async throws -> [MeasurementValue] {
        try await measurementsFeature.find(text, limit: WeightViewModel.findLimit).map { MeasurementValue($0, dates: dates) }
    }
}

/// One measurement as `--json` writes it: `id`, `date` (with its offset), `kind`, `centimetres`, `typedUnit`, `note`.
struct MeasurementValue: Encodable {
    let measurement: BodyMeasurement
    let dates: DateText

    init(_ measurement: BodyMeasurement, dates: DateText) {
        self.measurement = measurement
        self.dates = dates
    }

    enum CodingKeys: String, CodingKey { case id, date, kind, centimetres, typedUnit, note }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(measurement.id, forKey: .id)
        try container.encode(dates.instant(measurement.date), forKey: .date)
        try container.encode(measurement.kind.rawValue, forKey: .kind)
        try container.encode(measurement.centimetres, forKey: .centimetres)
        try container.encode(measurement.typedUnit?.rawValue, forKey: .typedUnit)
        try container.encode(measurement.note, forKey: .note)
    }
}

/// One measure's trend as `--json` writes it.
struct TrendValue: Encodable {
    let kind: BodyMeasure
    let latestDay: Int
    let latestCentimetres: Double
    let trendCentimetres: Double
    /// Days measured, for the text only.
    let days: Int

    init(_ trend: MeasureTrend) {
        kind = trend.kind
        latestDay = trend.latestDay
        latestCentimetres = trend.latestCentimetres
        trendCentimetres = trend.trendCentimetres
        days = trend.series.count
    }

    enum CodingKeys: String, CodingKey { case kind, latestDate, latestCentimetres, trendCentimetres }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind.rawValue, forKey: .kind)
        try container.encode(DayNumber.string(latestDay), forKey: .latestDate)
        try container.encode(latestCentimetres, forKey: .latestCentimetres)
        try container.encode(trendCentimetres, forKey: .trendCentimetres)
    }
}
