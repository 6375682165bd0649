import CommandLanguage
import Foundation
import History
import Storage
import Vocabulary

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
        let undone = try await changeHistoryFeature.undo()
        let sentence = "Undone: \(TerminalText.visible(undone.summary)) (made \(dates.local(undone.at))). 'redo' applies it again."
        return CommandOutput(Said(key: "undone", value: Self.json(undone, dates: dates), sentence: sentence), style: .plain)
    }

    func redo() async throws -> CommandOutput {
        let redone = try await changeHistoryFeature.redo()
        return CommandOutput(Said(key: "redone", value: Self.json(redone, dates: dates), sentence: "Redone: \(TerminalText.visible(redone.summary))."), style: .plain)
    }

    func history(count: Int, style: TerminalStyle) async throws -> CommandOutput {
        CommandOutput(History(history: try await changeHistoryFeature.recent(count), dates: dates), style: style)
    }

    /// One change as scripts read it.
    nonisolated static func json(_ change: JournalChange, dates: DateText) -> JSON {
        .object([("id", .integer(change.id)), ("at", .string(dates.instant(change.at))), ("action", .string(change.action)),
                 ("summary", .string(change.summary)), ("undone", .bool(change.undone)), ("rows", .integer(change.rows))])
    }

    /// `history [N]`: the latest changes, newest first.
    struct History: CommandAnswer {
        let history: [JournalChange]
        let dates: DateText

        func encode(to encoder: any Encoder) throws {
            try JSON.object([("history", .array(history.map { HistoryViewModel.json($0, dates: dates) }))]).encode(to: encoder)
        }

        func text(style: TerminalStyle) -> String {
            guard !history.isEmpty else {
                return "No changes yet: each weigh-in, edit, import, habit change or setting is listed here, and 'undo' takes back the latest."
            }
            let width = history.map { "#\($0.id)".count }.max() ?? 0
            var lines = history.map { change in
                let number = "#\(change.id)".padding(toLength: width, withPad: " ", startingAt: 0)
                let line = "\(style.dim(number))  \(dates.local(change.at))  \(TerminalText.visible(change.summary))"
                return change.undone ? line + " " + style.paint("(undone)", .magenta) : line
            }
            lines.append("")
            lines.append(history.contains(where: \.undone) ? "'redo' applies the undone change again; 'undo' takes back the latest that is not."
                                                           : "'undo' takes back the latest change; the last 1,000 are kept.")
            return lines.joined(separator: "\n")
        }
    }
}
