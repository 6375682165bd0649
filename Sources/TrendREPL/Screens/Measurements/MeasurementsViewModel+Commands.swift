import CommandLanguage
import AppCore
import Foundation
import WeightLog

/// The words of the tape-measure screens: what each command takes, its help and how it completes.
extension MeasurementsViewModel {
    static var commands: [CommandSpec] {
        let kinds = ArgumentSlot.words(BodyMeasure.allCases.map(\.word))
        return [
            CommandSpec(name: "measure", aliases: ["tape"],
                        syntax: .sequence([.value(.measures, kinds, .measures), .readByPrevious("LENGTH", .words([])),
                                           .optional(.readByPrevious("UNIT", .words(["cm", "in"]))),
                                           .optional(.value(.when, .words(["today", "yesterday"]), .when)),
                                           .optional(.sequence([.word("note"), .value(.text, .words([]), .text(after: "note"))]))]),
                        reads: [.measurements],
                        summary: "record tape measures (KIND: waist hips chest neck thigh upper-arm; several at once; cm or in)",
                        examples: ["measure waist 84 cm", "measure waist 33 in", "measure hips 98", "measure neck 38 chest 101",
                                   "measure waist 83.5 yesterday"]) { context, arguments in
                try await MeasurementsViewModel(measurementsFeature: context.app.measurementsFeature)
                    .measure(arguments.required(.measures), when: arguments[.when] ?? .current, note: arguments[.text])
            },
            CommandSpec(name: "measurements", aliases: ["measures"],
                        syntax: .sequence([.optional(.value(.measureKind, kinds, .measureKind)), .optional(.range)]),
                        reads: [.measurements],
                        summary: "list tape measures with their ids and each measure's trend (default: all)",
                        examples: ["measurements", "measurements waist", "measurements 3m", "measurements waist 2026"]) { context, arguments in
                try await MeasurementsViewModel(measurementsFeature: context.app.measurementsFeature)
                    .list(kind: arguments[.measureKind], range: arguments[.range])
            },
        ]
    }
}

extension ArgumentGrammar {
    /// Tape measures as `MeasureInput` reads them, with their lengths and units (`waist 84 cm`, `neck 38 chest 101`).
    static let measures = ArgumentGrammar(noun: "a measure and its length",
                                          forms: "e.g. 'waist 84 cm' or 'neck 38 chest 101'; the measures are \(BodyMeasure.allCases.map(\.word).joined(separator: ", "))") { words, _, context in
        var rest = words
        let input = try MeasureInput.take(from: &rest, defaultUnit: context.lengthUnit)
        return [ArgumentReading(.measures(input), consumed: words.count - rest.count)]
    }

    /// One measure's name (`waist`, `hip`, `biceps`).
    static let measureKind = ArgumentGrammar(noun: "a measure") { words, _, _ in
        guard let first = words.first, let kind = BodyMeasure(word: first) else { return [] }
        return [ArgumentReading(.bodyMeasure(kind), consumed: 1)]
    }
}

/// What `measure` reads (one or more tape measures) and the kind `measurements` lists, by key.
extension ArgumentKey where Value == MeasureInput { static var measures: Self { .init("KIND") } }
extension ArgumentKey where Value == BodyMeasure { static var measureKind: Self { .init("KIND") } }
