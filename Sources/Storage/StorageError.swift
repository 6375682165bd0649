import Foundation

/// What went wrong below the Features, phrased so a person can act on it.
public enum StorageError: Error, Equatable, CustomStringConvertible, Sendable {
    case cannotCreateDirectory(path: String, reason: String)
    case cannotOpen(path: String, reason: String)
    /// The process (or the system) has as many files open as it may: not the permissions.
    case tooManyOpenFiles(path: String)
    case notADatabase(path: String)
    case newerSchema(path: String, found: Int, supported: Int)
    /// A schema version no Trend wrote, or tables that are not that version's.
    case unknownSchema(path: String, found: Int)
    case readOnly(path: String)
    /// A restore's section did not hold what was written, checked before the commit (nothing was changed).
    case notAsWritten(path: String, section: String, wrote: Int, found: Int)
    case diskFull(path: String)
    case busy(path: String)
    case ioError(path: String, reason: String)
    case interrupted(path: String)
    case sqlite(code: Int32, message: String)

    public var description: String {
        switch self {
        case let .cannotCreateDirectory(path, reason): "cannot create the data directory \(path): \(reason)."
        case let .cannotOpen(path, reason): "cannot open the database \(path): \(reason). Check the permissions of the data directory, then try the command again."
        case let .tooManyOpenFiles(path): "cannot open the database \(path): too many files are open (ulimit -n); close some, or raise the limit, then try the command again."
        case let .notADatabase(path): "\(path) is not a Trend database or is damaged; it was left untouched. Move it aside and restore your data from the Backups folder next to it."
        case let .newerSchema(path, found, supported): "\(path) was written by a newer Trend (schema \(found), this one knows \(supported)); it was left untouched. Update Trend to open it."
        case let .unknownSchema(path, found): "\(path) is not a database this Trend wrote: its schema version (\(found)) does not match its tables; it was left untouched. Move it aside and restore your data from the Backups folder in the data directory."
        case let .notAsWritten(path, section, wrote, found):
            "\(path) did not keep what was written: \(wrote) rows of \(section), but \(found) there afterwards (a trigger or another program changed them); nothing was changed"
        case let .readOnly(path): "the database \(path) is read-only; nothing was changed. Make the data directory writable and try again."
        case let .diskFull(path): "the disk holding \(path) is full; nothing was changed. Free some space and try again."
        case let .busy(path): "the database \(path) is busy in another trend process; nothing was changed. Try again in a moment."
        case let .ioError(path, reason): "could not read or write \(path) (\(reason)): the disk may be full or failing, or a size limit was reached; nothing was changed"
        case let .interrupted(path): "the work on \(path) was stopped before it finished; nothing was changed"
        case let .sqlite(code, message): "database error \(code): \(message)"
        }
    }
}
