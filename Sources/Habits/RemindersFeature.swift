import Foundation
import Notifications
import Observation
import Storage
import Vocabulary

/// What a run of `trend remind` did with the reminders that had come due.
public struct RemindersSent: Sendable, Equatable {
    /// Shown as desktop notifications, with the id the service gave each.
    public var notified: [(reminder: HabitReminder, id: UInt32)] = []
    /// Printed, because there is no notification service to show them (no session bus, or no desktop on it).
    public var printed: [HabitReminder] = []
    /// Why they were printed: the bus's own words.
    public var noServiceReason: String?

    public var all: [HabitReminder] { notified.map(\.reminder) + printed }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.all == rhs.all && lhs.notified.map(\.id) == rhs.notified.map(\.id) && lhs.noServiceReason == rhs.noServiceReason
    }
}

/// Why reminders could not be sent; nothing was recorded as sent.
public enum RemindersError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The notification service is there but refused, or did not answer.
    case refused(String)

    public var description: String {
        switch self {
        case let .refused(reason): "the desktop's notification service did not take the reminder (\(reason)); nothing was recorded as sent"
        }
    }
}

/// Reminders (DESIGN §9): a habit's times reach the person on the days it is due and not yet done, once per
/// time and day on every device: through the desktop's notification service (`trend remind`, a systemd user
/// timer or cron), acting on its "done" and "skip" (`trend remind --watch`), or as a line above the open
/// prompt. What was sent is recorded in the habits' tables, which travel by sync.
@MainActor
@Observable
public final class RemindersFeature {
    @ObservationIgnored private let habitsFeature: HabitsFeature
    /// Opens the desktop's notification service; a test gives its own session bus in the environment.
    @ObservationIgnored private let openBus: @Sendable () throws(DesktopBus.Failure) -> DesktopBus
    /// The last reminders sent or printed, and the last failure, as `trend remind` reports them.
    public private(set) var lastSent = RemindersSent()
    public private(set) var lastError: (any Error)?
    /// The notifications shown by the running `--watch`, by the service's id.
    @ObservationIgnored private var shown: [UInt32: HabitReminder] = [:]

    /// The name notifications carry (the freedesktop `app_name`).
    public nonisolated static let applicationName = "Trend"
    /// The actions a notification offers: key and label.
    public nonisolated static let actions: [(key: String, label: String)] = [("done", "Done"), ("skip", "Skip")]

    public init(habitsFeature: HabitsFeature, openBus: @escaping @Sendable () throws(DesktopBus.Failure) -> DesktopBus = { () throws(DesktopBus.Failure) in try DesktopBus() }) {
        self.habitsFeature = habitsFeature
        self.openBus = openBus
    }

    /// Every reminder of today's habit day whose time has come and that no device has sent yet.
    public func due() async throws -> [HabitReminder] {
        let habits = try await habitsFeature.habitsDecidingToday()
        let today = habitsFeature.today, now = habitsFeature.currentDate()
        guard habits.contains(where: { !$0.reminders.isEmpty }) else { return [] }
        let sent = try await habitsFeature.storage.remindersSent(since: today)
        return HabitReminder.reminders(of: habits, on: today, dayStartMinutes: habitsFeature.dayStartMinutes(),
                                       days: habitsFeature.localDays)
            .filter { $0.dueAt <= now && !sent.contains($0.sent) }
    }

    /// When the next reminder of today comes due after now, if one still will.
    public func nextDue() async throws -> Date? {
        let habits = try await habitsFeature.habitsDecidingToday()
        let now = habitsFeature.currentDate()
        return HabitReminder.reminders(of: habits, on: habitsFeature.today, dayStartMinutes: habitsFeature.dayStartMinutes(),
                                       days: habitsFeature.localDays)
            .map(\.dueAt).filter { $0 > now }.min()
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

    /// Sends every reminder that has come due as a desktop notification with "done" and "skip", or prints them
    /// when there is no notification service, and records them as sent. A service that refuses stops the run:
    /// what was shown before it is recorded, the rest is not (and goes next time).
    @discardableResult
    public func sendDue(through bus: DesktopBus? = nil) async throws -> RemindersSent {
        let reminders = try await due()
        var result = RemindersSent()
        guard !reminders.isEmpty else {
            lastSent = result
            return result
        }
        var failure: RemindersError?
        do {
            let bus = try bus ?? openBus()
            for reminder in reminders {
                let id = try await BlockingPool.shared.run { _ in try Self.notify(reminder, on: bus) }
                result.notified.append((reminder, id))
                if bus === self.watchedBus { shown[id] = reminder }
            }
        } catch let error as DesktopBus.Failure where error.isNoService && result.notified.isEmpty {
            result.printed = reminders
            result.noServiceReason = error.description
        } catch let error as DesktopBus.Failure {
            failure = .refused(error.description)
        }
        try await record(result.all)
        lastSent = result
        if let failure {
            lastError = failure
            throw failure
        }
        lastError = nil
        return result
    }

    /// The reminders that have come due, for a line above the open prompt, recorded as sent.
    public func announceDue() async throws -> [HabitReminder] {
        let reminders = try await due()
        try await record(reminders)
        return reminders
    }

    private func record(_ reminders: [HabitReminder]) async throws {
        guard !reminders.isEmpty else { return }
        let summary = "reminders sent: " + reminders.map { "\($0.habit.name) \($0.time)" }.joined(separator: ", ")
        // Bookkeeping that travels but is no change of the person's: `history` does not list it and `undo` passes it by.
        let journal = JournalEntry(action: "remind", summary: summary, at: habitsFeature.currentDate(), keptOutOfHistory: true)
        try await habitsFeature.storage.recordSent(reminders.map(\.sent), journal: journal)
    }

    private nonisolated static func notify(_ reminder: HabitReminder, on bus: DesktopBus) throws(DesktopBus.Failure) -> UInt32 {
        try bus.notify(DesktopBus.Notification(summary: reminder.habit.name, body: "\(reminder.what) · \(reminder.time)", actions: actions),
                       application: applicationName)
    }

    // MARK: Watching

    @ObservationIgnored private var watchedBus: DesktopBus?

    /// What a person chose on a notification, and what it did.
    public struct Acted: Sendable, Equatable {
        public let habit: String
        public let action: String
        public let day: Int
    }

    /// `trend remind --watch`: sends each reminder as it comes due and acts on "done" and "skip" through the
    /// habits, as `habit done` and `habit skip` do, until `shouldStop` says so (SIGTERM). `report` hears each
    /// thing done, a line at a time. Throws when there is no notification service to watch.
    /// `refresh` brings in the other devices' changes (a reminder one of them sent), once a minute.
    public func watch(shouldStop: @escaping @Sendable () -> Bool, refresh: @MainActor () async -> Void,
                      report: @MainActor (String) -> Void) async throws {
        let bus = try openBus()
        try bus.listenForActions()
        watchedBus = bus
        defer { watchedBus = nil }
        var refreshed = Date.distantPast
        while !shouldStop() {
            if habitsFeature.currentDate().timeIntervalSince(refreshed) >= 60 || habitsFeature.currentDate() < refreshed {
                await refresh()
                refreshed = habitsFeature.currentDate()
            }
            do {
                let sent = try await sendDue(through: bus)
                for (reminder, _) in sent.notified { report("sent: \(reminder.habit.name) at \(reminder.time), \(reminder.what)") }
            } catch {
                report("warning: \(error)")
            }
            // Waits a second at a time: a signal, a reminder coming due or a change of the clock is seen at once.
            let action = try await BlockingPool.shared.run { _ in try bus.nextAction(waitingAtMost: 1_000) }
            if let action, let acted = try await act(on: action) {
                report("\(acted.action): \(acted.habit) on \(DayNumber.string(acted.day))")
            }
        }
    }

    /// Marks the habit of the notification `action` came from, as its key says; nil for a notification not ours
    /// or an action Trend did not offer.
    func act(on action: DesktopBus.Action) async throws -> Acted? {
        guard let reminder = shown[action.id], let mark: HabitMark = action.key == "done" ? .done : (action.key == "skip" ? .skipped : nil)
        else { return nil }
        shown[action.id] = nil
        let date = DayNumber.civil(reminder.day)
        // A number's "done" fills its target, as ticking it in Loop's notification does.
        let marked: HabitMark = if case let .atLeast(target) = reminder.habit.kind, mark == .done { .value(target) } else { mark }
        _ = try await habitsFeature.mark(reminder.habit.name, when: .day(year: date.year, month: date.month, day: date.day), as: marked)
        return Acted(habit: reminder.habit.name, action: action.key, day: reminder.day)
    }
}
