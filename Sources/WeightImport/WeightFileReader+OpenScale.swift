import Foundation
import WeightLog

/// openScale's CSV exports, every version:
/// - 2.x: a header row, `dateTime` (`2019-04-18 11:51`, or day first as
///   `18.04.2019 11:51` in 2.0–2.1.1) or `DATE,TIME`, `weight`, `fat`, `comment` …;
/// - 1.x: no header, `18.04.2019 11:51,weight,fat,water,muscle,waist,hip,comment`
///   (`OpenScale.exportData`, the comment written as it is, commas and all);
/// - 1.0: no header either, the user's number first:
///   `user_id,18.04.2019 11:51,weight,fat,water,muscle`, every user in one file.
/// Weights are in the app's unit, which the file does not name; a fat of `0.0`
/// means none was measured.
extension WeightFileReader {
    func readOpenScale(_ records: Records) -> ReadOutcome {
        var outcome = ReadOutcome(format: .openScale, unit: displayUnit, unitAssumed: true)
        var header: [String]?
        var dateTime: Int?, date: Int?, time: Int?, note: Int?, fat: Int?
        var measures: [(BodyMeasure, Int)] = []
        var weight = 1
        records { record in
            guard header != nil else {
                let names = record.fields.map { $0.lowercased() }
                header = names
                dateTime = names.firstIndex(of: "datetime")
                date = names.firstIndex(of: "date")
                time = names.firstIndex(of: "time")
                weight = names.firstIndex(of: "weight") ?? 1
                note = names.firstIndex { $0 == "comment" || $0 == "note" }
                fat = names.firstIndex(where: Self.isBodyFatHeader)
                // `ScaleMeasurement`'s columns, in centimetres whatever the app shows.
                measures = Self.openScaleMeasures.compactMap { column, kind in names.firstIndex(of: column).map { (kind, $0) } }
                return
            }
            let when = dateTime.map { field(record.fields, $0) }
                ?? [date, time].compactMap { $0.map { field(record.fields, $0) } }.joined(separator: " ")
            if outcome.format == .openScale, outcome.version == nil {
                outcome.version = dateTime == nil ? "the DATE,TIME layout" : (Self.dayFirst(when) != nil ? "the 2.0–2.1.1 layout" : "the dateTime layout")
            }
            add(record.line, dateText: Self.dayFirst(when) ?? when, weightText: field(record.fields, weight), unit: outcome.unit,
                note: note.map { field(record.fields, $0) }, id: nil, bodyFat: fat.map { .percent(field(record.fields, $0)) }, to: &outcome)
            addMeasures(dateText: Self.dayFirst(when) ?? when, measures.map { ($0.0, field(record.fields, $0.1)) }, to: &outcome)
        }
        return outcome
    }

    /// The tape measures of a row (centimetres, as openScale and Trend's CSV keep them): an empty or zero cell was
    /// not measured, and one no body can have is left out, as an out-of-range body fat is; the weigh-in stands either way.
    /// Returns how many were kept.
    @discardableResult
    func addMeasures(dateText: String, _ cells: [(BodyMeasure, String)], note: String? = nil, to outcome: inout ReadOutcome) -> Int {
        let measured = cells.compactMap { kind, text in Self.number(text).flatMap { $0 > 0 ? (kind, $0) : nil } }
        guard !measured.isEmpty, let date = dates.parse(dateText), date <= latestAccepted else { return 0 }
        var kept = 0
        for (kind, centimetres) in measured {
            let measurement = BodyMeasurement(date: date, kind: kind, centimetres: centimetres, note: note.flatMap { $0.isEmpty ? nil : $0 })
            // A failed rule leaves it out, as an out-of-range body fat is.
            if (try? measurement.validate()) != nil {
                outcome.measurements.append(measurement)
                kept += 1
            }
        }
        return kept
    }

    /// openScale's tape-measure columns (its `ScaleMeasurement` fields, as its CSV header names them) and what each is.
    static let openScaleMeasures: [(String, BodyMeasure)] = [("waist", .waist), ("hip", .hips), ("chest", .chest), ("neck", .neck),
                                                              ("thigh", .thigh), ("biceps", .upperArm)]

    /// The two headerless layouts of openScale 1.x, told apart by their first row.
    enum OpenScaleOneLayout: Equatable {
        /// `dateTime,weight,fat,water,muscle,waist,hip,comment`.
        case dateFirst
        /// `user_id,dateTime,weight,fat,water,muscle` (1.0).
        case userFirst

        init?(_ fields: [String]) {
            if fields.count >= 6, WeightFileReader.dayFirst(fields[0]) != nil, WeightFileReader.number(fields[1]) != nil {
                self = .dateFirst
            } else if fields.count >= 6, Int(fields[0]) != nil, WeightFileReader.dayFirst(fields[1]) != nil,
                      WeightFileReader.number(fields[2]) != nil {
                self = .userFirst
            } else {
                return nil
            }
        }

        var version: String {
            switch self {
            case .dateFirst: "the 1.x layout, without a header"
            case .userFirst: "the 1.0 layout, the user first"
            }
        }
    }

    func readOpenScaleOne(_ records: Records, layout: OpenScaleOneLayout) -> ReadOutcome {
        var outcome = ReadOutcome(format: .openScale, unit: displayUnit, unitAssumed: true)
        outcome.version = layout.version
        let shift = layout == .userFirst ? 1 : 0
        records { record in
            let fields = record.fields
            // Every user's weigh-ins are in a 1.0 file.
            if layout == .userFirst, !readsRow(of: field(fields, 0), into: &outcome) { return }
            let when = field(fields, shift)
            // The comment was written unquoted: commas in it made more fields.
            let comment = layout == .dateFirst && fields.count > 7 ? fields[7...].joined(separator: ",") : nil
            add(record.line, dateText: Self.dayFirst(when) ?? when, weightText: field(fields, 1 + shift), unit: outcome.unit,
                note: comment, id: nil, bodyFat: .percent(field(fields, 2 + shift)), to: &outcome)
            // 1.3 and later: the waist and hip after the muscle (`CsvHelper.getOldStyleHeaders`).
            if layout == .dateFirst { addMeasures(dateText: Self.dayFirst(when) ?? when, [(.waist, field(fields, 5)), (.hips, field(fields, 6))], to: &outcome) }
        }
        return outcome
    }
}
