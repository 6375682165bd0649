import Foundation
import Storage
import Vocabulary

/// What bringing a Loop backup in does, or would do.
public struct LoopImportSummary: Sendable, Equatable {
    /// Habits the backup adds, by name.
    public var newHabits: [String] = []
    /// Habits already here (same name, ignoring case) that gain days.
    public var mergedHabits: [String] = []
    /// Of the new habits, the archived ones (they stay archived).
    public var archived = 0
    /// Days added, and days left alone because the habit here already has them.
    public var newDays = 0
    public var existingDays = 0
    /// Rows of the file that were left out, with the reason.
    public var problems: [String] = []
    /// What the file did not say and was taken as given (a new habit's schedule from a lone Checkmarks.csv).
    public var assumptions: [String] = []
    /// Whether it was written (false for a preview).
    public var imported = false
}

/// Where Loop's habits are in a file the person named: a backup, or the folder of a CSV export.
public enum LoopSource: Sendable, Equatable {
    case backup(URL)
    case csvFolder(URL)
    /// A combined Checkmarks.csv on its own (Loop's, or `habit export FILE.csv`'s).
    case checkmarks(URL)
    /// HabitBull's CSV export, which Loop imports too (`HabitBullCSV`).
    case habitBull(URL)

    /// How the screens name it.
    public var format: String {
        switch self {
        case .backup: "Loop Habit Tracker backup"
        case .csvFolder: "Loop Habit Tracker CSV export"
        case .checkmarks: "Loop Habit Tracker Checkmarks.csv"
        case .habitBull: "HabitBull CSV export"
        }
    }

    /// Its code for a script (`import --json`'s `format`), from the source itself, not from the words that name it.
    public var code: String {
        switch self {
        case .backup: "loop"
        case .csvFolder: "loopCSV"
        case .checkmarks: "loopCheckmarks"
        case .habitBull: "habitBull"
        }
    }
}

extension HabitsFeature {
    /// Loop's habits in `url`, when it holds them: a Loop backup (a SQLite
    /// file that is not a database of weigh-ins), or Loop's CSV export
    /// (its folder, or a file in it), or a combined Checkmarks.csv alone;
    /// nil for any other file, which is the weight import's. The choice of
    /// importer, made here, not by a screen.
    public func loopSource(at url: URL) -> LoopSource? {
        if LoopBackup.looksLikeOne(path: url.path), !isWeightDatabase(url) { return .backup(url) }
        if let folder = LoopCSV.folder(for: url) { return .csvFolder(folder) }
        if HabitBullCSV.isOne(url) { return .habitBull(url) }
        return LoopCSV.isCheckmarks(url) ? .checkmarks(url) : nil
    }

    /// Imports (or, with `preview`, reads) Loop's habits from `source`.
    public func importLoop(_ source: LoopSource, preview: Bool) async throws -> LoopImportSummary {
        switch source {
        case let .backup(url): try await importLoopBackup(url, preview: preview)
        case let .csvFolder(folder): try await importLoopCSV(folder: folder, preview: preview)
        case let .checkmarks(url): try await importCheckmarks(url, preview: preview)
        case let .habitBull(url): try await importLoop(preview: preview, name: url.lastPathComponent) { try HabitBullCSV.read(url, today: $0) }
        }
    }

    /// Reads a Loop Habit Tracker backup (`.db`) and, unless `preview`,
    /// merges it: a habit of a new name is added with its days (archived
    /// stays archived); a habit already here gains only the days it does not
    /// have, so importing twice adds nothing. One transaction: all or nothing.
    public func importLoopBackup(_ url: URL, preview: Bool) async throws -> LoopImportSummary {
        let path = url.path
        return try await importLoop(preview: preview, name: url.lastPathComponent) { try LoopBackup.read(path: path, today: $0) }
    }

    /// The same for Loop's CSV export: the folder holding `Habits.csv` and `Checkmarks.csv`.
    public func importLoopCSV(folder: URL, preview: Bool) async throws -> LoopImportSummary {
        try await importLoop(preview: preview, name: folder.lastPathComponent) { try LoopCSV.read(folder: folder, today: $0) }
    }

    /// The same for a combined Checkmarks.csv alone: a habit already here keeps its kind and gains days.
    public func importCheckmarks(_ url: URL, preview: Bool) async throws -> LoopImportSummary {
        try await load()
        let known = Dictionary(habits.map { ($0.name.lowercased(), $0.kind) }, uniquingKeysWith: { first, _ in first })
        return try await importLoop(preview: preview, name: url.lastPathComponent) { try LoopCSV.read(checkmarks: url, today: $0, known: known) }
    }

    private func importLoop(preview: Bool, name: String, read: @escaping @Sendable (Int) throws -> LoopBackup) async throws -> LoopImportSummary {
        try await load()
        let today = self.today
        // Read off the main actor: a large file never holds up the prompt.
        let backup = try await BlockingPool.shared.run { _ in try read(today) }
        var summary = LoopImportSummary(problems: backup.problems, assumptions: backup.assumptions)
        var added: [Habit] = []
        var days: [(habitID: String, day: Int, mark: HabitMark, note: String?)] = []
        for incoming in backup.habits {
            if let local = habits.first(where: { $0.name.lowercased() == incoming.name.lowercased() }) {
                let fresh = incoming.marks.filter { local.marks[$0.key] == nil }
                summary.existingDays += incoming.marks.count - fresh.count
                guard !fresh.isEmpty else { continue }
                summary.mergedHabits.append(local.name)
                summary.newDays += fresh.count
                days += fresh.map { (local.id, $0.key, $0.value, incoming.notes[$0.key]) }
            } else {
                added.append(incoming)
                summary.newHabits.append(incoming.name)
                summary.newDays += incoming.marks.count
                if incoming.archived { summary.archived += 1 }
            }
        }
        guard !preview, !added.isEmpty || !days.isEmpty else { return summary }
        let habitsToAdd = added, daysToAdd = days
        // The days the new habits bring count too: a Loop import of four habits and their seventeen days says so.
        let journal = journal("import of \(name) (\(counted(habitsToAdd.count, "new habit")), \(counted(summary.newDays, "new day")))")
        try await write { try await self.storage.importHabits(habitsToAdd, days: daysToAdd, journal: journal) }
        await reload()
        summary.imported = true
        return summary
    }
}
