import CommandLanguage
import Backup
import Foundation
import Storage

/// `undo`, `redo` and `history`: the journal of changes, across sessions.
@MainActor
struct HistoryViewModel {
    private let changeHistoryFeature: ChangeHistoryFeature
    private let dates: DateText

    init(changeHistoryFeature: ChangeHistoryFeature) {
        self.changeHistoryFeature = changeHistoryFeature
        dates = DateText(timeZone: changeHistoryFeature.calendar.timeZone)
    }

    /// How many changes `history` lists without a number, and at most.
    static let defaultCount = 10
    nonisolated static let maximumCount = 1_000

    func undo() async throws -> CommandOutput {
        let undone = Change(try await changeHistoryFeature.undo(), dates: dates)
        let sentence = "Undone: \(TerminalText.visible(undone.summary)) (made \(undone.local)). 'redo' applies it again."
        return CommandOutput(Said(key: "undone", value: undone, sentence: sentence), style: .plain)
    }

    func redo() async throws -> CommandOutput {
        let redone = Change(try await changeHistoryFeature.redo(), dates: dates)
        return CommandOutput(Said(key: "redone", value: redone, sentence: "Redone: \(TerminalText.visible(redone.summary))."), style: .plain)
    }

    func history(count: Int, style: TerminalStyle) async throws -> CommandOutput {
        return CommandOutput(History(history: try await changeHistoryFeature.recent(count).map { Change($0, dates: dates) }), style: style)
    }

    /// One change as scripts and people read it.
    struct Change: Encodable {
        let id: Int
        let at: String
        let action: String
        let summary: String
        let undone: Bool
        let rows: Int
        /// When it was made, as a person reads it (the text only).
        let local: String

        enum CodingKeys: String, CodingKey { case id, at, action, summary, undone, rows }

        init(_ change: JournalChange, dates: DateText) {
            id = change.id
            at = dates.instant(change.at)
            action = change.action
            summary = change.summary
            undone = change.undone
            rows = change.rows
            local = dates.local(change.at)
        }
    }

    /// `history [N]`: the latest changes, newest first.
    struct History: CommandAnswer {
        let history: [Change]

        func text(style: TerminalStyle) -> String {
            guard !history.isEmpty else {
                return "No changes yet: each weigh-in, edit, import, habit change or setting is listed here, and 'undo' takes back the latest."
            }
            let width = history.map { "#\($0.id)".count }.max() ?? 0
            var lines = history.map { change in
                let number = "#\(change.id)".padding(toLength: width, withPad: " ", startingAt: 0)
                let line = "\(style.dim(number))  \(change.local)  \(TerminalText.visible(change.summary))"
                return change.undone ? line + " " + style.paint("(undone)", .magenta) : line
            }
            lines.append("")
            lines.append(history.contains(where: \.undone) ? "'redo' applies the undone change again; 'undo' takes back the latest that is not."
                                                           : "'undo' takes back the latest change; the last 1,000 are kept.")
            return lines.joined(separator: "\n")
        }
    }
}
