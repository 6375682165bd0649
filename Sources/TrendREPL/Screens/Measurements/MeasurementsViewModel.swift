import CommandLanguage
import AppCore
import Foundation
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

    /// `measure KIND VALUE [UNIT] … [WHEN] [note TEXT]`.
    func measure(_ input: MeasureInput, when: WhenInput, note: String?) async throws -> CommandOutput {
        let made = try await measurementsFeature.record(input, when: when, note: note)
        var trends: [MeasureTrend] = []
        for kind in made.map(\.kind) {
            if let trend = try await measurementsFeature.trend(of: kind) { trends.append(trend) }
        }
        return CommandOutput(Measured(measurements: made.map { MeasurementValue(measurement: $0, dates: dates) }, trends: trends.map { TrendValue(trend: $0) },
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
            let trended = trends.map(\.trend).filter { $0.series.count > 1 }
            if !trended.isEmpty {
                lines.append("Trend: " + trended.map { "\($0.kind.name) \(unit.format($0.trendCentimetres))" }.joined(separator: ", ") + ".")
            }
            return lines.joined(separator: "\n")
        }
    }

    /// `measurements [KIND] [RANGE]`: the measurements with their ids, newest first, and each measure's trend.
    func list(kind: BodyMeasure?, range named: NamedRange?) async throws -> CommandOutput {
        let name = named?.name ?? "all"
        let range = try named?.listed(by: "measurements") ?? DayRange.allTime
        let shown = try await measurementsFeature.measurements(in: range, kind: kind)
        var trends: [MeasureTrend] = []
        for measure in kind.map({ [$0] }) ?? BodyMeasure.allCases {
            if let trend = try await measurementsFeature.trend(of: measure) { trends.append(trend) }
        }
        return CommandOutput(Listed(range: name.lowercased(), measurements: shown.map { MeasurementValue(measurement: $0, dates: dates) },
                                    trends: trends.map { TrendValue(trend: $0) }, unit: unit), style: .plain)
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
            lines += trends.map(\.trend).map { trend in
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
        let sentence = "Deleted \(measurement.shortID): \(measurement.kind.name) \(unit.format(measurement.centimetres)) on \(dates.local(measurement.date)). "
            + "'undo' brings it back."
        return CommandOutput(Said(key: "deleted", value: MeasurementValue(measurement: measurement, dates: dates), sentence: sentence), style: .plain)
    }

    /// `edit ID [LENGTH [UNIT]] [at WHEN] [note TEXT|no note]` for a measurement.
    func edit(_ measurement: BodyMeasurement, _ request: EditRequest) async throws -> CommandOutput {
        let length: MeasureInput.Value?
        switch request.amount {
        case let .length(value)?: length = value
        case .weight?: throw CommandFailure(.usage, "edit: a measurement takes a length, e.g. 'edit \(measurement.shortID) 83.5'")
        case nil: length = nil
        }
        let id = measurement.id, when = request.when, note = request.note
        let (before, after) = try await measurementsFeature.edit(id: id, centimetres: length?.centimetres, typedUnit: length?.unit, when: when, note: note)
        let sentence = "Changed \(after.shortID): \(before.kind.name) \(unit.format(before.centimetres)) at \(dates.local(before.date)) → "
            + "\(unit.format(after.centimetres)) at \(dates.local(after.date)). 'undo' takes it back."
        let document = JSON.object([("before", JSON(encoding: MeasurementValue(measurement: before, dates: dates))),
                                    ("after", JSON(encoding: MeasurementValue(measurement: after, dates: dates)))])
        return CommandOutput(Said(document, sentence: sentence), style: .plain)
    }

    /// `find TEXT`'s measurements.
    func find(_ text: String) async throws -> [MeasurementValue] {
        try await measurementsFeature.find(text, limit: WeightViewModel.findLimit).map { MeasurementValue(measurement: $0, dates: dates) }
    }
}

/// One measurement as `--json` writes it: `id`, `date` (with its offset), `kind`, `centimetres`, `typedUnit`, `note`.
struct MeasurementValue: Encodable {
    let measurement: BodyMeasurement
    let dates: DateText

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
    let trend: MeasureTrend

    func encode(to encoder: any Encoder) throws {
        try JSON.object([("kind", .string(trend.kind.rawValue)), ("latestDate", .string(DayNumber.string(trend.latestDay))),
                         ("latestCentimetres", .number(trend.latestCentimetres)), ("trendCentimetres", .number(trend.trendCentimetres))])
            .encode(to: encoder)
    }
}
