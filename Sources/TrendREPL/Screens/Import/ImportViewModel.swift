import CommandLanguage
import AppCore
import Exports
import Foundation
import Habits
import Progress
import Vocabulary
import WeightImport
import WeightLog

/// `import FILE [preview]` and `export FILE [kg] [RANGE]`.
@MainActor
struct ImportViewModel {
    private let weightImportFeature: WeightImportFeature
    private let exportsFeature: ExportsFeature
    private let habitsFeature: HabitsFeature
    private let progressFeature: ProgressFeature
    /// For `export chart.svg RANGE waist|fat|lean…`: where body fat and the tape measures come from.
    private let weightEntryFeature: WeightEntryFeature?
    private let measurementsFeature: MeasurementsFeature?

    init(weightImportFeature: WeightImportFeature = AppModel.shared.weightImportFeature,
         exportsFeature: ExportsFeature = AppModel.shared.exportsFeature,
         habitsFeature: HabitsFeature = AppModel.shared.habitsFeature,
         progressFeature: ProgressFeature = AppModel.shared.progressFeature,
         weightEntryFeature: WeightEntryFeature? = nil, measurementsFeature: MeasurementsFeature? = nil) {
        self.weightImportFeature = weightImportFeature
        self.exportsFeature = exportsFeature
        self.habitsFeature = habitsFeature
        self.progressFeature = progressFeature
        self.weightEntryFeature = weightEntryFeature
        self.measurementsFeature = measurementsFeature
    }

    func importFile(_ url: URL, preview previewOnly: Bool, member: String?, context: CommandContext) async throws -> CommandOutput {
        if let source = habitsFeature.loopSource(at: url) {
            return renderLoop(try await habitsFeature.importLoop(source, preview: previewOnly), source: source, style: context.style)
        }
        // Loop's CSV export as Loop hands it over, a zip: read as the folder it unpacks to, which goes afterwards.
        if let archive = try weightImportFeature.loopCSVArchive(at: url), let source = habitsFeature.loopSource(at: archive.folder) {
            let summary = try await habitsFeature.importLoop(source, preview: previewOnly)
            return withExtendedLifetime(archive) { renderLoop(summary, source: source, style: context.style) }
        }
        let bar = ProgressBar(enabled: context.isInteractive, label: previewOnly ? "Reading" : "Importing")
        let preview: ImportPreview
        var imported: Int?
        defer { bar.finish() }
        if previewOnly {
            preview = try await weightImportFeature.preview(url, member: member, progress: bar.update)
        } else {
            let result = try await weightImportFeature.importFile(url, member: member, progress: bar.update)
            preview = result.preview
            imported = result.imported
        }
        bar.finish()
        return render(preview, imported: imported, style: context.style)
    }

    func render(_ preview: ImportPreview, imported: Int?, style: TerminalStyle) -> CommandOutput {
        CommandOutput(Imported(preview, imported: imported, dates: DateText(timeZone: weightImportFeature.calendar.timeZone)), style: style)
    }

    /// `import FILE [preview]` of weigh-ins: what the file holds, sorted into new, already here and invalid.
    struct Imported: CommandAnswer {
        let preview: ImportPreview
        let imported: Int?
        let dates: DateText

        init(_ preview: ImportPreview, imported: Int?, dates: DateText) {
            (self.preview, self.imported, self.dates) = (preview, imported, dates)
        }

        func encode(to encoder: any Encoder) throws {
            try JSON.object([
                ("format", .string(preview.format.rawValue)), ("version", .optional(preview.version)), ("member", .optional(preview.member)),
                ("unit", .string(preview.unit.rawValue)), ("unitAssumed", .bool(preview.unitAssumed)), ("new", .integer(preview.newCount)),
                ("duplicates", .integer(preview.duplicates)),
                ("invalid", .array(preview.invalid.map { .object([("line", .integer($0.line)), ("reason", .string($0.reason))]) })),
                ("skipped", .integer(preview.skipped)), ("first", .optional(preview.first.map(dates.instant))),
                ("last", .optional(preview.last.map(dates.instant))), ("imported", .optional(imported)),
                ("measurements", .integer(preview.measurements)), ("shortenedNotes", .array(preview.shortenedNotes.map { .integer($0) })),
            ]).encode(to: encoder)
        }

        func text(style: TerminalStyle) -> String {
            let (invalid, skipped, measurements, unit) = (preview.invalid, preview.skipped, preview.measurements, preview.unit.rawValue)
            var lines = ["Format: \(preview.format.title)" + (preview.version.map { ", \($0)" } ?? "")]
            if let member = preview.member { lines.append("Member: \(TerminalText.visible(member))") }
            lines.append(preview.unitAssumed
                         ? style.paint("Unit: the file names none, so weights were read in \(unit) (your unit); 'set unit' changes it", .magenta)
                         : "Unit: \(unit)")
            if let first = preview.first, let last = preview.last { lines.append("Dates: \(dates.local(first)) to \(dates.local(last))") }
            if preview.newCount + preview.duplicates + invalid.count == 0 {
                lines.append(style.paint("The file holds no weight records" + (skipped > 0 ? " (\(counted(skipped, "row")) without a weight)" : "")
                                         + ": nothing to import.", .magenta))
            } else {
                lines.append("\(preview.newCount) new, \(preview.duplicates) already here, \(invalid.count) invalid"
                             + (skipped > 0 ? ", \(counted(skipped, "row")) without a weight skipped" : ""))
            }
            for problem in invalid.prefix(20) {
                // A reason quotes the file's text: its control characters and direction overrides are shown, never sent.
                lines.append(style.paint("  line \(problem.line): \(TerminalText.visible(problem.reason))", .magenta))
            }
            if invalid.count > 20 { lines.append("  … and \(invalid.count - 20) more (--json lists them all)") }
            for line in preview.shortenedNotes.prefix(5) { lines.append("  line \(line): note shortened to \(WeightNote.maximumLength) characters") }
            if preview.shortenedNotes.count > 5 { lines.append("  … and \(preview.shortenedNotes.count - 5) more notes shortened (--json lists them all)") }
            let measures = preview.measures.map(\.name).joined(separator: ", ")
            if imported == nil, measurements > 0 { lines.append("\(counted(measurements, "tape measure")) (\(measures)) \(measurements == 1 ? "comes" : "come") with them") }
            if let imported {
                lines.append(style.bold("Imported \(counted(imported, "weigh-in"))" + (measurements > 0 ? " and \(counted(measurements, "new tape measure"))." : ".")))
            } else {
                lines.append("Nothing was written. Run the same command without 'preview' to import.")
            }
            return lines.joined(separator: "\n")
        }
    }

    /// A Loop Habit Tracker backup: the habits and days it brings.
    func renderLoop(_ summary: LoopImportSummary, source: LoopSource, style: TerminalStyle) -> CommandOutput {
        CommandOutput(LoopImported(summary, source: source), style: style)
    }

    /// `import` of Loop's habits: the habits and days it brings, or would.
    struct LoopImported: CommandAnswer {
        let summary: LoopImportSummary
        let source: LoopSource

        init(_ summary: LoopImportSummary, source: LoopSource) {
            (self.summary, self.source) = (summary, source)
        }

        func encode(to encoder: any Encoder) throws {
            let texts = { (texts: [String]) in JSON.array(texts.map { .string($0) }) }
            try JSON.object([
                ("format", .string(source.code)), ("newHabits", texts(summary.newHabits)), ("mergedHabits", texts(summary.mergedHabits)),
                ("archived", .integer(summary.archived)), ("new", .integer(summary.newDays)), ("duplicates", .integer(summary.existingDays)),
                ("invalid", texts(summary.problems)), ("assumed", texts(summary.assumptions)), ("imported", .bool(summary.imported)),
            ]).encode(to: encoder)
        }

        func text(style: TerminalStyle) -> String {
            let (newHabits, invalid) = (summary.newHabits, summary.problems)
            var lines = ["Format: \(source.format)"]
            lines.append(counted(newHabits.count, "new habit", "new habits") + (summary.archived > 0 ? " (\(summary.archived) archived)" : "")
                         + (newHabits.isEmpty ? "" : ": " + newHabits.joined(separator: ", ")))
            if !summary.mergedHabits.isEmpty { lines.append("Days added to \(summary.mergedHabits.joined(separator: ", ")) (habits already here)") }
            lines.append("\(counted(summary.newDays, "new day", "new days")), \(summary.existingDays) already here, \(invalid.count) left out")
            for problem in invalid.prefix(20) { lines.append(style.paint("  \(TerminalText.visible(problem))", .magenta)) }
            if invalid.count > 20 { lines.append("  … and \(invalid.count - 20) more (--json lists them all)") }
            for assumption in summary.assumptions { lines.append("  " + TerminalText.visible(assumption)) }
            if summary.imported {
                lines.append(style.bold("Imported. 'habits' shows them with Loop's numbers."))
            } else if newHabits.isEmpty && summary.newDays == 0 {
                lines.append("Nothing new to import.")
            } else {
                lines.append("Nothing was written. Run the same command without 'preview' to import.")
            }
            return lines.joined(separator: "\n")
        }
    }

    /// `export FILE [kg] [RANGE]`, and for an SVG chart `[MEASURE] [with HABIT]`: `kind` as the file's name says it.
    func export(_ kind: ExportKind?, to url: URL, inKilograms: Bool, range named: NamedRange?, chart: ChartRequest) async throws -> CommandOutput {
        if kind == .chart { return try await exportChart(to: url, chart) }
        if chart.measure != nil || chart.habit != nil {
            throw CommandFailure(.usage, "export: a measure and 'with HABIT' are for a chart (a FILE ending in .svg)")
        }
        let range = try named?.listed(by: "export")
        if range != nil, kind == .habitsCSV {
            throw CommandFailure(.usage, "export: a RANGE applies to weigh-ins; the habits export writes every day")
        }
        let written: ExportsFeature.Exported
        let what: String
        switch kind {
        case .habitsCSV:
            let count = try await habitsFeature.exportCSV(to: url)
            written = ExportsFeature.Exported(entries: count, measurements: 0)
            what = "habit\(count == 1 ? "" : "s") (Loop's CSV layout)"
        case .weighInsCSV:
            let unit = inKilograms ? WeightUnit.kilograms : exportsFeature.displayUnit.fileUnit
            written = try await exportsFeature.exportCSV(to: url, unit: unit, range: range, keepsTypedUnits: !inKilograms)
            // Only what the file holds: the weigh-ins kept in the unit they were typed in are counted, when there are any.
            let other = written.entriesInOtherUnits
            let kept = other == 0 ? "" : "; \(other == written.entries ? "each" : "\(other)") typed in another unit kept in it"
            what = "weigh-in\(written.entries == 1 ? "" : "s") (CSV, \(unit.rawValue)\(kept))"
        case .weighInsJSON:
            written = try await exportsFeature.exportJSON(to: url, range: range)
            what = "weigh-in\(written.entries == 1 ? "" : "s") (Trend JSON)"
        case .report, .chart, nil:
            // The report and a chart are written above; nil is a name of no kind.
            throw ExportError.unknownType(url.path)
        }
        return CommandOutput(Exported(file: url.path, count: written.entries, measurements: written.measurements,
                                      measures: written.measures.map(\.name), what: what), style: .plain)
    }

    /// `export FILE …`: the file written and how many rows it holds.
    struct Exported: CommandAnswer {
        let file: String
        let count: Int
        /// Tape measures written beside the weigh-ins.
        let measurements: Int
        /// The text only: which measures they are (`waist`).
        let measures: [String]
        /// The text only: what the rows are (`weigh-ins (CSV, lb)`).
        let what: String

        enum CodingKeys: String, CodingKey { case file, count, measurements }

        func text(style: TerminalStyle) -> String {
            let kinds = measures.isEmpty ? "" : " (\(measures.joined(separator: ", ")))"
            let written = measurements == 0 ? "" : " and \(counted(measurements, "tape measure"))\(kinds)"
            return "Wrote \(count) \(what)\(written) to \(TerminalText.visible(file))."
        }
    }
}

extension ImportViewModel {
    /// `export chart.svg [RANGE] [with HABIT]`: the progress chart of a range (the chosen one by default) as an SVG;
    /// `export waist.svg [RANGE] waist|fat|lean|…`, a measure's chart.
    func exportChart(to url: URL, _ request: ChartRequest) async throws -> CommandOutput {
        let progress = ProgressViewModel(progressFeature: progressFeature, weightEntryFeature: weightEntryFeature, measurementsFeature: measurementsFeature)
        if let measure = request.measure {
            let shown = try await progress.measured(measure, range: request.range?.name)
            let data = shown.data
            let title = "\(measure.name.prefix(1).uppercased())\(measure.name.dropFirst()), \(data.range.title)" + (data.points.isEmpty ? ""
                : " (\(DayNumber.string(data.points[0].day)) – \(DayNumber.string(data.today)))")
            try await exportsFeature.writeDocument(SVGChart(scale: shown.scale).render(data, title: title, empty: "No \(measure.name) in this range."), to: url)
            return Self.charted(url, data)
        }
        let range = try request.range.map { try progress.range(named: $0.name) }
        let data = try await progressFeature.prepare(range: range)
        let title = "Trend, \(data.range.title)" + (data.points.isEmpty ? ""
            : " (\(DayNumber.string(data.points[0].day)) – \(DayNumber.string(data.today)))")
        try await exportsFeature.writeDocument(SVGChart(scale: .weight(progressFeature.selectedWeightUnit), habit: request.marked).render(data, title: title), to: url)
        return Self.charted(url, data)
    }

    /// `export chart.svg …`: the chart written, and how many days it draws.
    private static func charted(_ url: URL, _ data: WeightHistoryData) -> CommandOutput {
        let sentence = "Wrote the chart of \(data.range.title) (\(counted(data.points.count, "day"))) to \(TerminalText.visible(url.path))."
        return CommandOutput(Said(.object([("file", .string(url.path)), ("days", .integer(data.points.count))]), sentence: sentence), style: .plain)
    }
}
