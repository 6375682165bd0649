import CommandLanguage
import AppCore
import Foundation
import Vocabulary
import WeightLog

/// The words of the weight screen: what each command takes, its help and how it completes.
extension WeightViewModel {
    static var commands: [CommandSpec] {
        let when = CommandSyntax.value(.when, .words(["today", "yesterday"]), .when)
        let note = CommandSyntax.sequence([.word("note"), .value(.text, .words([]), .text(after: "note"))])
        return [
            CommandSpec(name: "weigh", aliases: ["w", "add", "weight"],
                        syntax: .sequence([.value(.weight, .words([]), .weight(slipIn: "weigh")), .optional(.readByPrevious("UNIT", .words(["kg", "lb", "st"]))),
                                           .anyOrder([when, .sequence([.word("fat"), .value(.percent, .words([]), .bodyFat)])]),
                                           .optional(note)]),
                        reads: [.weighIns],
                        summary: "record a weigh-in (WHEN: 21:00, yesterday 21:00, monday, last fri, 3 days ago, YYYY-MM-DD [HH:MM])",
                        examples: ["weigh 82.4", "weigh 181.6 lb", "weigh 12st 6lb yesterday", "weigh 82.2 last fri 07:30",
                                   "weigh 82.1 2026-11-20 07:15 note after the run", "weigh 82.4 fat 23.5%"]) { context, arguments in
                try await WeightViewModel(weightEntryFeature: context.app.weightEntryFeature)
                    .weigh(WeighRequest(arguments), checkIn: context.app.checkInFeature, lengthUnit: context.app.measurementsFeature.unit,
                           context: context)
            },
            CommandSpec(name: "fat", syntax: .sequence([.value(.percent, .words([]), .bodyFat), .optional(when)]),
                        summary: "add body fat to the day's latest weigh-in (today, or WHEN); undo takes it back",
                        examples: ["fat 23.5%", "fat 24 yesterday", "fat 23.8% 2026-11-20"]) { context, arguments in
                try await WeightViewModel(weightEntryFeature: context.app.weightEntryFeature)
                    .bodyFat(percent: arguments.required(.percent), when: arguments[.when] ?? .current)
            },
            CommandSpec(name: "entries", aliases: ["list", "log"], syntax: .optional(.range),
                        reads: [.weighIns],
                        summary: "list weigh-ins with their ids (RANGE: 2w 3m 1y all, 2026-02, 2025, START..END; default 1m)",
                        examples: ["entries", "entries 2w", "entries 2026-02", "entries 2026-01-01..2026-01-31", "entries all"]) { context, arguments in
                try await WeightViewModel(weightEntryFeature: context.app.weightEntryFeature).list(arguments[.range], context: context)
            },
            CommandSpec(name: "edit", syntax: .sequence([.value(.editTarget, .words([]), .editTarget), .optional(.value(.editAmount, .words([]), .editAmount)),
                                                        .optional(.sequence([.word("at"), when])),
                                                        .optional(.choice([note, .sequence([.word("no"), .word("note")])]))]),
                        reads: [.weighIns, .measurements],
                        summary: "change a weigh-in's weight, time or note, or a measurement's length, time or note (ID: its first characters, or 'last')",
                        examples: ["edit 1a2b 82.05", "edit 1a2b3c4d 181 lb", "edit 1a2b at yesterday 07:30",
                                   "edit 1a2b note after the \"long\" run", "edit 1a2b no note", "edit last 81.6"]) { context, arguments in
                let request = try EditRequest(arguments)
                if case let .measurement(measurement) = request.target {
                    return try await MeasurementsViewModel(measurementsFeature: context.app.measurementsFeature).edit(measurement, request)
                }
                return try await WeightViewModel(weightEntryFeature: context.app.weightEntryFeature).edit(request)
            },
            CommandSpec(name: "find", syntax: .value(.text, .words([]), .text(after: "find")), summary: "list the weigh-ins and measurements whose note holds TEXT",
                        examples: ["find after the run", "find gym"]) { context, arguments in
                try await WeightViewModel(weightEntryFeature: context.app.weightEntryFeature)
                    .find(arguments.required(.text), style: context.style,
                          measurements: MeasurementsViewModel(measurementsFeature: context.app.measurementsFeature))
            },
            CommandSpec(name: "delete", aliases: ["rm", "remove"], syntax: .value(.editTarget, .words([]), .editTarget),
                        reads: [.weighIns, .measurements],
                        summary: "delete a weigh-in or a measurement (ID: its first characters, or 'last' weigh-in); undo brings it back",
                        examples: ["delete 1a2b", "delete last"]) { context, arguments in
                // A measurement's id, from `measurements`, names it; every other id is a weigh-in's.
                switch try arguments.required(.editTarget) {
                case let .measurement(measurement):
                    return try await MeasurementsViewModel(measurementsFeature: context.app.measurementsFeature).delete(id: measurement.id)
                case let .weighIn(id):
                    return try await WeightViewModel(weightEntryFeature: context.app.weightEntryFeature).delete(id: id)
                }
            },
            CommandSpec(name: "streak", reads: [.weighIns], summary: "the weigh-in streak and this week, Monday to Sunday", examples: ["streak"]) { context, _ in
                try await WeightViewModel(weightEntryFeature: context.app.weightEntryFeature).streak(style: context.style)
            },
        ]
    }
}

/// What an `edit` or a `delete` ID names: a measurement (from `measurements`) or, otherwise, a weigh-in.
enum EditTarget {
    case weighIn(id: String)
    case measurement(BodyMeasurement)
}

extension ArgumentGrammar {
    /// A weight as `WeightInput` reads it, with its unit (`82.4`, `181.6 lb`, `12st 6lb`); a bare number
    /// is in the person's unit. One out of range that a slipped point explains is refused naming the
    /// number meant, as `command NUMBER` (nil: no such hint).
    static func weight(slipIn command: String? = nil) -> ArgumentGrammar {
        ArgumentGrammar(noun: "a weight", forms: "a weight is written 82.4, 82.4 kg, 181.6 lb, 12st 6lb or 12.5st") { words, _, context in
            do {
                let reading = try WeightInput.read(words, defaultUnit: context.weightUnit)
                return [ArgumentReading(.weight(reading), consumed: reading.consumed)]
            } catch let error as WeightInputError {
                guard let command, case .outOfRange = error, let first = words.first else { throw error }
                guard let trend = context.trendKilograms(),
                      let slip = WeighInConcern.decimalSlip(of: first, unit: context.weightUnit, trendKilograms: trend) else { throw error }
                throw CommandFailure(.invalidWeight, "\(command): \(error); did you mean '\(command) \(slip)'?")
            }
        }
    }

    /// Body fat as typed after `fat`: `23.5%`, `23.5 %` or `23.5` (checked when recorded).
    static let bodyFat = ArgumentGrammar(noun: "a percent", forms: "a percent is written 23.5% or 23.5") { words, _, _ in
        guard let (percent, consumed) = BodyFat.typed(words) else { return [] }
        return [ArgumentReading(.number(percent), consumed: consumed)]
    }

    /// An id an `edit` or a `delete` takes, as the thing it names (`EditTarget`).
    static let editTarget = ArgumentGrammar(noun: "an id") { words, _, context in
        guard let id = words.first else { return [] }
        let measurements = context.measurements
        let target: EditTarget = MeasurementsFeature.hasMeasurement(matching: id, in: measurements)
            ? .measurement(try MeasurementsFeature.measurement(matching: id, in: measurements)) : .weighIn(id: id)
        return [ArgumentReading(.editTarget(target), consumed: 1)]
    }

    /// The new amount of an `edit`: a weight for a weigh-in, a length for a measurement, read as the ID's kind says.
    static let editAmount = ArgumentGrammar(noun: "a weight or a length") { words, parsed, context in
        guard let first = words.first, first.first?.isNumber == true || first.first == "." else { return [] }
        switch parsed[.editTarget] {
        case let .measurement(measurement)?:
            var rest = words
            let value = try MeasureInput.takeLength(of: measurement.kind, from: &rest, defaultUnit: context.lengthUnit)
            return [ArgumentReading(.editAmount(.length(value)), consumed: words.count - rest.count)]
        case .weighIn?, nil:
            let reading = try WeightInput.read(words, defaultUnit: context.weightUnit)
            return [ArgumentReading(.editAmount(.weight(reading)), consumed: reading.consumed)]
        }
    }
}

/// An edit's new amount, in the kind of what it edits.
enum EditAmount {
    case weight(WeightInput.Reading)
    case length(MeasureInput.Value)
}

/// `edit ID [WEIGHT|LENGTH] [at WHEN] [note TEXT | no note]`, as its declaration read it.
struct EditRequest {
    let target: EditTarget
    let amount: EditAmount?
    let when: WhenInput?
    let note: WeightEntryFeature.NoteEdit?

    init(_ arguments: ParsedArguments) throws {
        target = try arguments.required(.editTarget)
        amount = arguments[.editAmount]
        when = arguments.has("at") ? try arguments.required(.when) : nil
        note = arguments[.text].map { .set($0) } ?? (arguments.has("no") ? .clear : nil)
        guard amount != nil || when != nil || note != nil else {
            throw CommandFailure(.usage, "edit: says nothing to change; e.g. 'edit 1a2b 83.5', 'edit 1a2b at yesterday' or 'edit 1a2b no note'")
        }
    }
}

/// `weigh WEIGHT [UNIT] [WHEN] [fat PERCENT] [note TEXT]`, as its declaration read it.
struct WeighRequest {
    /// The weight as `WeightInput` read it: kilograms, the unit typed (or the setting's), the number typed.
    let weight: WeightInput.Reading
    var kilograms: Double { weight.kilograms }
    var unit: WeightUnit { weight.unit }
    /// The weight's first word as typed (`82.4` in `82.4 lb`), for the hints that quote it.
    let typedNumber: String
    let when: WhenInput
    let note: String?
    /// `fat 23.5%`, typed before or after the WHEN.
    let bodyFatPercent: Double?

    init(_ arguments: ParsedArguments) throws {
        weight = try arguments.required(.weight)
        typedNumber = arguments.typed(.weight)?.first ?? ""
        when = arguments[.when] ?? .current
        note = arguments[.text]
        bodyFatPercent = arguments[.percent]
    }
}

/// What the weigh-in commands read, by key: a weight, body fat, what an ID names and an edit's new amount.
extension ArgumentKey where Value == WeightInput.Reading { static var weight: Self { .init("WEIGHT") } }
extension ArgumentKey where Value == Double { static var percent: Self { .init("PERCENT") } }
extension ArgumentKey where Value == EditTarget { static var editTarget: Self { .init("ID") } }
extension ArgumentKey where Value == EditAmount { static var editAmount: Self { .init("WEIGHT|LENGTH") } }
