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
    static let maximumCount = 1_000

    func undo() async throws -> CommandOutput {
        let change = try await changeHistoryFeature.undo()
        return CommandOutput(text: "Undone: \(TerminalText.visible(change.summary)) (made \(dates.local(change.at))). 'redo' applies it again.",
                             json: .object([("undone", json(change))]))
    }

    func redo() async throws -> CommandOutput {
        let change = try await changeHistoryFeature.redo()
        return CommandOutput(text: "Redone: \(TerminalText.visible(change.summary)).", json: .object([("redone", json(change))]))
    }

    func history(_ arguments: [String], style: TerminalStyle) async throws -> CommandOutput {
        var count = Self.defaultCount
        if let word = arguments.first {
            guard arguments.count == 1, let number = Int(word), (1...Self.maximumCount).contains(number) else {
                throw CommandFailure(.usage, "history: '\(TerminalText.visible(arguments.joined(separator: " ")))' is not a count; "
                                     + "give a number from 1 to \(Self.maximumCount), e.g. 'history 20'")
            }
            count = number
        }
        let changes = try await changeHistoryFeature.recent(count)
        guard !changes.isEmpty else {
            return CommandOutput(text: "No changes yet: each weigh-in, edit, import, habit change or setting is listed here, "
                                 + "and 'undo' takes back the latest.", json: .object([("history", .array([]))]))
        }
        let width = changes.map { "#\($0.id)".count }.max() ?? 0
        var lines = changes.map { change in
            let number = "#\(change.id)".padding(toLength: width, withPad: " ", startingAt: 0)
            let line = "\(style.dim(number))  \(dates.local(change.at))  \(TerminalText.visible(change.summary))"
            return change.undone ? line + " " + style.paint("(undone)", .magenta) : line
        }
        let undone = changes.filter(\.undone).count
        lines.append("")
        lines.append(undone > 0 ? "'redo' applies the undone change again; 'undo' takes back the latest that is not."
                                : "'undo' takes back the latest change; the last 1,000 are kept.")
        return CommandOutput(text: lines.joined(separator: "\n"), json: .object([("history", .array(changes.map(json)))]))
    }

    private func json(_ change: JournalChange) -> JSON {
        .object([("id", .integer(change.id)), ("at", .string(dates.instant(change.at))), ("action", .string(change.action)),
                 ("summary", .string(change.summary)), ("undone", .bool(change.undone)), ("rows", .integer(change.rows))])
    }
}
