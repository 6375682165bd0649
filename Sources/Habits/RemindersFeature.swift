import Desktop
import Foundation
import Observation
import Storage

/// What one look at the reminders that had come due did with them (DESIGN §9). A reminder counts as sent only
/// once a notification server took it or a terminal showed it; one that reached nobody stays due.
public struct RemindersSent: Sendable, Equatable {
    /// Taken by the desktop's notification service, with the notification that carries each.
    public var notified: [(reminder: HabitReminder, notification: ShownNotification)] = []
    /// Shown on a terminal, for want of a notification service.
    public var printed: [HabitReminder] = []
    /// Reached nobody (no desktop, no terminal, or a desktop that refused): they stay due, and go at the next look.
    public var undelivered: [HabitReminder] = []
    /// Why the desktop was not used, when it was not there.
    public var noService: NotificationFailure?
    /// Why the desktop did not take the rest, when it refused (they were printed, or stay due).
    public var refused: NotificationFailure?

    /// The reminders that reached the person, recorded as sent.
    public var reached: [HabitReminder] { notified.map(\.reminder) + printed }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.reached == rhs.reached && lhs.notified.map(\.notification) == rhs.notified.map(\.notification)
            && lhs.undelivered == rhs.undelivered && lhs.noService == rhs.noService && lhs.refused == rhs.refused
    }
}

/// The desktop refused a reminder: those before it went (and are recorded), it and those after stay due.
public struct RemindersRefused: Error, Equatable, Sendable, CustomStringConvertible {
    public let sent: RemindersSent
    public let failure: NotificationFailure

    public var description: String {
        let went = sent.notified.map { "\($0.reminder.habit.name) (\($0.reminder.time))" }
        let stayed = sent.undelivered.map { "\($0.habit.name) (\($0.time))" }
        let first = went.isEmpty ? "nothing was sent" : "sent " + Self.list(went)
        return "the desktop's notification service did not take \(Self.list(stayed)) (\(failure.description)); \(first); "
            + "\(stayed.count == 1 ? "it stays" : "they stay") due and \(stayed.count == 1 ? "goes" : "go") at the next look"
    }

    static func list(_ words: [String]) -> String {
        words.count <= 1 ? words.joined() : words.dropLast().joined(separator: ", ") + " and " + words[words.count - 1]
    }
}

/// Reminders (DESIGN §9): a habit's times reach the person on the days it is due and not yet done, once per
/// time and day on every device: as desktop notifications (the watcher `trend remind --watch`, one per login,
/// or a one-shot `trend remind`), acting on their "Done" and "Skip", or as a line above the open prompt. What
/// was sent is recorded in the habits' tables, which travel by sync; the notifications on this desktop are
/// recorded beside them, so whichever process hears an action knows it for one of this installation's.
@MainActor
@Observable
public final class RemindersFeature {
    @ObservationIgnored let habitsFeature: HabitsFeature
    /// The desktop's notification service (`AppEnvironment.notifications`).
    @ObservationIgnored let notifications: NotificationClient
    /// What starts the watcher with the session (`AppEnvironment.serviceManager`).
    @ObservationIgnored let serviceManager: any ServiceManager
    /// The data directory's lock files: one process sends at a time, and one watcher runs.
    @ObservationIgnored let store: LocalDataStore
    /// This program's path, for the watcher's command line.
    @ObservationIgnored let executable: String
    /// The reminders the open prompt has shown, so each is a line once there.
    @ObservationIgnored private var shownAtPrompt: Set<HabitReminderSent> = []

    public init(habitsFeature: HabitsFeature, store: LocalDataStore, notifications: NotificationClient, serviceManager: any ServiceManager,
                executable: String) {
        self.habitsFeature = habitsFeature
        self.store = store
        self.executable = executable
        self.notifications = notifications
        self.serviceManager = serviceManager
    }

    /// Now, by the injected clock.
    public var now: Date { habitsFeature.currentDate() }

    /// Every reminder of today's habit day, sent or not, in the order they come due.
    func todays() async throws -> [HabitReminder] {
        let habits = try await habitsFeature.habitsDecidingToday()
        guard habits.contains(where: { !$0.reminders.isEmpty }) else { return [] }
        return HabitReminder.reminders(of: habits, on: habitsFeature.today, dayStartMinutes: habitsFeature.dayStartMinutes(),
                                       days: habitsFeature.localDays)
    }

    /// Every reminder of today's habit day whose time has come and that no device has sent yet.
    public func due() async throws -> [HabitReminder] {
        let reminders = try await todays(), now = habitsFeature.currentDate()
        guard !reminders.isEmpty else { return [] }
        let sent = try await habitsFeature.storage.remindersSent(since: habitsFeature.today)
        return reminders.filter { $0.dueAt <= now && !sent.contains($0.sent) }
    }

    /// When the next reminder of today comes due after now, if one still will.
    public func nextDue() async throws -> Date? {
        let now = habitsFeature.currentDate()
        return try await todays().map(\.dueAt).filter { $0 > now }.min()
    }

    /// Waits until the next reminder of today comes due, or `seconds` at most (another process may set one, or
    /// mark a habit), at least a second. The wait blocks a thread of the pool: a timer of the concurrency runtime
    /// never fired under `faketime`, which the end-to-end tests run the program with.
    public func waitForNextDue(atMostSeconds seconds: Double) async {
        // Unreadable habits: the commands say why; this looks again after the longest wait.
        let next = (try? await nextDue()) ?? nil
        let wait = min(seconds, max(1, next.map { $0.timeIntervalSince(habitsFeature.currentDate()) } ?? seconds))
        _ = try? await BlockingPool.shared.run { _ in usleep(UInt32(wait * 1_000_000)) }  // Only a refused thread ends it early.
    }

    /// Sends every reminder that has come due to the desktop, "Done" and "Skip" on each. Where there is no
    /// desktop, or it refuses, the rest are printed when `terminal` says a person reads this process's output,
    /// and otherwise stay due. What reached the person is recorded as sent, with the notifications that carry
    /// them. Without a terminal, a refusal throws `RemindersRefused`, naming what went and what did not. One
    /// process sends at a time (the prompt, the watcher and a one-shot may look at the same minute).
    @discardableResult
    public func sendDue(terminal: Bool, through given: (any NotificationConnection)? = nil) async throws -> RemindersSent {
        let lock = try store.lock("remind", waiting: true)
        defer { lock?.release() }
        let reminders = try await due()
        var result = RemindersSent()
        var refusal: NotificationFailure?
        if !reminders.isEmpty {
            var rest = reminders[...]
            do {
                let connection = try given ?? notifications.connect()
                while let reminder = rest.first {
                    let shown = try await BlockingPool.shared.run { _ in try connection.notify(reminder.notification, replacing: 0) }
                    result.notified.append((reminder, shown))
                    rest = rest.dropFirst()
                }
            } catch let failure as NotificationFailure where failure.reachesNoOne {
                result.noService = failure
                if terminal { result.printed = Array(rest) } else { result.undelivered = Array(rest) }
            } catch let failure as NotificationFailure {
                result.refused = failure
                if terminal { result.printed = Array(rest) } else { result.undelivered = Array(rest) }
                refusal = terminal ? nil : failure
            }
            try await record(result)
        }
        if let refusal { throw RemindersRefused(sent: result, failure: refusal) }
        return result
    }

    /// The reminders for the open prompt, each a line once: those that came due and reached no one yet (sent to
    /// the desktop as well, where there is one; the terminal shows them in any case), and those another process
    /// sent since the prompt opened at `openedAt`.
    public func promptReminders(openedAt: Date) async throws -> [HabitReminder] {
        let sent = try await sendDue(terminal: true)
        let now = habitsFeature.currentDate()
        let recent = try await todays().filter { $0.dueAt >= openedAt && $0.dueAt <= now }
        var lines: [HabitReminder] = []
        for reminder in sent.reached + recent where !shownAtPrompt.contains(reminder.sent) {
            shownAtPrompt.insert(reminder.sent)
            lines.append(reminder)
        }
        return lines
    }

    private func record(_ result: RemindersSent) async throws {
        let reminders = result.reached
        guard !reminders.isEmpty else { return }
        let summary = "reminders sent: " + reminders.map { "\($0.habit.name) \($0.time)" }.joined(separator: ", ")
        // Bookkeeping that travels but is no change of the person's: `history` does not list it and `undo` passes it by.
        let journal = JournalEntry(action: "remind", summary: summary, at: habitsFeature.currentDate(), keptOutOfHistory: true)
        let shown = result.notified.map { OpenReminderNotification(notification: $0.notification, reminder: $0.reminder.sent) }
        try await habitsFeature.storage.recordSent(reminders.map(\.sent), shown: shown, journal: journal)
    }
}
