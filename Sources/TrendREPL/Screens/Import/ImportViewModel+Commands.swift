import CommandLanguage
import AppCore
import Exports
import Foundation
import Vocabulary
import Progress

/// The words of the import screen: what each command takes, its help and how it completes.
extension ImportViewModel {
    static var commands: [CommandSpec] {
        [
            CommandSpec(name: "import", syntax: .sequence([.value(.file, .file, .path),
                                               .anyOrder([.value(.preview, .words(["preview"]), .oneOf(["preview"], also: ["--preview", "dry-run"])),
                                                          .sequence([.word("member"), .value(.member, .words([]), .memberName)])])]),
                        summary: "bring in weigh-ins (a CSV, or the export of Apple Health, Health Connect, Fitbit, Garmin, Samsung Health, Zepp, Renpho, Withings, FatSecret, Libra, openScale, Trend and more) or habits (a Loop backup, Loop's CSV export, or a Checkmarks.csv such as 'habit export' writes)",
                        examples: ["import ~/Downloads/export.xml preview", "import weights.csv", "import libra.csv",
                                   "import 'Loop Habits Backup 2026-06-10.db' preview", "import eufylife.csv member Alex",
                                   "import my-habits.csv"]) { context, arguments in
                try await viewModel(context).importFile(arguments.required(.file), preview: arguments[.preview] != nil,
                                                      member: arguments[.member], context: context)
            },
            CommandSpec(name: "export", syntax: .sequence([.value(.file, .file, .path),
                                               .anyOrder([.value(.inKilograms, .words(["kg"]), .oneOf(["kg"], also: ["--kg"])), .range,
                                                          .value(.measure, .words(ProgressMeasure.words), .progressMeasure)]),
                                               .optional(.sequence([.word("with"), .value(.markedHabit, .vocabulary("habits"), .habit(runsToEnd: true))]))]),
                        reads: .habitNames, readsWhenTyped: ["with": .habits, "*" + ExportKind.reportSuffix: [.weighIns, .habits]],
                        summary: "write weigh-ins and tape measures to FILE.csv (your unit, or kg) or FILE.json; FILE.svg draws the progress chart (with HABIT marks its days; a measure such as waist or fat draws its own); FILE.html writes the report, a page of every chart, habit and figure to look at or print; FILE-habits.csv writes habits",
                        examples: ["export weights.csv", "export weights.csv kg", "export trend.json", "export 2025.csv 2025",
                                   "export chart.svg 6m", "export chart.svg 3m with Gym", "export waist.svg 6m waist", "export my-habits.csv",
                                   "export report.html", "export report.html 1y"]) { context, arguments in
                let file: URL = try arguments.required(.file)
                let kind = ExportKind(fileName: file.lastPathComponent)
                if kind == .report {
                    let app = context.app
                    let made = DateText(timeZone: app.changeHistoryFeature.calendar.timeZone).local(app.weightEntryFeature.now)
                    return try await ReportViewModel(reportFeature: app.reportFeature, progressFeature: app.progressFeature,
                                                     exports: app.exportsFeature, made: made).export(to: file, range: arguments[.range])
                }
                return try await viewModel(context).export(kind, to: file, inKilograms: arguments[.inKilograms] != nil,
                                                           range: arguments[.range], chart: ChartRequest(arguments, command: "export"))
            },
        ]
    }

    private static func viewModel(_ context: CommandContext) -> ImportViewModel {
        ImportViewModel(weightImportFeature: context.app.weightImportFeature, exportsFeature: context.app.exportsFeature, habitsFeature: context.app.habitsFeature,
                        progressFeature: context.app.progressFeature, weightEntryFeature: context.app.weightEntryFeature,
                        measurementsFeature: context.app.measurementsFeature)
    }
}

extension ArgumentGrammar {
    /// A file's path, `~` read as home.
    static let path = ArgumentGrammar(noun: "a file") { words, _, _ in
        words.first.map { [ArgumentReading(.file(URL(fileURLWithPath: HomePath.expanding($0))), consumed: 1)] } ?? []
    }

    /// One person's name in a family's file: the rest of the line (names have spaces), less a closing `preview`.
    static let memberName = ArgumentGrammar(noun: "a person's name") { words, _, _ in
        guard !words.isEmpty else { return [] }
        let all = ArgumentReading(.text(words.joined(separator: " ")), consumed: words.count)
        guard words.count > 1, words.last?.lowercased() == "preview" else { return [all] }
        return [ArgumentReading(.text(words.dropLast().joined(separator: " ")), consumed: words.count - 1), all]
    }
}

/// What `import` and `export` read besides the file, by key: the member of an archive, and the words `preview` and
/// `kg`, read as values.
extension ArgumentKey where Value == String {
    static var member: Self { .init("NAME") }
    static var preview: Self { .init("preview") }
    static var inKilograms: Self { .init("kg") }
}
