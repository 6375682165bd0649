import CommandLanguage
import AppCore
import Foundation
import Overview
import Vocabulary
import WeightLog

/// The weigh-in screens: `weigh`, `entries`, `edit`, `delete`, `undo`, `streak`.
@MainActor
struct WeightViewModel {
    private let weightEntryFeature: WeightEntryFeature

    init(weightEntryFeature: WeightEntryFeature = AppModel.shared.weightEntryFeature) {
        self.weightEntryFeature = weightEntryFeature
    }

    private var unit: WeightUnit { weightEntryFeature.unit }
    private var dates: DateText { DateText(timeZone: weightEntryFeature.calendar.timeZone) }

    func weigh(_ request: WeighRequest, checkIn checkInFeature: CheckInFeature, lengthUnit: LengthUnit, context: CommandContext) async throws -> CommandOutput {
        // A likely slip is asked about on a terminal (the prompt, or -c typed at one); a script records it and hears a warning.
        // The instant typed is found once, and both the doubts and the record are of it.
        let instant = try weightEntryFeature.instant(of: request.when)
        let doubts = try await weightEntryFeature.concerns(kilograms: request.kilograms, at: instant)
            .map { doubt(about: $0, request: request) }
        if context.asksAboutDoubts, !doubts.isEmpty,
           !(await context.confirm(doubts.joined(separator: " ") + " Record \(unit.formatWeighIn(request.kilograms)) anyway?")) {
            return CommandOutput(Recorded(entry: nil, checkIn: nil, warnings: doubts, unit: unit), style: context.style)
        }
        let entry = try await weightEntryFeature.record(kilograms: request.kilograms, at: instant, note: request.note,
                                                        bodyFatPercent: request.bodyFatPercent, typedUnit: request.unit)
        let checkIn = TodayViewModel.answer(await checkInFeature.assemble(weightEntryFeature.checkIn()), unit: unit,
                                            timeZone: weightEntryFeature.calendar.timeZone, lengthUnit: lengthUnit)
        // A typed time the fall-back night holds twice is taken at its first occurrence, and the answer says so.
        let twice = request.when == .current ? nil : WhenInput.repeatedTimeNote(entry.date, calendar: weightEntryFeature.calendar)
        let warnings = (context.asksAboutDoubts ? [] : doubts) + [twice].compactMap { $0 }
        return CommandOutput(Recorded(entry: EntryValue(entry: entry, dates: dates), checkIn: checkIn, warnings: warnings, unit: unit),
                             style: context.style, warnings: warnings)
    }

    /// `weigh …`: the weigh-in recorded and the check-in after it, or nothing recorded when a doubt was declined.
    struct Recorded: CommandAnswer {
        let entry: EntryValue?
        let checkIn: TodayViewModel.CheckInAnswer?
        let warnings: [String]
        let unit: WeightUnit

        enum CodingKeys: String, CodingKey { case entry, checkIn, warnings }

        func text(style: TerminalStyle) -> String {
            guard let entry else { return "Nothing was recorded." }
            var text = "Recorded \(unit.formatWeighIn(entry.entry.kilograms))"
                + (entry.entry.bodyFatPercent.map { ", body fat \(BodyFat.text($0))," } ?? "")
                + " at \(entry.dates.local(entry.entry.date)) (id \(entry.entry.shortID))."
            if let note = entry.entry.note { text += " Note: \(TerminalText.visible(note))" }
            return text + (checkIn.map { "\n" + $0.text(style: style) } ?? "")
        }
    }

    /// `fat PERCENT [WHEN]`: body fat onto the day's latest weigh-in.
    func bodyFat(percent: Double, when: WhenInput) async throws -> CommandOutput {
        let (_, entry) = try await weightEntryFeature.recordBodyFat(percent: percent, when: when)
        let fat = entry.bodyFatPercent.map(BodyFat.text) ?? "—"
        let sentence = "Body fat \(fat) added to \(unit.formatWeighIn(entry.kilograms)) at \(dates.local(entry.date)) (id \(entry.shortID))."
        return CommandOutput(Said(key: "entry", value: EntryValue(entry: entry, dates: dates), sentence: sentence), style: .plain)
    }

    /// A concern in words, as statements only (the one question follows them): for a weight far
    /// from the trend, the unit or the decimal point that would make it plausible.
    func doubt(about concern: WeighInConcern, request: WeighRequest) -> String {
        switch concern {
        case let .farFromTrend(trend):
            var text = "\(unit.format(request.kilograms)) is far from your trend of \(unit.format(trend))."
            if request.weight.startsWithBareNumber, case let number = request.weight.number {
                if let other = WeightUnit.allCases.first(where: { $0 != request.unit && !WeighInConcern.isFar($0.kilograms(from: number), fromTrend: trend) }) {
                    let kilograms = other.kilograms(from: number)
                    text += request.unit == .kilograms
                        ? " \(request.typedNumber) \(other.rawValue) would be \(WeightUnit.kilograms.format(kilograms)), near it."
                        : " \(request.typedNumber) \(request.unit.rawValue) is \(WeightUnit.kilograms.format(request.kilograms)); \(request.typedNumber) \(other.rawValue) would be near it."
                } else if let slip = WeighInConcern.decimalSlip(of: request.typedNumber, unit: request.unit, trendKilograms: trend) {
                    text += " \(slip) \(request.unit.rawValue) would be near it."
                }
            }
            return text
        case let .repeated(entry):
            return "\(unit.format(entry.kilograms)) was recorded at \(dates.local(entry.date)) already."
        }
    }

    /// The RANGE forms `entries` takes, for its messages.
    nonisolated static let rangeForms = "2w, 30d, 3m, 1y, all, a month like 2026-02, a year like 2025, 2026-01-01..2026-01-31, or words such as '2 weeks' or 'last week'"

    /// How many entries a listing reads and writes at a time.
    static let listPage = 2_000

    /// The entries of a range, written a page at a time as they are read:
    /// newest first as text, oldest first in JSON. `entries all` on a million
    /// weigh-ins holds one page, not the log.
    func list(_ range: NamedRange?, context: CommandContext) async throws -> CommandOutput {
        let name = range?.name ?? "1m"
        let range = try range?.listed(by: "entries") ?? DayRange.parse(name, today: weightEntryFeature.today) ?? .allTime
        let style = context.style, dates = self.dates, unit = self.unit
        // The JSON document's frame around its entries, which are written as they are read.
        let members: [(String, JSON)] = [("range", .string(name.lowercased()))]
        let empty = JSON.object(members + [("entries", .array([]))])
        let frame = JSON.streamedArray(after: members, key: "entries")
        var cursor: WeightEntry?
        var count = 0
        while true {
            let page = try await weightEntryFeature.entriesPage(in: range, after: cursor, newestFirst: !context.json,
                                                                 limit: Self.listPage)
            var chunk = ""
            for entry in page {
                if context.json {
                    chunk += (count == 0 ? frame.opening : ",") + JSON.entry(entry, dates: dates).encoded()
                } else {
                    if count == 0 { chunk += style.dim("id        when              weight") + "\n" }
                    var line = "\(entry.shortID)  \(dates.local(entry.date))  \(unit.formatWeighIn(entry.kilograms).leftPadded(to: 12))"
                    if let fat = entry.bodyFatPercent { line += "  " + String(format: "%.1f%% fat", fat) }
                    if let note = entry.note { line += "  " + TerminalText.visible(note) }
                    chunk += line + "\n"
                }
                count += 1
            }
            // A reader that went away (`| head`) ends the listing.
            guard !chunk.isEmpty, context.emit(chunk), page.count == Self.listPage else { break }
            cursor = page.last
        }
        var output = CommandOutput(text: "", json: empty)
        if context.json {
            output.rawJSON = count == 0 ? empty.encoded() : frame.closing
        } else {
            output.text = count == 0 ? "No weigh-ins in \(range.title). Record one with 'weigh 82.4'."
                : style.dim("\(counted(count, "weigh-in")) in \(range.title), newest first")
        }
        return output
    }

    /// `edit ID [WEIGHT] [at WHEN] [note TEXT | no note]`: a weight keeps the precision it was typed with.
    func edit(_ request: EditRequest) async throws -> CommandOutput {
        guard case let .weighIn(id) = request.target else { throw CommandFailure(.usage, "edit: that id is a measurement's") }
        let reading: WeightInput.Reading? = if case let .weight(reading)? = request.amount { reading } else { nil }
        let kilograms = reading?.kilograms, typedUnit = reading?.unit, when = request.when, note = request.note
        let (before, after) = try await weightEntryFeature.edit(id: id, kilograms: kilograms, typedUnit: typedUnit, when: when, note: note)
        return CommandOutput(Edited(entry: EntryValue(entry: after, dates: dates), previousKilograms: before.kilograms,
                                    previous: EntryValue(entry: before, dates: dates), unit: unit,
                                    changed: (weight: kilograms != nil, time: when != nil, note: note != nil)), style: .plain)
    }

    /// `edit ID …`: the weigh-in as it is now, and as it was.
    struct Edited: CommandAnswer {
        let entry: EntryValue
        let previousKilograms: Double
        let previous: EntryValue
        /// The text only: the unit shown, and what the command changed.
        let unit: WeightUnit
        let changed: (weight: Bool, time: Bool, note: Bool)

        enum CodingKeys: String, CodingKey { case entry, previousKilograms, previous }

        func text(style: TerminalStyle) -> String {
            let before = previous.entry, after = entry.entry, dates = entry.dates
            var changes: [String] = []
            // As typed: 81.45 stays 81.45, not the display's one decimal.
            if changed.weight { changes.append("weight \(unit.formatWeighIn(before.kilograms)) → \(unit.formatWeighIn(after.kilograms))") }
            if changed.time { changes.append("time \(dates.local(before.date)) → \(dates.local(after.date))") }
            if changed.note { changes.append(after.note.map { "note \"\(TerminalText.visible($0))\"" } ?? "note cleared") }
            return "Changed \(after.shortID): " + changes.joined(separator: ", ") + "."
        }
    }

    /// `find TEXT`: the weigh-ins whose note holds TEXT, newest first, and the measurements whose note does.
    func find(_ text: String, style: TerminalStyle, measurements: MeasurementsViewModel) async throws -> CommandOutput {
        let found = try await weightEntryFeature.find(text, limit: Self.findLimit)
        return CommandOutput(Found(text: text, entries: found.map { EntryValue(entry: $0, dates: dates) }, measurements: try await measurements.find(text),
                                   unit: unit, lengthUnit: measurements.unit), style: style)
    }

    /// `find TEXT`: the weigh-ins whose note holds it, newest first.
    struct Found: CommandAnswer {
        let text: String
        let entries: [EntryValue]
        let measurements: [MeasurementValue]
        let unit: WeightUnit
        let lengthUnit: LengthUnit

        enum CodingKeys: String, CodingKey { case text, entries, measurements }

        func text(style: TerminalStyle) -> String {
            guard !entries.isEmpty || !measurements.isEmpty else { return "No note holds '\(TerminalText.visible(text))'." }
            var lines = entries.map { value in
                "\(value.entry.shortID)  \(value.dates.local(value.entry.date))  \(unit.formatWeighIn(value.entry.kilograms).leftPadded(to: 12))  "
                    + TerminalText.visible(value.entry.note ?? "")
            }
            lines += measurements.map { value in
                let measurement = value.measurement
                return "\(measurement.shortID)  \(value.dates.local(measurement.date))  \((measurement.kind.name + " " + lengthUnit.format(measurement.centimetres)).leftPadded(to: 12))  "
                    + TerminalText.visible(measurement.note ?? "")
            }
            let more = entries.count == WeightViewModel.findLimit ? " (the newest \(WeightViewModel.findLimit))" : ""
            let found = [entries.isEmpty ? nil : counted(entries.count, "weigh-in"),
                         measurements.isEmpty ? nil : counted(measurements.count, "measurement")].compactMap { $0 }.joined(separator: " and ")
            lines.append(style.dim("\(found) with '\(TerminalText.visible(text))' in the note\(more)"))
            return lines.joined(separator: "\n")
        }
    }

    /// How many matches `find` shows.
    nonisolated static let findLimit = 500

    func delete(id: String) async throws -> CommandOutput {
        let entry = try await weightEntryFeature.delete(id: id)
        let sentence = "Deleted \(entry.shortID): \(unit.format(entry.kilograms)) on \(dates.local(entry.date)). 'undo' brings it back."
        return CommandOutput(Said(key: "deleted", value: EntryValue(entry: entry, dates: dates), sentence: sentence), style: .plain)
    }

    func streak(style: TerminalStyle) async throws -> CommandOutput {
        return CommandOutput(StreakAnswer(weightEntryFeature.streak()), style: style)
    }

    /// `streak`: the weigh-in streak and this week's days, one value for the text and the JSON.
    struct StreakAnswer: CommandAnswer {
        let currentStreak: Int
        let bestStreak: Int
        let week: [Day]

        struct Day: Encodable {
            let date: String
            let status: WeekDay.Status
            /// The day's number, for the text only.
            let day: Int

            enum CodingKeys: String, CodingKey { case date, status }
        }

        init(_ summary: StreakSummary) {
            currentStreak = summary.currentStreak
            bestStreak = summary.bestStreak
            week = summary.week.map { Day(date: DayNumber.string($0.day), status: $0.status, day: $0.day) }
        }

        func text(style: TerminalStyle) -> String {
            var lines = ["Weigh-in streak: \(style.bold(counted(currentStreak, "day"))) (best \(bestStreak))", ""]
            lines.append(week.map { " " + DayNumber.weekdayName($0.day) }.joined())
            lines.append(week.map { "  " + WeightViewModel.symbol($0.status, style: style) + " " }.joined())
            lines.append(week.map { " " + String(DayNumber.civil($0.day).day).leftPadded(to: 3) }.joined())
            lines.append("")
            lines.append(style.dim("↓ moving down  → steady  ↑ needs attention  ↻ time for a reset  · no weigh-in"))
            return lines.joined(separator: "\n")
        }
    }

    nonisolated static func symbol(_ status: WeekDay.Status, style: TerminalStyle) -> String {
        switch status {
        case .movingDownward: return style.paint("↓", .green)
        case .holdingSteady: return style.paint("→", .cyan)
        case .needsAttention: return style.paint("↑", .magenta)
        case .timeForReset: return style.paint("↻", .magenta)
        case .noCheckIn: return style.dim("·")
        case .future: return " "
        }
    }
}
