import Foundation
import Vocabulary

/// Libra's export (`#Version`, `#Units`, `;`-separated, the note column `comment`, or `log` from Libra 6),
/// and the midnight placeholders older Libra files carry.
extension WeightFileReader {
    func readLibra(_ data: Data) -> ReadOutcome {
        var outcome = ReadOutcome(format: .libra, unit: displayUnit, unitAssumed: true)
        outcome.handsOnBatches = false
        var columns = ["date", "weight", "weight trend", "body fat", "body fat trend", "comment"]
        // Libra quotes nothing and writes the log, its last column, as it was typed: split at most into as
        // many fields as there are columns, so a `;` in the log stays in it. A line at a time, so a long
        // file is never one string.
        func take(_ number: Int, _ line: Substring) {
            guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { return }
            let fields = line.split(separator: ";", maxSplits: max(columns.count - 1, 0), omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            let first = field(fields, 0)
            if first.hasPrefix("#") {
                let lower = first.lowercased()
                if lower.hasPrefix("#version:") {
                    outcome.version = "version " + first.dropFirst("#version:".count).trimmingCharacters(in: .whitespaces)
                } else if lower.hasPrefix("#units:") {
                    let word = String(first.dropFirst("#units:".count)).trimmingCharacters(in: .whitespaces)
                    if let unit = WeightUnit(word: word) { outcome.unit = unit; outcome.unitAssumed = false }
                } else if lower.hasPrefix("#date") {
                    columns = line.split(separator: ";", omittingEmptySubsequences: false)
                        .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "# ")).lowercased() }
                }
                return
            }
            let dateColumn = columns.firstIndex(of: "date") ?? 0
            let weightColumn = columns.firstIndex(of: "weight") ?? 1
            // Libra 6 renamed the note column `comment` to `log`.
            let noteColumn = columns.firstIndex(of: "comment") ?? columns.firstIndex(of: "log")
            let fatColumn = columns.firstIndex(of: "body fat")
            add(number, dateText: field(fields, dateColumn), weightText: field(fields, weightColumn),
                unit: outcome.unit, note: noteColumn.map { field(fields, $0) }, id: nil,
                bodyFat: fatColumn.map { .percent(field(fields, $0)) }, to: &outcome)
        }
        data.withUnsafeBytes { bytes in
            var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0, number = 1
            for index in start...bytes.count where index == bytes.count || bytes[index] == 0x0A {
                var end = index
                if end > start, bytes[end - 1] == 0x0D { end -= 1 }
                if end > start { take(number, Substring(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self))) }
                start = index + 1
                number += 1
            }
        }
        dropMidnightPlaceholders(&outcome)
        return outcome
    }

    /// Older Libra files hold a weigh-in twice: a placeholder at the midnight that
    /// began its day, where the person kept Libra, and the real one at its time, the
    /// same weight later that day (`2018-01-18T23:00:00.000Z` and `…-19T17:53…` from
    /// Berlin). The placeholder goes (counted as a duplicate, as the file's copy of a
    /// weigh-in); the real one, and a midnight weigh-in with no twin, stay.
    ///
    /// Libra writes UTC, so the midnight is that of the zone the file was kept in,
    /// not always the importer's: a row with a later twin is a placeholder when it
    /// falls at midnight here, in UTC, or in the one zone whose midnights explain
    /// the most such rows of the file (two at least: a single weigh-in typed on the
    /// hour, with the same weight later that day, stays).
    func dropMidnightPlaceholders(_ outcome: inout ReadOutcome) {
        let weights = outcome.weights
        // Rows by weight (grams), each weight's moments sorted: a row's twins are found by a binary search,
        // however long the file and however often a weight comes back.
        var byWeight: [Int: [Date]] = [:]
        for weight in weights { byWeight[Int((weight.kilograms * 1000).rounded()), default: []].append(weight.date) }
        for key in byWeight.keys { byWeight[key]?.sort() }
        // A row could be a placeholder when it falls on a whole quarter hour (a midnight somewhere) and the same
        // weight comes again within a day after it.
        var candidates: [(index: Int, twins: ArraySlice<Date>)] = []
        for (index, weight) in weights.enumerated() {
            let seconds = weight.date.timeIntervalSince1970
            guard seconds.rounded(.down) == seconds, let whole = Int(exactly: seconds), whole % 900 == 0,
                  let moments = byWeight[Int((weight.kilograms * 1000).rounded())] else { continue }
            var low = 0, high = moments.count  // The first moment after this row's.
            while low < high {
                let middle = (low + high) / 2
                if moments[middle] > weight.date { high = middle } else { low = middle + 1 }
            }
            var end = low
            while end < moments.count, moments[end].timeIntervalSince(weight.date) < 86_400 { end += 1 }
            if end > low { candidates.append((index, moments[low..<end])) }
        }
        guard !candidates.isEmpty else { return }
        var zones = [TimeZone(identifier: "UTC")!]
        if let local = TimeZone(identifier: dates.localDays.timeZoneIdentifier) { zones.append(local) }
        if let kept = Self.zoneOfMidnights(candidates.map { weights[$0.index].date }) { zones.append(kept) }
        func isMidnight(_ date: Date) -> Bool {
            zones.contains { zone in
                Self.isMidnight(date, in: zone)
            }
        }
        var dropped = Set<Int>()
        for candidate in candidates where isMidnight(weights[candidate.index].date) {
            // Its twin must be a real weigh-in, not the next day's placeholder (23 hours on, after a change of clocks).
            if candidate.twins.contains(where: { !isMidnight($0) }) { dropped.insert(candidate.index) }
        }
        guard !dropped.isEmpty else { return }
        outcome.weights = weights.enumerated().filter { !dropped.contains($0.offset) }.map(\.element)
        outcome.repeated += dropped.count
    }

    /// The zone in which the most of `moments` (up to 256 of them, spread over the file so that
    /// winter and summer both count) fall at midnight, when that is two or more.
    static func zoneOfMidnights(_ moments: [Date]) -> TimeZone? {
        let step = max(1, moments.count / 256)
        let sample = stride(from: 0, to: moments.count, by: step).map { moments[$0] }
        guard sample.count >= 2 else { return nil }
        var best: (zone: TimeZone, count: Int)?
        for identifier in TimeZone.knownTimeZoneIdentifiers {
            guard let zone = TimeZone(identifier: identifier) else { continue }
            let count = sample.count { isMidnight($0, in: zone) }
            if count > (best?.count ?? 1) { best = (zone, count) }
            if count == sample.count { break }
        }
        return best?.zone
    }

    /// Whether the whole-second moment `date` is a midnight in `zone`.
    static func isMidnight(_ date: Date, in zone: TimeZone) -> Bool {
        let local = Int(date.timeIntervalSince1970.rounded(.down)) + zone.secondsFromGMT(for: date)
        return (local % 86_400 + 86_400) % 86_400 == 0
    }
}
