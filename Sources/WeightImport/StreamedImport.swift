import Foundation
import WeightLog

/// An import written as its file is read: the reader's thread reads, tells
/// the file's rows apart and hands full batches of entries over
/// (`WeightBatches`); the writing transaction leaves out what is stored
/// (read inside it) and inserts the rest while the reader reads on. What the
/// reader found (format, unit, invalid rows) and the counts make the
/// import's preview at the end.
final class StreamedImport: EntryBatches, @unchecked Sendable {
    // @unchecked: `waitForRows`, `start`, `next` and `summary` run on the writing
    // thread, one after another; `preview` is read after the insert returned.
    private let batches: WeightBatches
    private let fileName: String
    /// The reader's outcome checked for whose rows they are; returns the person read (see `WeightImportFeature`).
    private let check: (ReadOutcome) throws -> String?
    private var pending: WeightBatches.Next?
    private var stored = StoredWeightKeys()
    private var end: WeightBatches.End?
    private var member: String?
    private var added = 0
    private var alreadyStored = 0
    private var measurementsKept = 0

    init(_ batches: WeightBatches, fileName: String, check: @escaping (ReadOutcome) throws -> String?) {
        self.batches = batches
        self.fileName = fileName
        self.check = check
    }

    func waitForRows() throws {
        let first = batches.next()
        // A file that cannot be read fails here, before any transaction.
        if case let .end(.failure(error)) = first { throw error }
        pending = first
    }

    func start(against stored: StoredWeightKeys) {
        self.stored = stored
    }

    func next() throws -> [WeightEntry]? {
        guard end == nil else { return nil }
        let next = pending ?? batches.next()
        pending = nil
        switch next {
        case let .batch(batch):
            let entries = batch.entries
            let fresh = stored.mayHold(any: batch) ? entries.filter { !stored.holds($0, idFromFile: batch.idsFromFile) } : entries
            alreadyStored += entries.count - fresh.count
            added += fresh.count
            return fresh
        case let .end(result):
            let read = try result.get()
            member = try check(read.outcome)
            end = read
            return nil
        }
    }

    var measurements: [BodyMeasurement] { end?.outcome.measurements ?? [] }

    func measurementsAdded(_ count: Int) {
        measurementsKept = count
    }

    var summary: String {
        "import of \(fileName) (\(added) new weigh-ins)"
    }

    /// What the import found; nil until every row is in.
    var preview: ImportPreview? {
        guard let end else { return nil }
        let outcome = end.outcome
        var preview = ImportPreview(format: outcome.format, version: outcome.version, unit: outcome.unit, unitAssumed: outcome.unitAssumed,
                                    newEntries: [], newCount: added, duplicates: end.repeated + outcome.repeated + alreadyStored,
                                    invalid: outcome.invalid,
                                    skipped: outcome.skipped, first: end.first, last: end.last)
        preview.member = member
        preview.measurements = measurementsKept
        preview.shortenedNotes = outcome.shortenedNotes
        return preview
    }
}
