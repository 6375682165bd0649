import Desktop
import Foundation
import Storage

/// Where habits and their days are kept.
public protocol HabitsRepository: Sendable {
    /// Every habit (archived too) with its marks, in the order they were added.
    func allHabits() async throws -> [Habit]
    /// Every habit with only the marks that decide `today` (see `HabitsTable.recentHabits`).
    func recentHabits(today: Int) async throws -> [Habit]
    /// Every habit (archived too) without its marks, in the order they were added.
    func habitsWithoutMarks() async throws -> [Habit]
    /// Every habit (archived too) with its days done at all and skipped (see `HabitsTable.doneDays`).
    func doneDays(since: Int?) async throws -> [HabitDoneDays]
    /// The same for the habit with `id` alone.
    func doneDays(ofHabitWithID id: String, since: Int?) async throws -> [HabitDoneDays]
    /// `habit` with its marks and notes: from its stored checkpoint on when it
    /// has one before `day` (and then those since `marksSince` too), otherwise
    /// all of them; with the checkpoint, and the count of changes up to the read.
    func withMarks(_ habit: Habit, resumingBefore day: Int, marksSince: Int) async throws
        -> (habit: Habit, checkpoint: HabitCheckpoint?, version: Int)
    /// Every habit with its stored checkpoint where its walk can go on from one,
    /// and then only the marks since (see `HabitsTable.habitsWithCheckpoints`),
    /// read at one moment; with the count of changes written up to it (`LocalDataStore.changeCount`).
    func habitsWithCheckpoints(before today: Int) async throws -> (habits: [(habit: Habit, checkpoint: HabitCheckpoint?)], version: Int)
    /// Stores checkpoints by habit id, unless a change was written since the
    /// read that counted `version`: a checkpoint is never older than the marks it was walked from.
    /// A cache: not journaled, and not a change observers hear of.
    func saveCheckpoints(_ checkpoints: [String: HabitCheckpoint], ifUnchangedSince version: Int) async throws
    /// Adds a habit with its marks; a name already taken (ignoring case) is refused with `HabitsError.duplicateName`.
    func insert(_ habit: Habit, journal: JournalEntry?) async throws
    /// Saves name, schedule, kind and the archived flag.
    func update(_ habit: Habit, journal: JournalEntry?) async throws
    /// Removes a habit and its days.
    func delete(id: String, journal: JournalEntry?) async throws
    /// Sets or (with nil) clears one day's mark and its note. Each change is journaled under `journal` when given.
    /// `added` is the amount a `+N` added to what the day held, so the other devices add it too.
    func setMark(_ mark: HabitMark?, note: String?, habitID: String, day: Int, added: Double?, journal: JournalEntry?) async throws
    /// Adds `amount` to what the day holds (`habit done Water +3`), read and written in one transaction, so another
    /// process's addition between the two is never lost; returns the day's mark as it now stands.
    func addToMark(_ amount: Double, note: String?, habitID: String, day: Int, journal: JournalEntry?) async throws -> HabitMark
    /// Sets a habit's reminder times (`HabitReminderTimes.stored`; empty: none), journaled under `journal`.
    func setReminders(_ times: String, habitID: String, journal: JournalEntry?) async throws
    /// The reminders sent, on any device, of the habit days from `day` on.
    func remindersSent(since day: Int) async throws -> Set<HabitReminderSent>
    /// Records reminders as sent, under a journal entry kept out of the history (it travels, but is never undone),
    /// and, in the same transaction, the desktop notifications that carry them (which stay on this installation).
    func recordSent(_ sent: [HabitReminderSent], shown: [OpenReminderNotification], journal: JournalEntry) async throws
    /// The notifications this installation has on a desktop, as far as it knows.
    func openNotifications() async throws -> [OpenReminderNotification]
    /// Forgets notifications that went from the desktop.
    func forgetNotifications(_ notifications: [ShownNotification]) async throws
    /// Changes when another process has written; see `LocalDataStore.externalVersion()`.
    func externalVersion() async throws -> Int
    /// Adds habits and days to existing habits in one transaction: all of it or none.
    func importHabits(_ habits: [Habit], days: [(habitID: String, day: Int, mark: HabitMark, note: String?)], journal: JournalEntry?) async throws
}

/// Habits in the `habits` and `habit_records` tables, through `HabitsTable`.
public actor LocalHabitsRepository: HabitsRepository {
    private let store: LocalDataStore

    public init(store: LocalDataStore) {
        self.store = store
    }

    /// Runs on the store's own thread, never on the cooperative pool.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { store.executor.asUnownedSerialExecutor() }

    public func allHabits() throws -> [Habit] {
        try store.read { try HabitsTable.allHabits(in: $0) }
    }

    public func recentHabits(today: Int) throws -> [Habit] {
        try store.read { try HabitsTable.recentHabits(today: today, in: $0) }
    }

    public func externalVersion() throws -> Int {
        try store.externalVersion()
    }

    public func doneDays(since: Int?) throws -> [HabitDoneDays] {
        try store.read { try HabitsTable.doneDays(in: $0, since: since) }
    }

    public func doneDays(ofHabitWithID id: String, since: Int?) throws -> [HabitDoneDays] {
        try store.read { try HabitsTable.doneDays(in: $0, onlyID: id, since: since) }
    }

    public func habitsWithoutMarks() throws -> [Habit] {
        try store.read { connection in try HabitsTable.rows(in: connection).map { row throws(HabitsError) in try HabitsTable.habit(row) } }
    }

    public func withMarks(_ habit: Habit, resumingBefore day: Int, marksSince: Int) throws
        -> (habit: Habit, checkpoint: HabitCheckpoint?, version: Int) {
        var habit = habit
        let (checkpoint, version) = try store.readConsistently { connection in
            (try HabitsTable.readMarks(into: &habit, resumingBefore: day, marksSince: marksSince, in: connection),
             try LocalDataStore.changeCount(in: connection))
        }
        return (habit, checkpoint, version)
    }

    public func habitsWithCheckpoints(before today: Int) throws -> (habits: [(habit: Habit, checkpoint: HabitCheckpoint?)], version: Int) {
        try store.readConsistently { (try HabitsTable.habitsWithCheckpoints(before: today, in: $0), try LocalDataStore.changeCount(in: $0)) }
    }

    public func saveCheckpoints(_ checkpoints: [String: HabitCheckpoint], ifUnchangedSince version: Int) throws {
        try store.write(notifying: false, waiting: false) { connection in
            guard try LocalDataStore.changeCount(in: connection) == version else { return }
            try HabitsTable.saveCheckpoints(checkpoints, in: connection)
        }
    }

    public func insert(_ habit: Habit, journal: JournalEntry?) throws {
        try store.write(journal: journal) { try HabitsTable.insert(habit, in: $0) }
    }

    public func update(_ habit: Habit, journal: JournalEntry?) throws {
        try store.write(journal: journal) { try HabitsTable.update(habit, in: $0) }
    }

    public func delete(id: String, journal: JournalEntry?) throws {
        try store.write(journal: journal) { try HabitsTable.delete(id: id, in: $0) }
    }

    public func setReminders(_ times: String, habitID: String, journal: JournalEntry?) throws {
        try store.write(journal: journal) { try HabitsTable.setReminders(times, habitID: habitID, in: $0) }
    }

    public func remindersSent(since day: Int) throws -> Set<HabitReminderSent> {
        try store.read { try HabitsTable.remindersSent(since: day, in: $0) }
    }

    public func recordSent(_ sent: [HabitReminderSent], shown: [OpenReminderNotification], journal: JournalEntry) throws {
        try store.write(journal: journal) { connection in
            try HabitsTable.recordSent(sent, in: connection)
            try HabitsTable.recordShown(shown, in: connection)
        }
    }

    public func openNotifications() throws -> [OpenReminderNotification] {
        try store.read { try HabitsTable.openNotifications(in: $0) }
    }

    public func forgetNotifications(_ notifications: [ShownNotification]) throws {
        guard !notifications.isEmpty else { return }
        try store.write(notifying: false) { try HabitsTable.forgetNotifications(notifications, in: $0) }
    }

    public func setMark(_ mark: HabitMark?, note: String?, habitID: String, day: Int, added: Double?, journal: JournalEntry?) throws {
        try store.write(journal: journal) { connection in
            try HabitsTable.setMark(mark, note: note, habitID: habitID, day: day, in: connection)
            if let added { try connection.noteSyncAddition(table: HabitsTable.recordsCode, key: [.text(habitID), .int(day)], amount: added) }
        }
    }

    public func addToMark(_ amount: Double, note: String?, habitID: String, day: Int, journal: JournalEntry?) throws -> HabitMark {
        try store.write(journal: journal) { connection in
            let held = try connection.query("SELECT status, value, note FROM habit_records WHERE habit_id = ? AND day = ?",
                                            [.text(habitID), .int(day)]) { (status: $0.text(0), value: $0.optionalDouble(1), note: $0.optionalText(2)) }.first
            // Only an amount added to an amount (or to nothing) adds up, here and across devices; anything else is a new value.
            let adds = held == nil || held?.status == "value"
            let mark = HabitMark.value(adds ? (held?.value ?? 0) + amount : amount)
            try HabitsTable.setMark(mark, note: note ?? held?.note, habitID: habitID, day: day, in: connection)
            if adds { try connection.noteSyncAddition(table: HabitsTable.recordsCode, key: [.text(habitID), .int(day)], amount: amount) }
            return mark
        }
    }

    public func importHabits(_ habits: [Habit], days: [(habitID: String, day: Int, mark: HabitMark, note: String?)],
                             journal: JournalEntry?) throws {
        try store.write(journal: journal) { connection in
            for habit in habits { try HabitsTable.insert(habit, in: connection) }
            for day in days { try HabitsTable.setMark(day.mark, note: day.note, habitID: day.habitID, day: day.day, in: connection) }
        }
    }
}
