import Foundation
import Observation
import Storage
import Vocabulary

/// Undo, redo and the history of changes, across sessions and processes:
/// every weigh-in, edit, delete, import, habit change, setting, goal,
/// restore and delete-all-data is one entry in the journal the database
/// keeps (see `ChangeJournal` in Storage), written in the change's own
/// transaction. An undo takes back the latest change any process made, and
/// only while the rows still hold what it wrote, so it never loses a later
/// update. `onChange` refreshes every Feature afterwards (wired in `AppModel.assemble(_:)`).
@MainActor
@Observable
public final class ChangeHistoryFeature {
    @ObservationIgnored private let journal: JournalWorker
    @ObservationIgnored private let currentDate: @MainActor () -> Date
    @ObservationIgnored private let onChange: @MainActor () async -> Void
    /// The person's calendar: the time zone the history's times are shown in.
    public let calendar: Calendar

    public init(storage: LocalDataStore, calendar: Calendar, currentDate: @escaping @MainActor () -> Date,
                onChange: @escaping @MainActor () async -> Void) {
        journal = JournalWorker(store: storage)
        self.calendar = calendar
        self.currentDate = currentDate
        self.onChange = onChange
    }

    /// Takes back the latest change, and says which it was.
    public func undo() async throws -> JournalChange {
        try PlausibleTime.checkClock(currentDate())
        let change = try await journal.undo()
        await onChange()
        return change
    }

    /// Applies again the change undone last.
    public func redo() async throws -> JournalChange {
        try PlausibleTime.checkClock(currentDate())
        let change = try await journal.redo()
        await onChange()
        return change
    }

    /// The latest `limit` changes, newest first (undone ones too, marked).
    public func recent(_ limit: Int) async throws -> [JournalChange] {
        try await journal.changes(limit: limit)
    }
}

/// The journal's storage work, on the store's own thread.
actor JournalWorker {
    private let store: LocalDataStore

    init(store: LocalDataStore) {
        self.store = store
    }

    nonisolated var unownedExecutor: UnownedSerialExecutor { store.executor.asUnownedSerialExecutor() }

    func undo() throws -> JournalChange { try store.undoLatestChange() }
    func redo() throws -> JournalChange { try store.redoLatestChange() }
    func changes(limit: Int) throws -> [JournalChange] { try store.journalChanges(limit: limit) }
}
