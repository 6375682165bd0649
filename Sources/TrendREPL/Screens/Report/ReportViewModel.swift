import CommandLanguage
import Exports
import Foundation
import Overview
import Progress
import Vocabulary

/// `export FILE.html [RANGE]`: the report (DESIGN §10). `ReportFeature` assembles it from the Features the screens
/// use; `ReportDocument` writes it as HTML; this asks for it and hands the page to the exports' file writing.
@MainActor
struct ReportViewModel {
    let reportFeature: ReportFeature
    let progressFeature: ProgressFeature
    let exports: ExportsFeature
    /// When it was made, in the person's zone.
    let made: String

    func export(to url: URL, range named: NamedRange?) async throws -> CommandOutput {
        let range = try named.map { try ProgressViewModel(progressFeature: progressFeature).range(named: $0.name) }
        let report = try await reportFeature.report(range: range)
        try await exports.writeDocument(ReportDocument(report: report, made: made).html(), to: url)
        let charts = 1 + report.measures.count + report.habits.count
        return CommandOutput(Reported(file: url.path, charts: charts, habits: report.habits.count, range: report.periodTitle), style: .plain)
    }

    /// `export FILE.html`: the page written, and what it holds.
    struct Reported: CommandAnswer {
        let file: String
        let charts: Int
        let habits: Int
        /// The text only: the period's name.
        let range: String

        enum CodingKeys: String, CodingKey { case file, charts, habits }

        func text(style: TerminalStyle) -> String {
            "Wrote the report of \(range) (\(counted(charts, "chart")), \(counted(habits, "habit"))) to \(TerminalText.visible(file)); "
                + "open it in a browser, or print it."
        }
    }
}
