import Foundation
import Vocabulary

/// Why a habit command was refused; nothing was changed.
public enum HabitsError: Error, Equatable, CustomStringConvertible, Sendable {
    case duplicateName(String, archived: Bool)
    case noSuchHabit(String, suggestion: String?)
    case invalidName(String)
    case valueNeeded(String, kind: HabitKind)
    case valueNotAllowed(String)
    case invalidValue(String)
    case nothingToRestore(String)
    case archived(String)
    /// A stored habit (or one of its days) that this Trend cannot read.
    case unreadableHabit(name: String, detail: String)
    /// A file that is SQLite but has no `Habits` and `Repetitions` tables.
    case notALoopBackup(String)
    /// A Loop backup with more habits or days than Trend reads.
    case loopBackupTooLarge(String)
    case invalidUnit(String)
    case invalidNote
    /// `habit undo` on a day that holds no mark: nothing to clear.
    case noMark(String, day: String)
    /// A folder or file that is not Loop's CSV export (no `Name` column, no `Date` column).
    case notALoopExport(String)
    /// A yes/no habit cannot become numeric or the other way round: its days would change meaning.
    case kindCannotChange(String)
    /// A file of an export that could not be read (a FIFO or a folder under its name, or no permission).
    case unreadableFile(String, reason: String)
    /// More reminder times than a habit keeps.
    case tooManyReminders

    public var description: String {
        switch self {
        case let .duplicateName(name, archived):
            archived
                ? "a habit named '\(name)' already exists (archived)"
                : "a habit named '\(name)' already exists; names are unique whatever their case"
        case let .noSuchHabit(name, suggestion):
            "no habit named '\(name)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
        case let .invalidName(reason): reason
        case let .valueNeeded(name, _): "'\(name)' counts a number"
        case let .valueNotAllowed(name): "'\(name)' is a yes/no habit and takes no number"
        case let .invalidValue(text): "'\(text)' is not a number between 0 and 1000000"
        case let .nothingToRestore(name): "no habit named '\(name)' was deleted in this session"
        case let .archived(name): "'\(name)' is archived"
        case let .unreadableHabit(name, detail): "the stored habit '\(name)' cannot be read: \(detail)"
        case let .notALoopBackup(path): "\(path) is a SQLite file but not a Loop Habit Tracker backup (it has no Habits and Repetitions tables)"
        case let .notALoopExport(path): "\(path) is not Loop Habit Tracker's CSV export (Habits.csv needs a Name column, Checkmarks.csv a Date column)"
        case let .noMark(name, day): "'\(name)' has no mark on \(day); nothing was changed"
        case .invalidNote: "a note can be at most \(HabitNote.maximumLength) characters, without control characters"
        case let .invalidUnit(text): "'\(text)' is not a unit: at most \(HabitUnit.maximumLength) characters, no digits"
        case let .kindCannotChange(name): "'\(name)' cannot change between yes/no and a number: its days would change meaning; add a new habit instead"
        case let .unreadableFile(path, reason): "cannot read \(path): \(reason); nothing was imported"
        case .tooManyReminders: "a habit keeps at most \(TimeOfDay.maximumCount) reminder times"
        case let .loopBackupTooLarge(path):
            "\(path) holds more than \(LoopBackup.maximumHabits) habits or \(LoopBackup.maximumDays) days; nothing was imported"
        }
    }
}
