import CommandLanguage
import AppCore
import Foundation
import Habits
import Notifications
import Vocabulary

/// `remind`: the habits' reminders that have come due, sent to the desktop or printed; `remind install` and
/// `remind uninstall`, the timer that runs it every minute.
@MainActor
struct RemindViewModel {
    private let remindersFeature: RemindersFeature

    init(remindersFeature: RemindersFeature) {
        self.remindersFeature = remindersFeature
    }

    /// `trend remind --watch`: runs until SIGTERM (or SIGINT, SIGHUP), each thing done written as a line by `write`;
    /// the exit status.
    static func watch(_ app: AppModel, write: @escaping @MainActor (String, Bool) -> Void) async -> Int32 {
        DesktopBus.stopOnSignals()
        do {
            try await app.remindersFeature.watch(shouldStop: { DesktopBus.stopRequested }, refresh: { await app.commandWillRun() }) { line in
                write(line, false)
            }
            return 0
        } catch {
            write("error: remind --watch: \(error)", true)
            return 1
        }
    }

    /// The reminders come due, each one line for the open prompt.
    static func lines(_ reminders: [HabitReminder]) -> [String] {
        reminders.map { reminder in
            "Reminder: \(TerminalText.visible(reminder.habit.name)), \(reminder.what) (\(reminder.time)). "
                + "'habit done \(CommandTokenizer.quoted(reminder.habit.name))' marks it."
        }
    }

    func send() async throws -> CommandOutput {
        let sent = try await remindersFeature.sendDue()
        return CommandOutput(Sent(reminders: sent), style: .plain)
    }

    /// Shows what the timer is, then puts it in place once the person says yes (a script's command is its yes).
    func install(_ timer: ReminderTimer, context: CommandContext) async throws -> CommandOutput {
        if !context.json, context.isInteractive {
            guard context.emit(context.style.fitted("This writes " + timer.plan) + "\n") else { return CommandOutput(Timer(done: "", plan: timer.plan), style: .plain) }
            guard await context.confirm("Write it?") else {
                return CommandOutput(Timer(done: "Nothing was written.", plan: timer.plan), style: .plain)
            }
        }
        do {
            return CommandOutput(Timer(done: try timer.install(), plan: timer.plan), style: .plain)
        } catch {
            throw CommandFailure(.file, "remind install: \(error)")
        }
    }

    func uninstall(_ timer: ReminderTimer) throws -> CommandOutput {
        do {
            return CommandOutput(Timer(done: try timer.uninstall(), plan: timer.plan), style: .plain)
        } catch {
            throw CommandFailure(.file, "remind uninstall: \(error)")
        }
    }

    /// One reminder as scripts read it; `id` is the one the notification service gave it, nil when it was printed.
    nonisolated static func json(_ reminder: HabitReminder, id: UInt32?) -> JSON {
        .object([("habit", .string(reminder.habit.name)), ("date", .string(DayNumber.string(reminder.day))), ("time", .string(reminder.time.description)),
                 ("what", .string(reminder.what)), ("notification", .optional(id.map(Int.init)))])
    }

    /// `remind`: what was sent, or printed for want of a notification service (and why).
    struct Sent: CommandAnswer {
        let reminders: RemindersSent

        func encode(to encoder: any Encoder) throws {
            try JSON.object([
                ("sent", .array(reminders.notified.map { RemindViewModel.json($0.reminder, id: $0.id) })),
                ("printed", .array(reminders.printed.map { RemindViewModel.json($0, id: nil) })),
                ("noService", .optional(reminders.noServiceReason)),
            ]).encode(to: encoder)
        }

        func text(style: TerminalStyle) -> String {
            let sent = reminders.notified.map(\.reminder), printed = reminders.printed
            guard !sent.isEmpty || !printed.isEmpty else { return "No reminder has come due." }
            var lines: [String] = []
            if !sent.isEmpty {
                lines.append("Sent \(counted(sent.count, "reminder")) to the desktop: "
                             + sent.map { "\(TerminalText.visible($0.habit.name)) (\($0.time))" }.joined(separator: ", ") + ".")
            }
            for reminder in printed {
                lines.append("Reminder: \(TerminalText.visible(reminder.habit.name)), \(reminder.what) (\(reminder.time))")
            }
            if let noService = reminders.noServiceReason { lines.append(style.dim("(printed: \(noService))")) }
            return lines.joined(separator: "\n")
        }
    }

    /// `remind install|uninstall`: what was done, and the timer it concerns.
    struct Timer: CommandAnswer {
        let done: String
        let plan: String

        func text(style: TerminalStyle) -> String { done }
    }
}
