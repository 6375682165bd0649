import Foundation

/// An import written as its file is read: the reader's thread hands full
/// batches of rows over (`WeightBatches`), and the writing transaction sorts
/// each against what is stored (`ImportSorter`) and inserts the new ones
/// while the reader reads on. What the reader found (format, unit, invalid
/// rows) and the sorter's figures make the import's preview at the end.
final class StreamedImport: EntryBatches, @unchecked Sendable {
    // @unchecked: `waitForRows`, `start`, `next` and `summary` run on the writing
    // thread, one after another; `preview` is read after the insert returned.
    private let batches: WeightBatches
    private let fileName: String
    /// The reader's outcome checked for whose rows they are; returns the person read (see `WeightImportFeature`).
    private let check: (ReadOutcome) throws -> String?
    private var pending: WeightBatches.Next?
    private var sorter: ImportSorter?
    private var outcome: ReadOutcome?
    private var member: String?

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
        sorter = ImportSorter(against: stored)
    }

    func next() throws -> [WeightEntry]? {
        guard outcome == nil else { return nil }
        let next = pending ?? batches.next()
        pending = nil
        switch next {
        case let .batch(rows):
            return sort(rows)
        case let .end(result):
            var read = try result.get()
            member = try check(read)
            let rest = sort(read.weights)
            read.weights = []
            outcome = read
            return rest
        }
    }

    var summary: String {
        "import of \(fileName) (\(sorter?.added ?? 0) new weigh-ins)"
    }

    /// What the import found; nil until every row is in.
    var preview: ImportPreview? {
        guard let outcome, let sorter else { return nil }
        var preview = ImportPreview(format: outcome.format, version: outcome.version, unit: outcome.unit, unitAssumed: outcome.unitAssumed,
                                    newEntries: [], newCount: sorter.added, duplicates: sorter.duplicates, invalid: outcome.invalid,
                                    skipped: outcome.skipped, first: sorter.first, last: sorter.last)
        preview.member = member
        return preview
    }

    private func sort(_ rows: [ImportedWeight]) -> [WeightEntry] {
        var entries: [WeightEntry] = []
        entries.reserveCapacity(rows.count)
        for row in rows {
            if let entry = sorter?.sort(row) { entries.append(entry) }
        }
        return entries
    }
}
