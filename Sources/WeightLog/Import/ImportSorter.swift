import Foundation

/// Tells an import's rows apart as they come, one at a time: new, or a
/// duplicate (the same id, or the same second and the same weight to 4
/// decimals) of a stored weigh-in or of an earlier row of the file. A new
/// row becomes a `WeightEntry` with a fresh time-ordered id when the file
/// brings none.
///
/// A file in time order (nearly every export) can repeat a moment only among
/// rows of the same second, next to each other: those are compared, and no
/// set of a million moments is built. The first row out of order turns the
/// moments kept so far into a set, which every later row is checked against.
struct ImportSorter {
    private let stored: StoredWeightKeys
    private var ids: SeenIDs
    /// Every new row's moment while the rows come in time order; nil after.
    private var inOrder: [WeightEntry.Moment]? = []
    /// Every new row's moment once the order broke.
    private var moments = Set<WeightEntry.Moment>()
    private var sameSecond: [WeightEntry.Moment] = []
    private var latest: Date?
    private var newIDs = EntryIDs()
    private(set) var added = 0
    private(set) var duplicates = 0
    /// The first and last date of every row (duplicates too).
    private(set) var first: Date?
    private(set) var last: Date?

    init(against stored: StoredWeightKeys) {
        self.stored = stored
        ids = stored.ids
    }

    /// The row as a new entry, or nil when it is a duplicate.
    mutating func sort(_ weight: ImportedWeight) -> WeightEntry? {
        first = min(first ?? weight.date, weight.date)
        last = max(last ?? weight.date, weight.date)
        let key = WeightEntry.Moment(date: weight.date, kilograms: weight.kilograms)
        if let id = weight.id, ids.contains(id) { duplicates += 1; return nil }
        if !stored.moments.isEmpty, stored.moments.contains(key) { duplicates += 1; return nil }
        if let earlier = latest, weight.date < earlier, let kept = inOrder {
            // Out of order: from here on, every new moment is looked up in a set.
            moments = Set(kept)
            inOrder = nil
        }
        latest = max(latest ?? weight.date, weight.date)
        if inOrder != nil {
            if sameSecond.first?.second != key.second { sameSecond.removeAll(keepingCapacity: true) }
            if sameSecond.contains(key) { duplicates += 1; return nil }
            sameSecond.append(key)
            inOrder?.append(key)
        } else {
            guard moments.insert(key).inserted else { duplicates += 1; return nil }
        }
        // Fresh random ids cannot clash; only ids the file brought need remembering.
        if let id = weight.id { _ = ids.insert(id) }
        added += 1
        return WeightEntry(id: weight.id ?? newIDs.next(at: weight.date),
                           date: Date(timeIntervalSince1970: weight.date.timeIntervalSince1970.rounded(.down)),
                           kilograms: weight.kilograms, note: weight.note, bodyFatPercent: weight.bodyFatPercent)
    }
}
