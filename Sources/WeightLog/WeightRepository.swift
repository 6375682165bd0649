import Foundation
import Storage

/// New entries handed to an insert a batch at a time, as a file is read
/// (`WeightRepository.insert(batches:expecting:journal:)`).
public protocol EntryBatches: AnyObject, Sendable {
    /// Waits, before any transaction begins, until the first rows (or the end) are there.
    func waitForRows() throws
    /// Called once, inside the writing transaction, with what is stored now.
    func start(against stored: StoredWeightKeys)
    /// The next new entries; nil when there are no more. Throws to stop the insert.
    func next() throws -> [WeightEntry]?
    /// What the journal calls the change, once every batch is in.
    var summary: String { get }
    /// The tape measures the file carries, asked once every batch is in; they go in the same transaction.
    var measurements: [BodyMeasurement] { get }
    /// How many of them were new and kept.
    func measurementsAdded(_ count: Int)
}

extension EntryBatches {
    public var measurements: [BodyMeasurement] { [] }
    public func measurementsAdded(_ count: Int) {}
}

/// Where weigh-ins are kept.
public protocol WeightRepository: Sendable {
    /// Every entry, oldest first.
    func allEntries() async throws -> [WeightEntry]
    /// The ids and moments stored, what an import's new rows are told apart by.
    func storedKeys() async throws -> StoredWeightKeys
    /// Every instant and weight, oldest first, read lean (see `WeightTable.samples(in:)`),
    /// with the latest `latest` entries in full, and the count of changes written up to the read
    /// (`LocalDataStore.changeCount`).
    func samples(withLatest latest: Int) async throws -> (samples: WeightSamples, latest: [WeightEntry], version: Int)
    /// The entries from `start` to `end` (seconds since 1970, inclusive), oldest first.
    func entries(from start: Double, to end: Double) async throws -> [WeightEntry]
    /// The weigh-ins with body fat from `start` up to `end`, lean (see `WeightTable.bodyFatSamples`).
    func bodyFatSamples(from start: Double, before end: Double) async throws -> BodyFatSamples
    /// The entries whose note holds `text` (see `WeightTable.entries(noteContaining:)`).
    func entries(noteContaining text: String, limit: Int) async throws -> [WeightEntry]
    /// Up to `limit` entries past `cursor`, in either order, from `start` up to `end` (see `WeightTable.page`).
    func page(after cursor: WeightEntry?, newestFirst: Bool, from start: Double, before end: Double, limit: Int) async throws -> [WeightEntry]
    /// Calls `measurements` once with the tape measures from `start` up to `end`, then `body` with every
    /// entry, oldest first, as the rows are read (one read transaction, on the store's thread, so the two
    /// agree); returns how many entries there were. What an export writes.
    func forEachEntry(from start: Double, before end: Double, measurements: @escaping @Sendable ([BodyMeasurement]) throws -> Void,
                      _ body: @escaping @Sendable (WeightEntry) throws -> Void) async throws -> Int
    /// Adds an entry; with a `journal` entry, the change is journaled under it (see `LocalDataStore.write`).
    /// The samples cache lives on with the entry in it: the one the table had, or else `samplesBefore`,
    /// the samples as read at `version`, when no change was written since.
    func insert(_ entry: WeightEntry, journal: JournalEntry?, samplesBefore: (samples: WeightSamples, version: Int)?) async throws
    /// Replaces the entry with the same id; false when there is none.
    func update(_ entry: WeightEntry, journal: JournalEntry?) async throws -> Bool
    /// Removes an entry; false when there is none.
    func delete(id: String, journal: JournalEntry?) async throws -> Bool
    /// Adds the entries `batches` makes as a file is read, in one transaction
    /// begun once its first rows are there: they are told apart from what is
    /// stored inside it (so two imports at once never add a row twice). An
    /// error from `batches` changes nothing. `expecting` is a guess at how
    /// many rows come (a large insert is written differently). Returns what was added.
    func insert(batches: some EntryBatches, expecting count: Int, journal: JournalEntry) async throws -> SnapshotMergeCount
    /// Changes when another process has written; see `LocalDataStore.externalVersion()`.
    func externalVersion() async throws -> Int
}

/// Weigh-ins in the `weight_entries` table, through `WeightTable`.
public actor LocalWeightRepository: WeightRepository {
    let store: LocalDataStore

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

    public func storedKeys() throws -> StoredWeightKeys {
        try store.readConsistently { try WeightTable.storedKeys(in: $0) }
    }

    public func samples(withLatest latest: Int) throws -> (samples: WeightSamples, latest: [WeightEntry], version: Int) {
        // One read transaction: the samples and their tail agree.
        let (cached, samples, entries, version) = try store.readConsistently { connection in
            let cached = try WeightTable.cachedSamples(in: connection)
            return (cached != nil, try cached ?? WeightTable.samples(in: connection), try WeightTable.latest(latest, in: connection),
                    try LocalDataStore.changeCount(in: connection))
        }
        if !cached, samples.count >= (store.writesCheaply ? WeightTable.samplesWorthCaching : WeightTable.samplesWorthASwitch) {
            // Written only when no change came between the read and this write.
            try? store.write(notifying: false, waiting: false) { connection in  // A cache: a failure costs only the next read.
                guard try LocalDataStore.changeCount(in: connection) == version else { return }
                try WeightTable.cacheSamples(samples, in: connection)
            }
        }
        return (samples, entries, version)
    }

    public func entries(from start: Double, to end: Double) throws -> [WeightEntry] {
        try store.read { try WeightTable.entries(from: start, to: end, in: $0) }
    }

    public func bodyFatSamples(from start: Double, before end: Double) throws -> BodyFatSamples {
        try store.read { try WeightTable.bodyFatSamples(from: start, before: end, in: $0) }
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

    public func forEachEntry(from start: Double, before end: Double, measurements: @escaping @Sendable ([BodyMeasurement]) throws -> Void,
                             _ body: @escaping @Sendable (WeightEntry) throws -> Void) throws -> Int {
        try store.read { connection in
            try measurements(try MeasurementTable.all(from: start, before: end, in: connection))
            return try WeightTable.forEachEntry(in: connection, from: start, before: end, body)
        }
    }

    public func insert(_ entry: WeightEntry, journal: JournalEntry?, samplesBefore: (samples: WeightSamples, version: Int)?) throws {
        try store.write(journal: journal) { connection in
            // The cache as the table stands before the insert (its trigger deletes it), kept with the new entry:
            // the morning's weigh-in leaves the cache the next check-in reads instead of stepping the index.
            var before = try WeightTable.cachedSamples(in: connection)
            if before == nil, let samplesBefore, try LocalDataStore.changeCount(in: connection) == samplesBefore.version {
                before = samplesBefore.samples
            }
            try WeightTable.insert(entry, in: connection)
            if var samples = before, samples.count + 1 >= WeightTable.samplesWorthCaching {
                _ = samples.insert(entry)
                try WeightTable.cacheSamples(samples, in: connection)
            }
        }
    }

    public func update(_ entry: WeightEntry, journal: JournalEntry?) throws -> Bool {
        try store.write(journal: journal) { try WeightTable.update(entry, in: $0) }
    }

    /// Cancelling the awaiting task stops the insert and rolls it back.
    public func insert(batches: some EntryBatches, expecting count: Int, journal: JournalEntry) async throws -> SnapshotMergeCount {
        let added = try await store.cancellable {
            // The write lock is taken once rows are there: a long scan (a Health export) does not hold it.
            try batches.waitForRows()
            return try store.write(journal: journal, bulk: count > WeightTable.bulkRows) { connection in
                batches.start(against: try WeightTable.storedKeys(in: connection))
                var merger = try WeightTable.Merger(expecting: count, checkingStored: false, in: connection)
                while let entries = try batches.next() {
                    for entry in entries { try merger.add(entry) }
                }
                let measurements = batches.measurements
                if !measurements.isEmpty { batches.measurementsAdded(try MeasurementTable.merge(measurements, in: connection).added) }
                try connection.describeRecordedChange(batches.summary)
                return try merger.finish()
            }
        }
        // A large import leaves a large WAL: fold it in and shrink it now.
        if added.added > 10_000 { try store.checkpoint() }
        return added
    }

    public func delete(id: String, journal: JournalEntry?) throws -> Bool {
        try store.write(journal: journal) { try WeightTable.delete(id: id, in: $0) }
    }
}
