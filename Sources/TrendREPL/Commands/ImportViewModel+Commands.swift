import AppCore
import Foundation
import Habits
import Settings
import WeightImport
import WeightLog

/// The words of the import screen: what each command takes, its help and how it completes.
extension ImportViewModel {
    static var commands: [CommandSpec] {
        [
            CommandSpec(name: "import", syntax: .sequence([.value("FILE", .file), .optional(.word("preview")), .optional(.sequence([.word("member"), .value("NAME")]))]),
                        summary: "bring in weigh-ins (a CSV, or the export of Apple Health, Health Connect, Fitbit, Garmin, Samsung Health, Zepp, Renpho, Withings, FatSecret, Libra, openScale, Trend and more) or habits (a Loop backup, Loop's CSV export, or a Checkmarks.csv such as 'habit export' writes)",
                        examples: ["import ~/Downloads/export.xml preview", "import weights.csv", "import libra.csv",
                                   "import 'Loop Habits Backup 2026-06-10.db' preview", "import eufylife.csv member Alex",
                                   "import my-habits.csv"]) { context, arguments in
                try await viewModel(context).importFile(arguments, context: context)
            },
            CommandSpec(name: "export", syntax: .sequence([.value("FILE", .file), .optional(.word("kg")), .optional(.range)]),
                        summary: "write weigh-ins and tape measures to FILE.csv (your unit, or kg) or FILE.json; FILE.svg draws the progress chart (with HABIT marks its days; a measure such as waist or fat draws its own); FILE-habits.csv writes habits",
                        examples: ["export weights.csv", "export weights.csv kg", "export trend.json", "export 2025.csv 2025",
                                   "export chart.svg 6m", "export chart.svg 3m with Gym", "export waist.svg 6m waist", "export my-habits.csv"]) { context, arguments in
                try await viewModel(context).export(arguments)
            },
        ]
    }

    private static func viewModel(_ context: CommandContext) -> ImportViewModel {
        ImportViewModel(weightImportFeature: context.app.weightImportFeature, habitsFeature: context.app.habitsFeature,
                        progressFeature: context.app.progressFeature, weightEntryFeature: context.app.weightEntryFeature,
                        measurementsFeature: context.app.measurementsFeature)
    }
}
