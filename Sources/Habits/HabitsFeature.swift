import Foundation
import Observation
import Storage
import Vocabulary

/// The habits capability: the list for today, adding and changing habits,
/// marking days (today or earlier), streaks and strength, and the day that
/// rolls over at local midnight.
@MainActor
@Observable
public final class HabitsFeature {
    /// Every habit, archived ones too, in the order they were added.
    public private(set) var habits: [Habit] = []

    @ObservationIgnored let storage: any HabitsRepository
    @ObservationIgnored let currentDate: @MainActor () -> Date
    /// Minutes after midnight when a habit day begins (`set day-starts-at`), read at each use.
    @ObservationIgnored let dayStartMinutes: @MainActor () -> Int
    /// Whether a file is a database of weigh-ins (a Health Connect export) rather than a Loop backup,
    /// passed in by `AppModel.assemble` from WeightImport: both are SQLite files.
    @ObservationIgnored let isWeightDatabase: @Sendable (URL) -> Bool
    @ObservationIgnored private let loader: FreshLoader
    @ObservationIgnored private var deleted: [Habit] = []
    public let calendar: Calendar

    public init(storage: any HabitsRepository, calendar: Calendar, currentDate: @escaping @MainActor () -> Date,
                dayStartMinutes: @escaping @MainActor () -> Int = { 0 },
                isWeightDatabase: @escaping @Sendable (URL) -> Bool = { _ in false }) {
        self.storage = storage
        self.isWeightDatabase = isWeightDatabase
        self.calendar = calendar
        self.currentDate = currentDate
        self.dayStartMinutes = dayStartMinutes
        loader = FreshLoader(version: { try await storage.externalVersion() })
    }

    public var isLoading: Bool { loader.isLoading }
    public var hasLoaded: Bool { loader.hasLoaded }
    public var lastError: (any Error)? { loader.lastError }

    /// Today's habit day, from the clock: the local day, or the one before
    /// until the start of day (Loop's "start of day", `set day-starts-at`).
    public var today: Int { localDays.day(of: habitClock()) }

    /// The clock moved back by the start of day, so the habit day rolls over at that time.
    private func habitClock() -> Date { currentDate().habitClock(dayStartMinutes: dayStartMinutes()) }

    var localDays: LocalDays { LocalDays.shared(for: calendar.timeZone) }

    public func startLoading() { loader.start(performLoad) }

    /// Reads habits again after a write, if they were read at all (see `FreshLoader.refresh`).
    public func reload() async { await loader.refresh(performLoad) }

    /// Loads once, and again when another process has written since;
    /// throws when storage cannot be read.
    public func load() async throws { try await loader.ensureLoaded(performLoad) }

    /// Moves the list to the clock's day (midnight, or a time-zone change).
    /// The day is read from the clock by every summary, so a new day needs
    /// only a fresh read: another process may have marked the days since.
    public func updateCurrentDay() async {
        await reload()
    }

    /// How many shown habits are due today and not done yet, and how many are
    /// shown: the status line's count, without strengths or streaks.
    public func dueToday() -> (due: Int, shown: Int) {
        Self.dueToday(in: habits, on: today)
    }

    /// Every habit (archived too) with its days done at all and skipped, what insights read: from
    /// memory when loaded, otherwise without building every mark (`trend -c 'habit show Read'`), and then from
    /// `since` on (the days before cannot meet a weigh-in; each habit's first day stays its own).
    public func doneDays(since: Int? = nil) async throws -> [HabitDoneDays] {
        if hasLoaded {
            try await load()
            return habits.map(HabitDoneDays.init)
        }
        return try await storage.doneDays(since: since)
    }

    /// The same for the habit with `id` alone (`habit show` reads no other habit's days): the habit its grammar
    /// found, never looked up by name again. None when it was deleted since.
    public func doneDays(ofHabitWithID id: String, since: Int? = nil) async throws -> [HabitDoneDays] {
        if hasLoaded {
            try await load()
            return habits.filter { $0.id == id }.map(HabitDoneDays.init)
        }
        return try await storage.doneDays(ofHabitWithID: id, since: since)
    }

    /// The same without loading every day of every habit when nothing is
    /// loaded yet (`trend status`): only the marks that decide today are read.
    public func dueTodayReadingLittle() async throws -> (due: Int, shown: Int) {
        Self.dueToday(in: try await habitsDecidingToday(), on: today)
    }

    /// The marks on days after today's habit day, by habit name: what a later day start leaves ahead (marks made
    /// after midnight before `set day-starts-at 04:00` moved the day back).
    public func marksAhead() -> [(name: String, day: Int)] {
        let day = today
        return habits.flatMap { habit in habit.marks.keys.filter { $0 > day }.sorted().map { (habit.name, $0) } }
    }

    /// Every habit with the marks that decide `today` (all of them when loaded): what reminders and `status` read
    /// without every day of decades (`HabitsTable.recentHabits`).
    public func habitsDecidingToday() async throws -> [Habit] {
        if hasLoaded {
            try await load()
            return habits
        }
        return try await storage.recentHabits(today: today)
    }

    private static func dueToday(in habits: [Habit], on day: Int) -> (due: Int, shown: Int) {
        let shown = habits.filter { !$0.archived }
        let due = shown.filter { habit in
            let statistics = HabitStatistics(habit: habit, today: day)
            return statistics.isStillDueToday(computed: statistics.computedEntries())
        }
        return (due.count, shown.count)
    }

    public func habit(named name: String) throws -> Habit {
        try Self.habit(named: name, in: habits)
    }

    /// The habit a command's grammar found, as it stands now: taken by its id (another process may have changed it
    /// since it was found), never looked up by name again. One deleted since is a name that names nothing.
    private func current(_ found: Habit) async throws -> Habit {
        try await load()
        guard let habit = habits.first(where: { $0.id == found.id }) else { throw HabitsError.noSuchHabit(found.name, suggestion: nil) }
        return habit
    }

    /// The habit a typed name means (its case aside), or the error naming it with the one close match.
    public static func habit(named name: String, in habits: [Habit]) throws -> Habit {
        let key = name.lowercased()
        if let habit = habits.first(where: { $0.name.lowercased() == key }) { return habit }
        let suggestion = habits.filter { $0.name.lowercased().hasPrefix(key) || $0.name.lowercased().contains(key) }
        throw HabitsError.noSuchHabit(name, suggestion: suggestion.count == 1 ? suggestion[0].name : nil)
    }

    @discardableResult
    public func add(name: String, schedule: HabitSchedule, kind: HabitKind, unit: String = "") async throws -> Habit {
        try await load()
        let clean = try HabitName.validated(name)
        try ensureNameFree(clean, except: nil)
        let habit = Habit(name: clean, schedule: schedule, kind: kind, createdDay: today, unit: kind.isNumeric ? try HabitUnit.validated(unit) : "")
        let journal = journal("habit add \(clean)")
        try await write { try await self.storage.insert(habit, journal: journal) }
        habits.append(habit)
        return habit
    }

    /// Changes a habit's schedule, target or unit, keeping every day it has:
    /// strength, streaks and the calendar are recomputed from the stored
    /// marks, as Loop recomputes them after an edit. A yes/no habit stays
    /// yes/no and a numeric one numeric.
    /// `keepingDirection`: a new target (`habit edit Drinks target 1`) read as "at least" keeps an at-most habit at
    /// most: the limit changes, not the direction.
    public func edit(_ found: Habit, schedule: HabitSchedule? = nil, kind: HabitKind? = nil, unit: String? = nil,
                     keepingDirection: Bool = false) async throws -> Habit {
        var habit = try await current(found)
        if let schedule { habit.schedule = schedule }
        if var kind {
            if keepingDirection, case let .atLeast(target) = kind, case .atMost = habit.kind { kind = .atMost(target) }
            guard kind.isNumeric == habit.kind.isNumeric else { throw HabitsError.kindCannotChange(habit.name) }
            habit.kind = kind
        }
        if let unit {
            guard habit.kind.isNumeric else { throw HabitsError.kindCannotChange(habit.name) }
            habit.unit = try HabitUnit.validated(unit)
        }
        try await save(habit, "habit edit \(habit.name)")
        return habit
    }

    public func rename(_ found: Habit, to newName: String) async throws -> Habit {
        var habit = try await current(found)
        let clean = try HabitName.validated(newName)
        try ensureNameFree(clean, except: habit.id)
        let old = habit.name
        habit.name = clean
        try await save(habit, "habit rename \(old) → \(clean)")
        return habit
    }

    /// Sets the times a habit reminds of itself (`habit remind Read at 21:00`), or with none turns its reminders off.
    public func setReminders(_ found: Habit, at times: [TimeOfDay]) async throws -> Habit {
        var habit = try await current(found)
        let times = Array(Set(times)).sorted()
        guard times.count <= TimeOfDay.maximumCount else { throw HabitsError.tooManyReminders }
        habit.reminders = times
        let journal = journal("habit remind \(habit.name) " + (times.isEmpty ? "off" : "at " + times.map(\.description).joined(separator: " ")))
        let id = habit.id
        try await write { try await self.storage.setReminders(HabitReminderTimes.stored(times), habitID: id, journal: journal) }
        replace(habit)
        return habit
    }

    public func setArchived(_ found: Habit, _ archived: Bool) async throws -> Habit {
        var habit = try await current(found)
        habit.archived = archived
        try await save(habit, "habit \(archived ? "archive" : "unarchive") \(habit.name)")
        return habit
    }

    /// Deletes a habit and its days; `restoreDeleted` brings it back until the process ends.
    public func delete(_ found: Habit) async throws -> Habit {
        let habit = try await current(found)
        let journal = journal("habit delete \(habit.name)")
        try await write { try await self.storage.delete(id: habit.id, journal: journal) }
        habits.removeAll { $0.id == habit.id }
        deleted.append(habit)
        return habit
    }

    public func restoreDeleted(_ name: String) async throws -> Habit {
        try await load()
        guard let index = deleted.lastIndex(where: { $0.name.lowercased() == name.lowercased() }) else {
            throw HabitsError.nothingToRestore(name)
        }
        let habit = deleted[index]
        try ensureNameFree(habit.name, except: nil)
        let journal = journal("habit restore \(habit.name)")
        try await write { try await self.storage.insert(habit, journal: journal) }
        deleted.remove(at: index)
        habits.append(habit)
        return habit
    }

    /// `mark` of a habit already found (by the grammar, or the reminders' watcher), saying whether it changed
    /// anything: a day marked as it already is (`habit done Read` on a day done, with no new note) is left as it is,
    /// with no entry in the history. An addition (`+N`) always adds. The habit's days are taken as they stand now (by
    /// its id: another process may have marked it since it was found).
    public func markUnlessSame(_ found: Habit, when: WhenInput = .current, as requested: HabitMark?, adding: Bool = false,
                               note: String? = nil) async throws -> (habit: Habit, day: Int, changed: Bool) {
        let note = try HabitNote.typed(note)
        var habit = try await current(found)
        guard !habit.archived else { throw HabitsError.archived(habit.name) }
        // `today` and `yesterday` follow the start of day; a written date is that date. Clearing reaches any day that holds
        // a mark, even one ahead of today's habit day (marks made after midnight before `set day-starts-at` moved the day).
        let day: Int
        if requested == nil, case let .day(year, month, dayOfMonth) = when, habit.marks[DayNumber.from(year: year, month: month, day: dayOfMonth)] != nil {
            day = DayNumber.from(year: year, month: month, day: dayOfMonth)
        } else {
            day = localDays.day(of: try when.resolve(now: habitClock(), calendar: calendar))
        }
        let mark = adding ? requested.map { $0.added(to: habit.marks[day]) } : requested
        if mark == nil, habit.marks[day] == nil { throw HabitsError.noMark(habit.name, day: DayNumber.string(day)) }
        switch (mark, habit.kind.isNumeric) {
        case (.done?, true): throw HabitsError.valueNeeded(habit.name, kind: habit.kind)
        case (.value?, false): throw HabitsError.valueNotAllowed(habit.name)
        case let (.value(number)?, true) where !HabitMark.acceptedValues.contains(number) || !number.isFinite:
            throw HabitsError.invalidValue("\(number)")
        default: break
        }
        if !adding, let mark, habit.marks[day] == mark, note == nil || note == habit.notes[day] { return (habit, day, false) }
        let id = habit.id
        // A mark without a new note keeps the day's note; clearing the mark clears it.
        let kept = mark == nil ? nil : (note ?? habit.notes[day])
        let journal = journal("habit \(Self.markWord(mark)) \(habit.name) on \(DayNumber.string(day))")
        var stored = mark
        if adding, case let .value(amount)? = requested {
            // Read and written in one transaction: another process's `+N` a moment before adds up with this one.
            stored = try await write { try await self.storage.addToMark(amount, note: note, habitID: id, day: day, journal: journal) }
        } else {
            try await write { try await self.storage.setMark(mark, note: kept, habitID: id, day: day, added: nil, journal: journal) }
        }
        habit.marks[day] = stored
        habit.notes[day] = kept
        replace(habit)
        return (habit, day, true)
    }

    private func ensureNameFree(_ name: String, except id: String?) throws {
        if let clash = habits.first(where: { $0.name.lowercased() == name.lowercased() && $0.id != id }) {
            throw HabitsError.duplicateName(clash.name, archived: clash.archived)
        }
    }

    private func save(_ habit: Habit, _ summary: String) async throws {
        let journal = journal(summary)
        try await write { try await self.storage.update(habit, journal: journal) }
        replace(habit)
    }

    /// A journal entry made now (see `ChangeJournal` in Storage).
    func journal(_ summary: String) -> JournalEntry {
        JournalEntry(action: "habit", summary: summary, at: currentDate())
    }

    /// What the history calls a mark: the subcommand that sets it.
    private static func markWord(_ mark: HabitMark?) -> String {
        switch mark {
        case .done?: "done"
        case .skipped?: "skip"
        case .no?: "no"
        case let .value(number)?: "done \(PlainDecimal.text(number))"
        case nil: "undo"
        }
    }

    /// Runs a write, turning the database's unique-name refusal into the habit error;
    /// nothing is written while the clock is wrong.
    @discardableResult
    func write<T>(_ operation: @escaping @MainActor () async throws -> T) async throws -> T {
        try PlausibleTime.checkClock(currentDate())
        do {
            return try await operation()
        } catch let HabitsError.duplicateName(name, archived) {
            // Another process took the name since this one loaded.
            await reload()
            throw HabitsError.duplicateName(name, archived: archived)
        }
    }

    private func replace(_ habit: Habit) {
        if let index = habits.firstIndex(where: { $0.id == habit.id }) { habits[index] = habit }
    }

    private func performLoad() async throws {
        habits = try await storage.allHabits()
    }
}
