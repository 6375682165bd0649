import Desktop
import Foundation
import Storage
import Vocabulary

/// Why the watcher did not start.
public enum RemindersWatchError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Another watcher runs on this data directory (one per login is all it takes).
    case alreadyWatching(String)

    public var description: String {
        switch self {
        case let .alreadyWatching(directory): "another 'trend remind --watch' already runs for \(directory); one is enough"
        }
    }
}

extension RemindersFeature {
    /// What a person chose on a notification, and what it did.
    public struct Acted: Sendable, Equatable {
        public let habit: String
        public let action: String
        public let day: Int
    }

    /// `trend remind --watch`, one per login: sends each reminder as it comes due, acts on "Done" and "Skip" as
    /// `habit done` and `habit skip` do, and closes a notification once its habit's day asks nothing more (done
    /// here, at the prompt, by `-c` or on another device), until `shouldStop` says so (SIGTERM). It takes the
    /// session bus it was started in and waits for the desktop when it is not there yet, or goes and comes back.
    /// `report` hears each thing done, a line at a time; `refresh` brings in the other devices' changes, once a
    /// minute. Throws when another watcher runs on the same data directory.
    public func watch(shouldStop: @escaping @Sendable () -> Bool, refresh: @MainActor () async -> Void,
                      report: @MainActor (String) -> Void) async throws {
        guard let lock = try store.lock("remind-watch", waiting: false) else {
            throw RemindersWatchError.alreadyWatching(store.directory?.path ?? "this data directory")
        }
        defer { lock.release() }
        var connection: (any NotificationConnection)?
        var trouble: String?
        var refreshed = Date.distantPast
        func say(_ problem: String?) {
            guard problem != trouble else { return }
            if let problem { report("waiting for the desktop: \(problem)") } else if trouble != nil { report("the desktop is there again") }
            trouble = problem
        }
        while !shouldStop() {
            let now = habitsFeature.currentDate()
            if now.timeIntervalSince(refreshed) >= 60 || now < refreshed {
                await refresh()
                refreshed = now
            }
            if connection == nil {
                do {
                    let opened = try notifications.connect()
                    try opened.listen()
                    connection = opened
                } catch {
                    say("\(error)")
                }
            }
            guard let bus = connection else {
                _ = try? await BlockingPool.shared.run { _ in usleep(1_000_000) }  // Only a refused thread ends it early.
                continue
            }
            do {
                let sent = try await sendDue(terminal: false, through: bus)
                for (reminder, _) in sent.notified { report("sent: \(reminder.habit.name) at \(reminder.time), \(reminder.what)") }
                say(sent.noService.map(\.description))
                if sent.noService?.kind == .disconnected { connection = nil }
                try await closeFinished(on: bus)
                let event = try await BlockingPool.shared.run { _ in try bus.nextEvent(waitingAtMost: 1_000) }
                if let event, let acted = try await handle(event, on: bus) {
                    report("\(acted.action): \(acted.habit) on \(DayNumber.string(acted.day))")
                }
            } catch let failure as NotificationFailure where failure.reachesNoOne {
                say(failure.description)
                connection = nil
            } catch {
                report("warning: \(error)")
                _ = try? await BlockingPool.shared.run { _ in usleep(1_000_000) }  // As above: a pause before the next look.
            }
        }
    }

    /// What a signal from the desktop means: an action on a notification this installation sent, from the server
    /// that showed it (any other sender, or a notification not ours, is ignored), or that notification gone.
    func handle(_ event: NotificationEvent, on bus: any NotificationConnection) async throws -> Acted? {
        guard let open = try await habitsFeature.storage.openNotifications().first(where: { $0.notification == event.notification }) else {
            return nil
        }
        guard case let .action(key) = event.kind else {
            try await habitsFeature.storage.forgetNotifications([open.notification])
            return nil
        }
        guard let acted = try await act(key, on: open) else { return nil }
        // Its work is done: off the screen.
        try await close(open.notification, on: bus)
        try await habitsFeature.storage.forgetNotifications([open.notification])
        return acted
    }

    /// Marks the habit of `open` as the action's key says, as `habit done` and `habit skip` do; nil for an action
    /// Trend did not offer, or a habit that is gone.
    func act(_ key: String, on open: OpenReminderNotification) async throws -> Acted? {
        guard let mark: HabitMark = key == "done" ? .done : (key == "skip" ? .skipped : nil) else { return nil }
        try await habitsFeature.load()
        guard let habit = habitsFeature.habits.first(where: { $0.id == open.reminder.habitID }) else { return nil }
        let date = DayNumber.civil(open.day)
        // A number's "Done" fills its target, as ticking it in Loop's notification does.
        let marked: HabitMark = if case let .atLeast(target) = habit.kind, mark == .done { .value(target) } else { mark }
        _ = try await habitsFeature.markUnlessSame(habit, when: .day(year: date.year, month: date.month, day: date.day), as: marked)
        return Acted(habit: habit.name, action: key, day: open.day)
    }

    /// Closes each open notification whose habit's day asks nothing more (done, met, skipped, a habit archived or
    /// gone, a day that has ended), and forgets it.
    func closeFinished(on bus: any NotificationConnection) async throws {
        let open = try await habitsFeature.storage.openNotifications()
        guard !open.isEmpty else { return }
        let today = habitsFeature.today
        let asking = Set(try await todays().map(\.habit.id))
        let finished = open.filter { $0.day != today || !asking.contains($0.reminder.habitID) }
        for notification in finished { try await close(notification.notification, on: bus) }
        try await habitsFeature.storage.forgetNotifications(finished.map(\.notification))
    }

    /// Takes a notification off the screen. One the server already took away answers with an error, which is fine;
    /// a desktop that went away is thrown, so the watcher waits for it.
    private func close(_ notification: ShownNotification, on bus: any NotificationConnection) async throws {
        do {
            try await BlockingPool.shared.run { _ in try bus.close(notification) }
        } catch let failure as NotificationFailure where failure.reachesNoOne {
            throw failure
        } catch {}
    }
}
