import Foundation
import Storage

/// Where weigh-ins are kept.
public protocol WeightRepository: Sendable {
    /// Every entry, oldest first.
    func allEntries() async throws -> [WeightEntry]
    /// The ids and moments stored, what an import's new rows are told apart by,
    /// read in one transaction; `beforeWriting` when a write that compares their stamp follows.
    func storedKeys(beforeWriting: Bool) async throws -> StoredWeightKeys
    /// Every instant and weight, oldest first, read lean (see `WeightTable.samples(in:)`),
    /// with the latest `latest` entries in full.
    func samples(withLatest latest: Int) async throws -> (samples: WeightSamples, latest: [WeightEntry])
    /// The entries from `start` to `end` (seconds since 1970, inclusive), oldest first.
    func entries(from start: Double, to end: Double) async throws -> [WeightEntry]
    /// The entries whose note holds `text` (see `WeightTable.entries(noteContaining:)`).
    func entries(noteContaining text: String, limit: Int) async throws -> [WeightEntry]
    /// Up to `limit` entries past `cursor`, in either order, from `start` up to `end` (see `WeightTable.page`).
    func page(after cursor: WeightEntry?, newestFirst: Bool, from start: Double, before end: Double, limit: Int) async throws -> [WeightEntry]
    /// Calls `body` with every entry, oldest first, as the rows are read (one
    /// read transaction, on the store's thread); returns how many there were.
    func forEachEntry(from start: Double, before end: Double, _ body: @escaping @Sendable (WeightEntry) throws -> Void) async throws -> Int
    /// Adds an entry; with a `journal` entry, the change is journaled under it (see `LocalDataStore.write`).
    func insert(_ entry: WeightEntry, journal: JournalEntry?) async throws
    /// Replaces the entry with the same id; false when there is none.
    func update(_ entry: WeightEntry, journal: JournalEntry?) async throws -> Bool
    /// Removes an entry; false when there is none.
    func delete(id: String, journal: JournalEntry?) async throws -> Bool
    /// Adds many entries in one transaction, skipping those already stored
    /// (same id or same moment, checked inside it); returns what was added.
    /// Entries sorted against keys read at `checkedAt` (`storedKeys(beforeWriting: true).stamp`) are
    /// not checked again when the transaction finds nothing written since.
    func insert(contentsOf entries: [WeightEntry], checkedAt stamp: DatabaseStamp?, journal: JournalEntry?) async throws -> SnapshotMergeCount
    /// Changes when another process has written; see `LocalDataStore.externalVersion()`.
    func externalVersion() async throws -> Int
}

/// Weigh-ins in the `weight_entries` table, through `WeightTable`.
public actor LocalWeightRepository: WeightRepository {
    private let store: LocalDataStore

    public init(store: LocalDataStore) {
        self.store = store
    }

    /// Runs on the store's own thread, never on the cooperative pool.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { store.executor.asUnownedSerialExecutor() }

    public func externalVersion() throws -> Int {
        try store.externalVersion()
    }

    public func allEntries() throws -> [WeightEntry] {
        try store.read { try WeightTable.all(in: $0) }
    }

    public func storedKeys(beforeWriting: Bool) throws -> StoredWeightKeys {
        if beforeWriting { try store.prepareToWrite() }
        return try store.readConsistently { try WeightTable.storedKeys(in: $0) }
    }

    public func samples(withLatest latest: Int) throws -> (samples: WeightSamples, latest: [WeightEntry]) {
        // One read transaction: the samples and their tail agree.
        let (cached, samples, entries, version) = try store.readConsistently { connection in
            let cached = try WeightTable.cachedSamples(in: connection)
            return (cached != nil, try cached ?? WeightTable.samples(in: connection), try WeightTable.latest(latest, in: connection),
                    try LocalDataStore.changeCount(in: connection))
        }
        if !cached, samples.count >= (store.writesCheaply ? WeightTable.samplesWorthCaching : WeightTable.samplesWorthASwitch) {
            // Written only when no change came between the read and this write.
            try? store.write(notifying: false) { connection in  // A cache: a failure costs only the next read.
                guard try LocalDataStore.changeCount(in: connection) == version else { return }
                try WeightTable.cacheSamples(samples, in: connection)
            }
        }
        return (samples, entries)
    }

    public func entries(from start: Double, to end: Double) throws -> [WeightEntry] {
        try store.read { try WeightTable.entries(from: start, to: end, in: $0) }
    }

    public func entries(noteContaining text: String, limit: Int) throws -> [WeightEntry] {
        try store.read { try WeightTable.entries(noteContaining: text, limit: limit, in: $0) }
    }

    public func page(after cursor: WeightEntry?, newestFirst: Bool, from start: Double, before end: Double, limit: Int) throws -> [WeightEntry] {
        try store.read {
            try WeightTable.page(after: cursor.map { ($0.date.timeIntervalSince1970, $0.id) }, newestFirst: newestFirst,
                                 from: start, before: end, limit: limit, in: $0)
        }
    }

    public func forEachEntry(from start: Double, before end: Double, _ body: @escaping @Sendable (WeightEntry) throws -> Void) throws -> Int {
        try store.read { try WeightTable.forEachEntry(in: $0, from: start, before: end, body) }
    }

    public func insert(_ entry: WeightEntry, journal: JournalEntry?) throws {
        try store.write(journal: journal) { try WeightTable.insert(entry, in: $0) }
    }

    public func update(_ entry: WeightEntry, journal: JournalEntry?) throws -> Bool {
        try store.write(journal: journal) { try WeightTable.update(entry, in: $0) }
    }

    /// Cancelling the awaiting task stops the insert and rolls it back.
    public func insert(contentsOf entries: [WeightEntry], checkedAt stamp: DatabaseStamp?, journal: JournalEntry?) async throws -> SnapshotMergeCount {
        let count = try await store.cancellable {
            try store.write(journal: journal, unchangedSince: stamp) { connection, unchanged in
                try WeightTable.merge(entries, checkingStored: !unchanged, in: connection)
            }
        }
        // A large import leaves a large WAL: fold it in and shrink it now.
        if entries.count > 10_000 { try store.checkpoint() }
        return count
    }

    public func delete(id: String, journal: JournalEntry?) throws -> Bool {
        try store.write(journal: journal) { try WeightTable.delete(id: id, in: $0) }
    }
}
