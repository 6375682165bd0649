import AppCore
import Foundation
import WeightLog

/// The words of the tape-measure screens: what each command takes, its help and how it completes.
extension MeasurementsViewModel {
    static var commands: [CommandSpec] {
        let kinds = ArgumentSlot.words(BodyMeasure.allCases.map(\.word))
        return [
            CommandSpec(name: "measure", aliases: ["tape"],
                        syntax: .sequence([.value("KIND", kinds), .value("LENGTH"), .optional(.value("UNIT", .words(["cm", "in"]))),
                                           .optional(.value("WHEN", .words(["today", "yesterday"]))),
                                           .optional(.sequence([.word("note"), .value("TEXT")]))]),
                        summary: "record tape measures (KIND: waist hips chest neck thigh upper-arm; several at once; cm or in)",
                        examples: ["measure waist 84 cm", "measure waist 33 in", "measure hips 98", "measure neck 38 chest 101",
                                   "measure waist 83.5 yesterday"]) { context, arguments in
                try await MeasurementsViewModel(measurementsFeature: context.app.measurementsFeature).measure(arguments, line: context.line)
            },
            CommandSpec(name: "measurements", aliases: ["measures"],
                        syntax: .sequence([.optional(.value("KIND", kinds)), .optional(.range)]),
                        summary: "list tape measures with their ids and each measure's trend (default: all)",
                        examples: ["measurements", "measurements waist", "measurements 3m", "measurements waist 2026"]) { context, arguments in
                try await MeasurementsViewModel(measurementsFeature: context.app.measurementsFeature).list(arguments)
            },
        ]
    }
}
