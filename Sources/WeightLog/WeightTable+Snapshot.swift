import Foundation
import Storage
import TextFormats

/// Weigh-ins as a recovery snapshot holds them (the `weights` member): written
/// from the table row by row, checked, restored and merged by their owner.
extension WeightTable {
    public var name: String { "weights" }

    /// Weigh-ins as a snapshot holds them: in memory, or, for a large
    /// snapshot file, left in it (`streamed`) and read a batch at a time.
    public struct Part: SnapshotPart, Equatable {
        /// The weigh-ins in memory; none for a streamed part.
        public var entries: [WeightEntry]
        /// The weigh-ins of a large snapshot, left in its file.
        var streamed: StreamedRows?

        public init(entries: [WeightEntry]) {
            self.entries = entries
        }

        init(streamed: StreamedRows) {
            entries = []
            self.streamed = streamed
        }

        public var rowCount: Int { streamed?.count ?? entries.count }

        public var dateSpan: ClosedRange<Date>? {
            if let streamed { return streamed.span }
            guard let first = entries.map(\.date).min(), let last = entries.map(\.date).max() else { return nil }
            return first...last
        }

        /// `[{"bodyFatPercent":…,"id":…,"instant":…,"kilograms":…,"note":…}]`, keys sorted, a missing
        /// note or body fat left out (so a snapshot without body fat hashes as older Trends hashed it).
        /// A streamed part is read whole for it (only a re-indented file's hash needs that).
        public func canonicalMembers() -> [(key: String, value: CanonicalJSON)] {
            let entries = streamed.map { (try? $0.all()) ?? [] } ?? self.entries  // A file gone since: no rows, and the hash says no.
            // The hot loop of a large snapshot (a million rows), written into one buffer.
            var out = CanonicalJSON(reservingCapacity: entries.count * 96 + 2)
            out.array(entries, WeightTable.writeCanonical)
            return [("weights", out)]
        }
    }

    /// One weigh-in's object, keys in sorted order (`WeightField.bySnapshotKey`).
    static func writeCanonical(_ out: inout CanonicalJSON, _ entry: WeightEntry) { WeightEntry.writeCanonical(&out, entry) }

    /// The `weights` member written as the statement steps: a million weigh-ins
    /// never stand in memory together. Rows are read here and copied out a batch
    /// at a time (`CopiedRows`); on a thread of their own (`CanonicalRows`) each
    /// is checked and its text written straight from its columns
    /// (`WeightEntry.writeCanonical(_:row:)`), then hashed and written: on two
    /// cores SQLite and the text overlap. Ids are unique in the table (its
    /// primary key); every other rule a restore applies is checked per row.
    public func members(in connection: SQLiteConnection, checkingRows: Bool) throws -> [SnapshotMember] {
        [SnapshotMember(key: name) { stream in
            try stream.write { $0.raw("[") }
            let rows = CanonicalRows(stream, checking: checkingRows)
            let stage = BackgroundStage<CopiedRows>(depth: 4) { try rows.write($0) }
            defer { stage.drain() }
            try Self.forEachCopiedBatch(of: Self.snapshotBatch, in: connection) { try stage.send($0) }
            try stage.finish()
            try stream.write { $0.raw("]") }
            stream.counted(rows.count, of: name)
        }]
    }

    /// How many weigh-ins a snapshot reads before handing them on to be written.
    static let snapshotBatch = 2_048

    /// Checks copied rows and writes their canonical text, `,` between them, on a
    /// `BackgroundStage`'s thread: the stream is the stage's from its first batch
    /// until it finishes.
    private final class CanonicalRows: @unchecked Sendable {
        // @unchecked: used by one thread at a time, the stage's while it runs (see BackgroundStage).
        private let stream: SnapshotStream
        private let checking: Bool
        private(set) var count = 0

        init(_ stream: SnapshotStream, checking: Bool) {
            self.stream = stream
            self.checking = checking
        }

        func write(_ rows: CopiedRows) throws {
            var out = CanonicalJSON(reservingCapacity: rows.count * 112)
            try rows.forEach { row in
                if checking { try WeightTable.check(row: row, index: count) }
                if count > 0 { out.raw(byte: 0x2C) }
                WeightEntry.writeCanonical(&out, row: row)
                count += 1
            }
            try stream.append(out)
        }
    }

    /// Throws why a stored weigh-in could not be restored from a snapshot (see `problem(with:index:ids:)`;
    /// ids are unique in the table, its primary key).
    fileprivate static func check(_ entry: WeightEntry, index: Int) throws {
        guard WeightEntry.isAcceptedID(entry.id) else {
            throw SnapshotValueError("weight \(index + 1) has an empty or overlong id")
        }
        do {
            try entry.validate()
        } catch {
            throw SnapshotValueError("weight \(index + 1) \(error)")
        }
    }

    /// The same for the row under `row` (`selectAll`'s columns), read part by part; the entry is made only
    /// when a part is in doubt (`WeightEntry.surelyValid`), to pass or to say why.
    static func check(row: some SQLRow, index: Int) throws {
        let places = checkedPlaces
        let sure = !row.isNull(places.id) && !row.isNull(places.date) && !row.isNull(places.kilograms)
            && WeightEntry.surelyValid(idBytes: row.withText(places.id) { $0.count },
                                       date: Date(timeIntervalSince1970: row.double(places.date)),
                                       kilograms: row.double(places.kilograms),
                                       noteBytes: row.isNull(places.note) ? 0 : row.withText(places.note) { $0.count },
                                       bodyFatPercent: row.isNull(places.bodyFat) ? nil : row.double(places.bodyFat))
        if !sure { try check(entryOf: row, index: index) }
    }

    /// The check of the entry the row makes, for a test to hold the two checks together.
    static func check(entryOf row: some SQLRow, index: Int) throws {
        try check(WeightEntry.read(row), index: index)
    }

    /// The columns of the parts a row's check reads.
    private static let checkedPlaces = {
        func place(_ property: String) -> Int32 { Int32(WeightField.all.firstIndex { $0.property == property }!) }
        return (id: place("id"), date: place("date"), kilograms: place("kilograms"), note: place("note"), bodyFat: place("bodyFatPercent"))
    }()

    public func rowCount(in connection: SQLiteConnection) throws -> Int {
        try connection.scalarInt("SELECT count(*) FROM weight_entries") ?? 0
    }

    public func hasRows(in connection: SQLiteConnection) throws -> Bool {
        try connection.scalarInt("SELECT EXISTS (SELECT 1 FROM weight_entries)") == 1
    }

    /// The first and last instant, from the ends of the instant index.
    public func dateSpan(in connection: SQLiteConnection) throws -> ClosedRange<Date>? {
        try connection.query("SELECT min(instant), max(instant) FROM weight_entries WHERE instant IS NOT NULL") { row in
            row.isNull(0) ? nil : Date(timeIntervalSince1970: row.double(0))...Date(timeIntervalSince1970: max(row.double(0), row.double(1)))
        }.first ?? nil
    }

    public func read(in connection: SQLiteConnection) throws -> Part {
        Part(entries: try Self.all(in: connection))
    }

    public func decode(from content: KeyedDecodingContainer<SnapshotKey>) throws -> Part {
        Part(entries: try content.decodeIfPresent([WeightSnapshotRow].self, forKey: SnapshotKey(name))?.map(\.entry) ?? [])
    }

    public func keepingValid(_ part: Part) -> (valid: Part, dropped: [String]) {
        if var streamed = part.streamed {
            // Its problems were found when it was read; they are left out whenever its rows are read again.
            let dropped = streamed.reported ? [] : streamed.problems.map(\.reason)
            streamed.reported = true
            return (Part(streamed: streamed), dropped)
        }
        // Most parts are whole (every snapshot this Trend writes): checked without copying a million rows.
        var ids = SeenIDs()
        guard part.entries.indices.contains(where: { Self.problem(with: part.entries[$0], index: $0, ids: &ids) != nil })
        else { return (part, []) }
        ids = SeenIDs()
        var valid: [WeightEntry] = []
        var dropped: [String] = []
        for index in part.entries.indices {
            if let problem = Self.problem(with: part.entries[index], index: index, ids: &ids) {
                dropped.append(problem)
            } else {
                valid.append(part.entries[index])
            }
        }
        return (Part(entries: valid), dropped)
    }

    /// Why a snapshot's weigh-in cannot be restored (an empty, overlong or repeated id, or a rule
    /// of `WeightEntry.validate()`); nil when it can. A good id joins `ids`.
    static func problem(with entry: WeightEntry, index: Int, ids: inout SeenIDs) -> String? {
        guard WeightEntry.isAcceptedID(entry.id), ids.insert(entry.id) else {
            return "weight \(index + 1) has an empty, overlong or repeated id"
        }
        do {
            try entry.validate()
            return nil
        } catch {
            return "weight \(index + 1) \(error)"
        }
    }

    public func replace(with part: Part, in connection: SQLiteConnection) throws {
        try connection.execute("DELETE FROM weight_entries")
        var insert = BatchedInsert("INSERT INTO weight_entries(\(Self.columns))", columns: WeightField.all.count, in: connection)
        if let streamed = part.streamed {
            try streamed.forEachValid { try insert.add(Self.values($0)) }
        } else {
            for entry in part.entries {
                try insert.add(Self.values(entry))
            }
        }
        try insert.finish()
    }

    public func merge(_ part: Part, in connection: SQLiteConnection) throws -> SnapshotMergeCount {
        guard let streamed = part.streamed else { return try Self.merge(part.entries, in: connection) }
        var merger = try Merger(expecting: streamed.count, in: connection)
        try streamed.forEachValid { try merger.add($0) }
        return try merger.finish()
    }
}
