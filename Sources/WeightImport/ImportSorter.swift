import Foundation
import WeightLog

/// Tells apart the rows of one file as they come, one at a time: a row that
/// repeats an earlier row of the file (the same id, or the same second and
/// the same weight to 4 decimals) is left out; any other becomes a
/// `WeightEntry`, with a fresh time-ordered id when the file brings none.
/// Whether an entry is stored already is the stored keys' question
/// (`StoredWeightKeys.holds`), asked after, inside the writing transaction.
///
/// A file in time order (nearly every export) can repeat a moment only among
/// rows of the same second, next to each other: those are compared, and no
/// set of a million moments is built. The first row out of order turns the
/// moments kept so far into a set, which every later row is checked against.
struct ImportSorter: Sendable {
    private var ids = SeenIDs()
    /// Every kept row's moment while the rows come in time order; nil after.
    private var inOrder: [WeightEntry.Moment]? = []
    /// Every kept row's moment once the order broke.
    private var moments = Set<WeightEntry.Moment>()
    private var sameSecond: [WeightEntry.Moment] = []
    private var latest: Date?
    private var newIDs = EntryIDs()
    /// Rows left out as repeats of earlier rows of the file.
    private(set) var repeated = 0
    /// The first and last date of every row (repeats too).
    private(set) var first: Date?
    private(set) var last: Date?

    /// The row as an entry, or nil when it repeats an earlier row of the file.
    mutating func sort(_ weight: ImportedWeight) -> WeightEntry? {
        first = min(first ?? weight.date, weight.date)
        last = max(last ?? weight.date, weight.date)
        let key = weight.entry.moment
        if let id = weight.id, ids.contains(id) { repeated += 1; return nil }
        if let earlier = latest, weight.date < earlier, let kept = inOrder {
            // Out of order: from here on, every moment is looked up in a set.
            moments = Set(kept)
            inOrder = nil
        }
        latest = max(latest ?? weight.date, weight.date)
        if inOrder != nil {
            if sameSecond.first?.second != key.second { sameSecond.removeAll(keepingCapacity: true) }
            if sameSecond.contains(key) { repeated += 1; return nil }
            sameSecond.append(key)
            inOrder?.append(key)
        } else {
            guard moments.insert(key).inserted else { repeated += 1; return nil }
        }
        // Fresh random ids cannot clash; only ids the file brought need remembering.
        if let id = weight.id { _ = ids.insert(id) }
        var entry = weight.entry
        entry.id = weight.id ?? newIDs.next(at: weight.date)
        entry.date = weight.date.wholeSecond
        return entry
    }

    /// Every row of `rows` the file has not had yet, as entries.
    mutating func sort(_ rows: [ImportedWeight]) -> [WeightEntry] {
        var entries: [WeightEntry] = []
        entries.reserveCapacity(rows.count)
        for row in rows {
            if let entry = sort(row) { entries.append(entry) }
        }
        return entries
    }
}

extension StoredWeightKeys {
    /// Whether a weigh-in with the entry's id or moment is stored. An id
    /// `ImportSorter` made (`idFromFile` false) is new: only its moment is looked up.
    func holds(_ entry: WeightEntry, idFromFile: Bool) -> Bool {
        if idFromFile, !ids.isEmpty, ids.contains(entry.id) { return true }
        let moment = entry.moment
        return seconds?.contains(moment.second) == true && moments.contains(moment)
    }

    /// Whether any entry of `batch` may be stored already: nothing to look up
    /// when its ids are new and its seconds fall outside the stored ones.
    func mayHold(any batch: WeightBatches.Batch) -> Bool {
        if batch.idsFromFile, !ids.isEmpty { return true }
        guard let seconds else { return false }
        return batch.entries.contains { seconds.contains($0.moment.second) }
    }
}
