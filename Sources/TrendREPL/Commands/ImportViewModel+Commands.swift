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
            CommandSpec(name: "import", usage: "import FILE [preview] [member NAME]",
                        summary: "bring in weigh-ins (a CSV, or the export of Apple Health, Health Connect, Fitbit, Garmin, Samsung Health, Zepp, Renpho, Withings, FatSecret, Libra, openScale, Trend and more) or Loop habits",
                        examples: ["import ~/Downloads/export.xml preview", "import weights.csv", "import libra.csv",
                                   "import 'Loop Habits Backup 2026-06-10.db' preview", "import eufylife.csv member Alex"],
                        completion: .positional([.file, .words(["preview", "member"])])) { context, arguments in
                try await viewModel(context).importFile(arguments, context: context)
            },
            CommandSpec(name: "export", usage: "export FILE [kg] [RANGE]",
                        summary: "write weigh-ins to FILE.csv (your unit, or kg) or FILE.json; FILE-habits.csv writes habits",
                        examples: ["export weights.csv", "export weights.csv kg", "export trend.json", "export 2025.csv 2025",
                                   "export my-habits.csv"],
                        completion: .positional([.file, .words(["kg"])])) { context, arguments in
                try await viewModel(context).export(arguments)
            },
        ]
    }

    private static func viewModel(_ context: CommandContext) -> ImportViewModel {
        ImportViewModel(weightImportFeature: context.app.weightImportFeature, habitsFeature: context.app.habitsFeature,
                        progressFeature: context.app.progressFeature)
    }
}
