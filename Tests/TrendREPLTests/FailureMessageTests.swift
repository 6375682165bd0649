import CommandLanguage
import Backup
import Habits
import Storage
import Testing
import WeightLog
@testable import TrendREPL

@Suite struct FailureMessageTests {
    /// Scripts branch on these words: they may grow, never change.
    @Test func theErrorCodesScriptsSeeAreStable() {
        #expect(ErrorCode.allCases.map(\.rawValue) == [
            "usage", "unknown_command", "storage", "invalid_weight", "invalid_setting", "invalid_date", "not_found",
            "nothing_to_undo", "invalid_backup", "file", "invalid_file", "duplicate", "invalid_habit", "failed",
            "conflict", "invalid_measurement",
        ])
    }

    @Test func aFeaturesReasonGetsItsCodeTheCommandAndTheWordsToTypeNext() {
        let archived = FailureMessage.failure(from: HabitsError.duplicateName("Read", archived: true), command: "habit add")
        #expect(archived.code == .duplicate)
        #expect(archived.message
            == "habit add: a habit named 'Read' already exists (archived); 'habit unarchive Read' brings it back, or choose another name")
        let missing = FailureMessage.failure(from: WeightLogError.noSuchEntry("abcd"), command: "delete")
        #expect(missing.code == .notFound)
        #expect(missing.message == "delete: no entry has an id starting with 'abcd'; 'entries all' lists the ids")
        let noSync = FailureMessage.failure(from: BackupFileError.noSyncFolder, command: "restore")
        #expect(noSync.message == "restore: no sync folder is set; choose one with 'set sync-folder PATH'")
        let storage = FailureMessage.failure(from: StorageError.busy(path: "/d/trend.sqlite"), command: "today")
        #expect(storage.code == .storage)
        #expect(storage.message.hasPrefix("today: the database /d/trend.sqlite is busy"))
        let note = FailureMessage.failure(from: WeightEntryError.noteTooLong(length: 501), command: "weigh")
        #expect(note.code == .usage)
        #expect(note.message == "weigh: the weigh-in has a note of 501 characters; at most 500 fit")
    }
}
