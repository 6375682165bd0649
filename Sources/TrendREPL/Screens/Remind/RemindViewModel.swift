import CommandLanguage
import Foundation
import Habits
import Vocabulary

/// `remind`: the habits' reminders that have come due, sent to the desktop or printed; `remind install` and
/// `remind uninstall`, the watcher that starts with each login. It presents what `RemindersFeature` decided.
@MainActor
struct RemindViewModel {
    private let remindersFeature: RemindersFeature

    init(remindersFeature: RemindersFeature) {
        self.remindersFeature = remindersFeature
    }

    /// The reminders come due, each one line for the open prompt.
    static func lines(_ reminders: [HabitReminder]) -> [String] {
        reminders.map { reminder in
            "Reminder: \(TerminalText.visible(reminder.habit.name)), \(reminder.what) (\(reminder.time)). "
                + "'habit done \(CommandTokenizer.quoted(reminder.habit.name))' marks it."
        }
    }

    /// A line of the watcher's log, as it is written to a terminal or a journal: control characters made visible.
    static func logLine(_ line: String) -> String { TerminalText.visible(line) }

    func send(terminal: Bool) async throws -> CommandOutput {
        let sent = try await remindersFeature.sendDue(terminal: terminal)
        return CommandOutput(Sent(reminders: sent), style: .plain)
    }

    /// Shows what will be written, then writes it once the person says yes (a script's command is its yes).
    func install(context: CommandContext) async throws -> CommandOutput {
        let setup = try remindersFeature.watcherSetup()
        if !context.json, context.isInteractive || context.asksBeforeWriting {
            guard context.emit(context.style.fitted("This writes " + setup.plan) + "\n") else { return CommandOutput(Setup(done: [], plan: setup.plan), style: .plain) }
            guard await context.confirm("Write it?") else {
                return CommandOutput(Setup(done: ["Nothing was written."], plan: setup.plan), style: .plain)
            }
        }
        return CommandOutput(Setup(done: try remindersFeature.install(setup), plan: setup.plan), style: .plain)
    }

    func uninstall() throws -> CommandOutput {
        CommandOutput(Setup(done: try remindersFeature.uninstall(), plan: nil), style: .plain)
    }

    /// One reminder as scripts read it; `id` is the one the notification service gave it, nil when it was printed.
    nonisolated static func json(_ reminder: HabitReminder, id: UInt32?) -> JSON {
        .object([("habit", .string(reminder.habit.name)), ("date", .string(DayNumber.string(reminder.day))), ("time", .string(reminder.time.description)),
                 ("what", .string(reminder.what)), ("notification", .optional(id.map(Int.init)))])
    }

    /// `remind`: what was sent, what was printed for want of a desktop (and why), and what reached no one.
    struct Sent: CommandAnswer {
        let reminders: RemindersSent

        func encode(to encoder: any Encoder) throws {
            try JSON.object([
                ("sent", .array(reminders.notified.map { RemindViewModel.json($0.reminder, id: $0.notification.id) })),
                ("printed", .array(reminders.printed.map { RemindViewModel.json($0, id: nil) })),
                ("undelivered", .array(reminders.undelivered.map { RemindViewModel.json($0, id: nil) })),
                ("noService", .optional(reminders.noService?.description)),
                ("refused", .optional(reminders.refused?.description)),
            ]).encode(to: encoder)
        }

        func text(style: TerminalStyle) -> String {
            let sent = reminders.notified.map(\.reminder), printed = reminders.printed, undelivered = reminders.undelivered
            guard !sent.isEmpty || !printed.isEmpty || !undelivered.isEmpty else { return "No reminder has come due." }
            var lines: [String] = []
            if !sent.isEmpty {
                lines.append("Sent \(counted(sent.count, "reminder")) to the desktop: "
                             + sent.map { "\(TerminalText.visible($0.habit.name)) (\($0.time))" }.joined(separator: ", ") + ".")
            }
            for reminder in printed {
                lines.append("Reminder: \(TerminalText.visible(reminder.habit.name)), \(reminder.what) (\(reminder.time))")
            }
            if !undelivered.isEmpty {
                lines.append("Not delivered, so still due: "
                             + undelivered.map { "\(TerminalText.visible($0.habit.name)) (\($0.time))" }.joined(separator: ", ") + ".")
            }
            if let why = reminders.refused ?? reminders.noService {
                lines.append(style.dim("(\(printed.isEmpty ? "not sent" : "printed"): \(TerminalText.visible(why.description)))"))
            }
            return lines.joined(separator: "\n")
        }
    }

    /// `remind install|uninstall`: what was done, and the plan it followed.
    struct Setup: CommandAnswer {
        let done: [String]
        let plan: String?

        func encode(to encoder: any Encoder) throws {
            try JSON.object([("done", .array(done.map { .string($0) })), ("plan", .optional(plan))]).encode(to: encoder)
        }

        func text(style: TerminalStyle) -> String { done.map { TerminalText.visible($0) }.joined(separator: "\n") }
    }
}
