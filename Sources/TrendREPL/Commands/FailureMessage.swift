import Backup
import CommandLanguage
import Exports
import Habits
import Progress
import Settings
import Storage
import Sync
import Vocabulary
import WeightImport
import WeightLog

/// How what a Feature threw is shown: the stable `ErrorCode`, the reason the
/// Feature gave, the command it came from, and the command that helps next.
/// The Features' errors say what went wrong; the words to type live here.
enum FailureMessage {
    static func failure(from error: any Error, command: String) -> CommandFailure {
        if error is CancellationError { return CommandFailure(.failed, "\(command): stopped (Ctrl-C); nothing was changed") }
        let (code, hint) = classify(error)
        // A weigh-in's rule is phrased as a predicate: it needs its subject.
        let reason = error is WeightEntryError ? "the weigh-in \(error)" : String(describing: error)
        return CommandFailure(code, "\(command): \(reason)" + (hint ?? ""))
    }

    /// The code of an error and, where a command helps, the hint that follows its reason.
    static func classify(_ error: any Error) -> (ErrorCode, hint: String?) {
        switch error {
        case let storage as StorageError:
            return (.storage, storageHint(storage))
        case is WeightInputError:
            return (.invalidWeight, nil)
        case let setting as SettingsError:
            if case .syncFolderMissing = setting { return (.invalidSetting, ", or 'set sync-folder off'") }
            return (.invalidSetting, nil)
        case is WhenInputError, is ClockError:
            return (.invalidDate, nil)
        case let entry as WeightEntryError:
            if case .weightOutOfRange = entry { return (.invalidWeight, nil) }
            return (.usage, nil)
        case let log as WeightLogError:
            switch log {
            case .noSuchEntry: return (.notFound, "; 'entries all' lists the ids")
            case .ambiguousEntry, .idTooShort: return (.notFound, nil)
            case .noWeighInOnDay: return (.notFound, "; record one with 'weigh 82.4 fat 23.5%'")
            }
        case let journal as JournalError:
            switch journal {
            case .nothingToUndo, .nothingToRedo: return (.nothingToUndo, "; 'history' lists the changes")
            case .conflict, .addedRowsChanged: return (.conflict, "; 'history' lists the changes")
            }
        case is ProgressError:
            return (.usage, nil)
        case let snapshot as SnapshotError:
            if case .invalidValue = snapshot { return (.invalidBackup, " ('skip-invalid' after the name restores the other rows)") }
            return (.invalidBackup, nil)
        case let file as BackupFileError:
            switch file {
            case .cannotWrite, .cannotList, .cannotRead, .verifyFailed, .tooLarge: return (.file, nil)
            case .refusedContent: return (.storage, nil)
            case .linkRefused, .notARegularFile, .notAFolder, .missingFolder: return (.file, nil)
            case .nothingToBackUp: return (.notFound, "; record a weigh-in or add a habit first")
            case .noSuchBackup: return (.notFound, "; 'backup list' shows what there is")
            case .noSyncFolder: return (.notFound, "; choose one with 'set sync-folder PATH'")
            case .outsideBackupFolder: return (.notFound, nil)
            }
        case let importing as ImportError:
            switch importing {
            case .unknownFormat, .missingColumns, .empty, .notAppleHealth, .newerFormat: return (.invalidFile, nil)
            default: return (.file, nil)
            }
        case let exporting as ExportError:
            switch exporting {
            case .unknownType: return (.usage, nil)
            case .cannotWrite: return (.file, nil)
            }
        case let measurement as MeasurementError:
            switch measurement {
            case .noSuchMeasurement, .ambiguous: return (.notFound, "; 'measurements' lists the ids")
            case .noMeasurements: return (.notFound, "; record one with 'measure waist 84 cm'")
            case .dateOutOfRange: return (.invalidDate, nil)
            default: return (.invalidMeasurement, nil)
            }
        case let habits as HabitsError:
            return habitsCode(habits)
        case is WatcherSetupError:
            return (.file, nil)
        case is RemindersRefused, is RemindersWatchError:
            return (.failed, nil)
        case SyncError.noFolder:
            return (.notFound, "; choose one with 'set sync-folder PATH' (a folder Syncthing, Nextcloud or Dropbox moves)")
        default:
            return (.failed, nil)
        }
    }

    private static func storageHint(_ error: StorageError) -> String? {
        switch error {
        case .cannotCreateDirectory: " Choose another with --data-dir or TREND_DATA_DIR."
        case .notADatabase, .unknownSchema: " (restore latest)"
        default: nil
        }
    }

    private static func habitsCode(_ error: HabitsError) -> (ErrorCode, hint: String?) {
        switch error {
        case let .noSuchHabit(_, suggestion):
            return (.notFound, suggestion == nil ? "; 'habits' lists them" : nil)
        case .nothingToRestore, .noMark:
            return (.notFound, nil)
        case let .duplicateName(name, archived):
            return (.duplicate, archived ? "; 'habit unarchive \(name)' brings it back, or choose another name" : nil)
        case let .valueNeeded(name, kind):
            let quoted = name.contains(" ") ? "\"\(name)\"" : name
            return (.invalidHabit, " (\(kind.text)); add it, e.g. 'habit done \(quoted) 8'")
        case let .archived(name):
            return (.invalidHabit, "; 'habit unarchive \(name)' first")
        case .unreadableHabit:
            return (.invalidHabit, "; restore your habits from a backup ('backup list')")
        case .invalidName, .valueNotAllowed, .invalidValue, .invalidUnit, .kindCannotChange, .invalidNote, .tooManyReminders:
            return (.invalidHabit, nil)
        case .notALoopBackup, .loopBackupTooLarge, .notALoopExport:
            return (.invalidFile, nil)
        case .unreadableFile:
            return (.file, nil)
        }
    }
}
