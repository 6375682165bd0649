import Vocabulary

/// The habit operations by name, for a caller that holds no `Habit`: a script's words, a test. Each looks the name
/// up once and hands the habit it found to the operation; a command's grammar resolves the habit itself and calls the
/// operation with it.
extension HabitsFeature {
    /// Marks (or with nil clears) a day of a habit: done, skipped or a value.
    /// Returns the habit as it now stands and the local day that was marked.
    /// With `adding`, a value is added to what the day already holds (`habit done Water +3`).
    /// A `note` is kept on the day with its mark (Loop's entry notes); clearing the mark clears it.
    /// By name: for a caller that holds no `Habit` (a script's words, a test); a command's grammar resolves the habit
    /// once and hands it to `markUnlessSame`.
    public func mark(_ name: String, when: WhenInput = .current, as requested: HabitMark?, adding: Bool = false,
                     note: String? = nil) async throws -> (Habit, Int) {
        let marked = try await markUnlessSame(named(name), when: when, as: requested, adding: adding, note: note)
        return (marked.habit, marked.day)
    }

    public func edit(_ name: String, schedule: HabitSchedule? = nil, kind: HabitKind? = nil, unit: String? = nil,
                     keepingDirection: Bool = false) async throws -> Habit {
        try await edit(named(name), schedule: schedule, kind: kind, unit: unit, keepingDirection: keepingDirection)
    }

    public func rename(_ name: String, to newName: String) async throws -> Habit {
        try await rename(named(name), to: newName)
    }

    public func setReminders(_ name: String, at times: [TimeOfDay]) async throws -> Habit {
        try await setReminders(named(name), at: times)
    }

    public func setArchived(_ name: String, _ archived: Bool) async throws -> Habit {
        try await setArchived(named(name), archived)
    }

    public func delete(_ name: String) async throws -> Habit {
        try await delete(named(name))
    }

    /// The days done and skipped of the habit `name` names (`doneDays(ofHabitWithID:since:)`), without reading
    /// every mark when nothing is loaded yet.
    public func doneDays(ofHabitNamed name: String, since: Int? = nil) async throws -> [HabitDoneDays] {
        let habit = hasLoaded ? try await named(name) : try Self.habit(named: name, in: try await storage.habitsWithoutMarks())
        return try await doneDays(ofHabitWithID: habit.id, since: since)
    }

    /// The habit `name` names, once the habits are read.
    private func named(_ name: String) async throws -> Habit {
        try await load()
        return try habit(named: name)
    }
}
