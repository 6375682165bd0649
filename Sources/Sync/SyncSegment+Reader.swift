import Foundation
import Storage

extension SyncSegment {
    /// A segment or checkpoint read from its bytes as they come, `piece` changes at a time, so a checkpoint of
    /// a million rows is never held whole: the header first, then each piece's changes, parsed and checked as
    /// `parse` checks them. The pieces stand only once `finish` finds the file whole; until then they may be undone.
    struct Reader {
        let name: String
        let installation: String
        let range: (first: Int, last: Int, checkpoint: Bool)
        /// Changes to a piece: `take` hands on a piece of this many once the file is seen to hold more.
        let piece: Int
        /// Threads to parse on (fewer while a merge runs beside the reading).
        var threads: Int
        let check: @Sendable (SyncChange) -> SyncLedger.Checked
        /// The file as its header describes it, without changes, once its first line is read.
        private(set) var header: SyncSegment?
        private var expected = 0
        /// Bytes read: from `start`, those not yet parsed, whole lines (each ending at one of `ends`), then part of one.
        private var bytes: [UInt8] = []
        private var start = 0
        private var ends: [Int] = []
        /// Changes read so far.
        private(set) var count = 0

        init(name: String, installation: String, piece: Int, threads: Int,
             check: @escaping @Sendable (SyncChange) -> SyncLedger.Checked) throws(Problem) {
            guard let range = SyncSegment.range(ofName: name) else { throw .malformed(name, line: 0) }
            (self.name, self.installation, self.range) = (name, installation, range)
            (self.piece, self.threads, self.check) = (max(1, piece), threads, check)
        }

        /// Takes the file's next bytes; returns the pieces they complete.
        mutating func take(_ chunk: UnsafeRawBufferPointer) throws(Problem) -> [SyncSegment] {
            var from = bytes.count
            bytes.append(contentsOf: chunk)
            bytes.withUnsafeBytes { all in
                guard let base = all.baseAddress else { return }
                while from < all.count, let found = memchr(base + from, 0x0A, all.count - from) {
                    let index = base.distance(to: UnsafeRawPointer(found))
                    ends.append(index)
                    from = index + 1
                }
            }
            if header == nil, let end = ends.first {
                (header, expected) = try Self.header(bytes[start..<end], name: name, range: range, installation: installation)
                drop(1)
            }
            guard header != nil else { return [] }
            // More lines than the header counts: it is not the file it says.
            guard count + ends.count <= expected else { throw .malformed(name, line: 1) }
            // A piece is handed on once a line past it is read: a file of `piece` changes or fewer comes whole from `finish`.
            var pieces: [SyncSegment] = []
            while ends.count > piece { pieces.append(try parse(piece)) }
            return pieces
        }

        /// The end of the file: its last piece, once the whole file is found to be as its header says.
        mutating func finish() throws(Problem) -> SyncSegment {
            guard header != nil, bytes.count == (ends.last.map { $0 + 1 } ?? start) else { throw .cutShort(name) }
            guard count + ends.count == expected else { throw count + ends.count < expected ? .cutShort(name) : .malformed(name, line: 1) }
            return try parse(ends.count)
        }

        /// The next `lines` lines' changes, as a piece of the file.
        private mutating func parse(_ lines: Int) throws(Problem) -> SyncSegment {
            guard let header else { throw .cutShort(name) }
            // The lines' slices share the bytes' storage: they are gone before `drop` moves the bytes left, in place.
            let read = {
                var slices: [ArraySlice<UInt8>] = []
                slices.reserveCapacity(lines)
                var from = start
                for end in ends.prefix(lines) {
                    slices.append(bytes[from..<end])
                    from = end + 1
                }
                return SyncSegment.parseLines(slices, threads: threads, check: check)
            }()
            var changes: [SyncChange] = [], ready: [SyncLedger.Ready] = [], leftOut: [Int: String] = [:], lastMs: Int?
            changes.reserveCapacity(read.count)
            ready.reserveCapacity(read.count)
            for (index, read) in read.enumerated() {
                guard let (change, checked) = read else { throw .malformed(name, line: count + index + 2) }
                guard range.checkpoint || change.clock.origin == installation else { throw .foreign(name, claims: change.clock.origin) }
                lastMs = max(lastMs ?? change.clock.ms, change.clock.ms)
                if let problem = checked.problem { leftOut[changes.count] = problem }
                changes.append(change)
                ready.append(checked.ready)
            }
            count += lines
            drop(lines)
            return SyncSegment(installation: header.installation, device: header.device, first: header.first, last: header.last,
                               isCheckpoint: header.isCheckpoint, writtenMs: header.writtenMs, seen: header.seen, changes: changes,
                               leftOut: leftOut, lastMs: lastMs, ready: ready)
        }

        /// Forgets the first `lines` whole lines; their bytes go once they are most of those held.
        private mutating func drop(_ lines: Int) {
            guard lines > 0 else { return }
            start = ends[lines - 1] + 1
            ends.removeFirst(lines)
            guard start > 1 << 20, start > bytes.count / 2 else { return }
            bytes.removeFirst(start)
            for index in ends.indices { ends[index] -= start }
            start = 0
        }

        /// The header line read back, with the changes it counts: for `installation`, with the name's range, and
        /// for a segment a count that fills it.
        private static func header(_ line: ArraySlice<UInt8>, name: String, range: (first: Int, last: Int, checkpoint: Bool),
                                   installation: String) throws(Problem) -> (SyncSegment, Int) {
            let parsed = line.withUnsafeBytes { bytes in
                FlatJSON.objects(bytes, make: { [String: FlatJSON.Value]() }) { object, key, value in
                    object[key] = value
                    return object.count <= 10_000
                }
            }
            guard let objects = parsed, objects.count == 1 else { throw .malformed(name, line: 1) }
            let header = objects[0]
            let kind = range.checkpoint ? "trend-checkpoint" : "trend-sync"
            guard header[kind] == .number(1), case let .string(claimed)? = header["installation"],
                  case let .number(first)? = header["first"], case let .number(last)? = header["last"],
                  case let .number(count)? = header["count"], case let .number(at)? = header["at"],
                  let counted = Int(exactly: count), counted >= 0, let written = Int(exactly: at)
            else { throw .malformed(name, line: 1) }
            guard claimed == installation else { throw .foreign(name, claims: claimed) }
            guard Int(exactly: first) == range.first || range.checkpoint, Int(exactly: last) == range.last,
                  range.checkpoint || counted == range.last - range.first + 1
            else { throw .malformed(name, line: 1) }
            var device = ""
            if case let .string(text)? = header["device"] { device = String(text.prefix(64)) }
            var seen: [String: Int] = [:]
            for (key, value) in header where key.hasPrefix("seen.") {
                if case let .number(number) = value, let seq = Int(exactly: number) { seen[String(key.dropFirst(5))] = seq }
            }
            return (SyncSegment(installation: installation, device: device, first: range.first, last: range.last,
                                isCheckpoint: range.checkpoint, writtenMs: written, seen: seen, changes: []), counted)
        }
    }
}
