/// What went wrong with a file or folder Trend reads or writes outside its
/// database (backups, the sync folder): each names the path and what to do.
public enum FolderError: Error, Equatable, CustomStringConvertible, Sendable {
    case noSuchBackup(String)
    case outsideBackupFolder(String)
    case cannotWrite(String, reason: String)
    case cannotList(String, reason: String)
    case cannotRead(String, reason: String)
    /// A sync-folder backup was asked for, and no sync folder is set.
    case noSyncFolder
    /// A link where a folder or a snapshot should be: never followed.
    case linkRefused(String)
    /// A FIFO, device, socket or folder where a snapshot should be: never opened.
    case notARegularFile(String)
    case notAFolder(String)
    case missingFolder(String)
    case tooLarge(String, limit: Int)
    /// A snapshot that did not read back as written, or holds values a restore refuses.
    case verifyFailed(String, reason: String)
    /// `backup now` with no weigh-in and no habit stored.
    case nothingToBackUp
    /// The database holds a row a restore would refuse (written by another program): no snapshot is made of it.
    case refusedContent(String)

    public var description: String {
        switch self {
        case let .noSuchBackup(name): "there is no backup '\(name)'"
        case let .outsideBackupFolder(name): "'\(name)' is not a backup name (names cannot hold '/' or '..', and links out of the Backups folder are refused)"
        case let .cannotWrite(path, reason): "cannot write \(path): \(reason); nothing was changed"
        case .noSyncFolder: "no sync folder is set"
        case let .cannotRead(path, reason): "cannot read \(path): \(reason)"
        case let .linkRefused(path): "\(path) is a symbolic link; Trend does not follow links in its backup folders"
        case let .notARegularFile(path): "\(path) is not a regular file (a FIFO, device or folder); it was not opened"
        case let .notAFolder(path): "\(path) is not a folder"
        case let .missingFolder(path): "the folder \(path) does not exist"
        case let .verifyFailed(path, reason): "the snapshot \(path) was written but does not read back whole: \(reason)"
        case let .refusedContent(detail): "no snapshot was written: the database holds a value a restore would refuse (\(detail)); the last snapshot is kept"
        case .nothingToBackUp: "there is nothing to back up yet: no weigh-in and no habit is stored; no snapshot was written"
        case let .tooLarge(path, limit): "\(path) is larger than \(limit / 1_048_576) MB, more than any history Trend writes"
        case let .cannotList(path, reason): "cannot read the folder \(path): \(reason)"
        }
    }
}
