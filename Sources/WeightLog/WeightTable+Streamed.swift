import Foundation
import Storage
import TextFormats

/// A large snapshot's weigh-ins stay in its file: one pass checks them when
/// the snapshot is read, another writes them back when it is restored, a
/// batch of `batchSize` at a time. A million weigh-ins are never in memory.
extension WeightTable: StreamingSnapshotSection {
    public var streamedMember: String { name }

    static let batchSize = 10_000

    public func part(streaming member: StreamedMember) throws -> Part {
        var ids = SeenIDs()
        var problems: [StreamedRows.Problem] = []
        var index = 0
        var first: Date?, last: Date?
        let fingerprint = try Self.forEachRow(of: member) { entry in
            if let reason = Self.problem(with: entry, index: index, ids: &ids) {
                problems.append(StreamedRows.Problem(index: index, reason: reason))
            } else {
                first = min(first ?? entry.date, entry.date)
                last = max(last ?? entry.date, entry.date)
            }
            index += 1
        }
        let span = first.flatMap { first in last.map { first...$0 } }
        return Part(streamed: StreamedRows(member: member, total: index, span: span, problems: problems, fingerprint: fingerprint))
    }

    /// Every weigh-in of a streamed member, decoded a batch at a time; returns the fingerprint of its bytes.
    static func forEachRow(of member: StreamedMember, _ body: (WeightEntry) throws -> Void) throws -> Int {
        let decoder = JSONDecoder()
        return try member.forEachBatch(batchSize) { batch in
            for entry in try rows(batch, decoder: decoder) {
                try body(entry)
            }
        }.fingerprint
    }

    /// A batch of a snapshot's weigh-ins, read by `FlatJSON` where it can, by `JSONDecoder` where it cannot
    /// (which throws, as for a whole file, when a row lacks a member or has one of the wrong type).
    private static func rows(_ batch: Data, decoder: JSONDecoder) throws -> [WeightEntry] {
        let drafts = batch.withUnsafeBytes { bytes in
            FlatJSON.objects(bytes, make: { WeightDraft() }) { draft, key, value in draft.set(key, value, places: WeightField.named) }
        }
        let entries = drafts?.compactMap(\.complete)
        if let entries, entries.count == drafts?.count { return entries }
        return try decoder.decode([WeightSnapshotRow].self, from: batch).map(\.entry)
    }
}

/// The weigh-ins of a streamed snapshot member: how many, their span, and
/// the rows a restore refuses (left out whenever the rows are read again).
struct StreamedRows: Sendable, Equatable {
    struct Problem: Sendable, Equatable {
        let index: Int
        let reason: String
    }

    let member: StreamedMember
    /// Every element of the member, good or not.
    let total: Int
    /// The first and last moment of the good rows.
    let span: ClosedRange<Date>?
    let problems: [Problem]
    /// What the member's bytes hashed to when they were checked.
    let fingerprint: Int
    /// Whether `keepingValid` has reported the problems (they are left out either way).
    var reported = false

    /// The good rows.
    var count: Int { total - problems.count }

    /// Calls `body` with every good row, reading the file again; throws, after
    /// the last row, when its bytes are not the ones that were checked (the
    /// caller's transaction then rolls back whatever `body` wrote).
    func forEachValid(_ body: (WeightEntry) throws -> Void) throws {
        let skipped = Set(problems.map(\.index))
        var index = 0
        let fingerprint = try WeightTable.forEachRow(of: member) { entry in
            defer { index += 1 }
            if !skipped.contains(index) { try body(entry) }
        }
        guard fingerprint == self.fingerprint, index == total else {
            throw SnapshotValueError("the snapshot file changed after it was checked; nothing was changed")
        }
    }

    /// The good rows, all in memory.
    func all() throws -> [WeightEntry] {
        var entries: [WeightEntry] = []
        entries.reserveCapacity(count)
        try forEachValid { entries.append($0) }
        return entries
    }

    static func == (lhs: StreamedRows, rhs: StreamedRows) -> Bool {
        lhs.member.range == rhs.member.range && lhs.fingerprint == rhs.fingerprint && lhs.total == rhs.total
            && lhs.problems == rhs.problems && lhs.reported == rhs.reported
    }
}

/// The keys a new weigh-in is checked against: a stored id, or the same
/// second and weight (`WeightEntry.Moment`) as a stored one.
public struct StoredWeightKeys: Sendable {
    package var ids = SeenIDs()
    package private(set) var moments = Set<WeightEntry.Moment>()
    /// The first and last second of the moments: one outside holds none of them.
    package private(set) var seconds: ClosedRange<Int64>?

    package init() {}

    /// Adds a moment; false when it was there.
    @discardableResult
    package mutating func remember(_ moment: WeightEntry.Moment) -> Bool {
        guard moments.insert(moment).inserted else { return false }
        seconds = seconds.map { min($0.lowerBound, moment.second)...max($0.upperBound, moment.second) } ?? moment.second...moment.second
        return true
    }

    package mutating func reserveCapacity(_ count: Int) {
        ids.reserveCapacity(count)
        moments.reserveCapacity(count)
    }
}

/// Weigh-in ids, to find a repeated or stored one: a lowercase UUID
/// (every id Trend makes) is kept as its 16 bytes, anything else as text, so
/// a million ids take about 40 MB instead of a hundred.
package struct SeenIDs: Sendable {
    private var packed = Set<UUIDBytes>()
    private var texts = Set<String>()

    private struct UUIDBytes: Hashable, Sendable {
        let high: UInt64, low: UInt64
    }

    package init() {}

    /// False when `id` was seen before.
    package mutating func insert(_ id: String) -> Bool {
        if let bytes = Self.packed(id) { return packed.insert(bytes).inserted }
        return texts.insert(id).inserted
    }

    package var isEmpty: Bool { packed.isEmpty && texts.isEmpty }

    /// Room for `count` ids, most of them UUIDs.
    package mutating func reserveCapacity(_ count: Int) {
        packed.reserveCapacity(count)
    }

    package func contains(_ id: String) -> Bool {
        if let bytes = Self.packed(id) { return packed.contains(bytes) }
        return texts.contains(id)
    }

    /// `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` in lowercase hex, as 128 bits; nil for any other text.
    private static func packed(_ id: String) -> UUIDBytes? {
        var id = id
        return id.withUTF8 { bytes -> UUIDBytes? in
            guard bytes.count == 36 else { return nil }
            var high: UInt64 = 0, low: UInt64 = 0, digits = 0
            for (offset, byte) in bytes.enumerated() {
                if offset == 8 || offset == 13 || offset == 18 || offset == 23 {
                    guard byte == 0x2D else { return nil }
                    continue
                }
                let value: UInt64
                switch byte {
                case 0x30...0x39: value = UInt64(byte - 0x30)
                case 0x61...0x66: value = UInt64(byte - 0x61 + 10)
                default: return nil
                }
                if digits < 16 { high = high << 4 | value } else { low = low << 4 | value }
                digits += 1
            }
            return UUIDBytes(high: high, low: low)
        }
    }
}
