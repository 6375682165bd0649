import Cryptography
import Foundation
import TextFormats

extension SyncSegment {
    /// A segment or checkpoint read from its bytes as they come, `piece` changes at a time, so a checkpoint of
    /// a million rows is never held whole: the header first, then each piece's changes, parsed and checked as
    /// `parse` checks them. The pieces stand only once `finish` finds the file whole and, for a file of format 2,
    /// signed by its key; until then they may be undone.
    struct Reader {
        let name: String
        let installation: String
        let range: (first: Int, last: Int, checkpoint: Bool)
        /// The key this device pinned for `installation`, if it has: a file signed by another, or unsigned, is refused.
        let pinned: [UInt8]?
        /// Changes to a piece: `take` hands on a piece of this many once the file is seen to hold more.
        let piece: Int
        /// Threads to parse on (fewer while a merge runs beside the reading).
        var threads: Int
        let check: @Sendable (SyncChange) -> SyncLedger.Checked
        /// The file as its header describes it, without changes, once its first line is read.
        private(set) var header: SyncSegment?
        private var expected = 0
        /// The SHA-256 of the file's bytes up to its signature line, as they are read (format 2).
        private var digest: ContentHash?
        /// How far into `bytes` the digest has taken.
        private var hashed = 0
        /// Bytes read: from `start`, those not yet parsed, whole lines (each ending at one of `ends`), then part of one.
        private var bytes: [UInt8] = []
        private var start = 0
        private var ends: [Int] = []
        /// Changes read so far.
        private(set) var count = 0

        init(name: String, installation: String, pinned: [UInt8]? = nil, piece: Int, threads: Int,
             check: @escaping @Sendable (SyncChange) -> SyncLedger.Checked) throws(Problem) {
            guard let range = SyncSegment.range(ofName: name) else { throw .malformed(name, line: 0) }
            (self.name, self.installation, self.range, self.pinned) = (name, installation, range, pinned)
            (self.piece, self.threads, self.check) = (max(1, piece), threads, check)
        }

        /// Lines after the header: the changes, then the signature of a signed file.
        private var linesAfterHeader: Int { expected + (digest == nil ? 0 : 1) }

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
                let read = try Self.header(bytes[start..<end], name: name, range: range, installation: installation)
                (header, expected) = read
                if let key = read.0.key {
                    guard pinned == nil || pinned == key else { throw .wrongKey(name) }
                    do { digest = try ContentHash() } catch { throw .unreadable("\(name) cannot be checked: \(error)") }
                } else if pinned != nil {
                    throw .unsigned(name)
                }
                try hash(through: end + 1)
                drop(1)
            }
            guard header != nil else { return [] }
            // More lines than the header counts: it is not the file it says.
            guard count + ends.count <= linesAfterHeader else { throw .malformed(name, line: 1) }
            // The change lines read whole go into the digest before any is dropped; the signature line never does.
            let changeLines = min(ends.count, expected - count)
            if changeLines > 0 { try hash(through: ends[changeLines - 1] + 1) }
            // A piece is handed on once a change past it is read (the signature line is none): a file of `piece`
            // changes or fewer comes whole from `finish`.
            var pieces: [SyncSegment] = []
            while min(ends.count, expected - count) > piece { pieces.append(try parse(piece)) }
            return pieces
        }

        /// The end of the file: its last piece, once the whole file is found to be as its header says, and signed.
        mutating func finish() throws(Problem) -> SyncSegment {
            try signed()?.verify()
            return try rest()
        }

        /// A signed file's signature, the key it names and the SHA-256 it signed (`Signed.content`), to check.
        struct Signed: Sendable {
            let name: String
            let key: [UInt8]
            /// The SHA-256 of the bytes before the signature line: what the signature is over, and what the next
            /// segment's `previous` names.
            let content: [UInt8]
            let signature: [UInt8]

            func verify() throws(Problem) {
                guard Ed25519.isValid(signature, of: SyncSegment.signatureContext + content, publicKey: key) else { throw .badSignature(name) }
            }
        }

        /// Once the whole file is read: whether it is as its header says, and for a signed file what to check it by
        /// (nil: a file of format 1). `finish` checks it; a run of small files is checked by the last (`previous`).
        mutating func signed() throws(Problem) -> Signed? {
            guard header != nil, bytes.count == (ends.last.map { $0 + 1 } ?? start) else { throw .cutShort(name) }
            guard count + ends.count == linesAfterHeader else {
                throw count + ends.count < linesAfterHeader ? .cutShort(name) : .malformed(name, line: 1)
            }
            guard let digest, let key = header?.key else { return nil }
            let line = bytes[(ends.count > 1 ? ends[ends.count - 2] + 1 : start)..<ends[ends.count - 1]]
            let found: [UInt8]
            do { found = try digest.finishBytes() } catch { throw .unreadable("\(name) cannot be checked: \(error)") }
            guard let signature = Self.signature(line) else { throw .malformed(name, line: count + ends.count + 1) }
            return Signed(name: name, key: key, content: found, signature: signature)
        }

        /// The file's last piece, after `signed`: its changes stand once the signature is checked, or a file after it
        /// that is vouches for it.
        mutating func rest() throws(Problem) -> SyncSegment {
            try parse(ends.count - (digest == nil ? 0 : 1))
        }

        /// The signature line's 64 bytes: `{"signature":"<hex>"}`.
        private static func signature(_ line: ArraySlice<UInt8>) -> [UInt8]? {
            let text = String(decoding: line, as: UTF8.self)
            let prefix = #"{"signature":""#, suffix = #""}"#
            guard text.hasPrefix(prefix), text.hasSuffix(suffix), text.utf8.count == prefix.utf8.count + 128 + suffix.utf8.count else { return nil }
            return Hex.bytes(text.dropFirst(prefix.count).dropLast(suffix.count))
        }

        /// Takes the bytes from `hashed` up to `end` (an offset into `bytes`) into the digest.
        private mutating func hash(through end: Int) throws(Problem) {
            guard let digest, end > hashed else { return }
            let from = hashed
            do {
                try bytes.withUnsafeBytes { all in try digest.update(UnsafeRawBufferPointer(rebasing: all[from..<end])) }
            } catch {
                throw .unreadable("\(name) cannot be checked: \(error)")
            }
            hashed = end
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
                // A segment carries its writer's changes: each holds a version of its (a copy that took a new id sends its
                // earlier changes again under it, among other devices' newer versions of the same rows).
                guard change.clock.origin == installation
                        || range.checkpoint && SyncSegment.isInstallationName(change.clock.origin)
                        || change.older.byColumn.values.contains(where: { $0.origin == installation })
                else { throw range.checkpoint ? .malformed(name, line: count + index + 2) : .foreign(name, claims: change.clock.origin) }
                lastMs = max(lastMs ?? change.clock.ms, change.clock.ms)
                if let problem = checked.problem { leftOut[changes.count] = "line \(count + index + 2): \(problem)" }
                changes.append(change)
                ready.append(checked.ready)
            }
            count += lines
            drop(lines)
            return SyncSegment(installation: header.installation, device: header.device, first: header.first, last: header.last,
                               isCheckpoint: header.isCheckpoint, writtenMs: header.writtenMs, seen: header.seen, changes: changes,
                               key: header.key, previous: header.previous, leftOut: leftOut, lastMs: lastMs, ready: ready)
        }

        /// Forgets the first `lines` whole lines; their bytes go once they are most of those held.
        private mutating func drop(_ lines: Int) {
            guard lines > 0 else { return }
            start = ends[lines - 1] + 1
            ends.removeFirst(lines)
            guard start > 1 << 20, start > bytes.count / 2, hashed >= start else { return }
            bytes.removeFirst(start)
            for index in ends.indices { ends[index] -= start }
            hashed -= start
            start = 0
        }

        /// The key the header of a file's bytes names; nil for an unsigned file (format 1) or a header Trend did not write.
        static func key(ofHeader data: Data, name: String, installation: String) -> [UInt8]? {
            guard let range = SyncSegment.range(ofName: name), let end = data.firstIndex(of: 0x0A) else { return nil }
            return try? header(Array(data[data.startIndex..<end])[...], name: name, range: range, installation: installation).0.key
        }

        /// The header line read back, with the changes it counts: for `installation`, with the name's range, and
        /// for a segment a count that fills it; every number within bounds before it is used.
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
            /// A whole number in `0...limit`, nil for anything else.
            func bounded(_ value: FlatJSON.Value?, _ limit: Int) -> Int? {
                guard case let .number(number)? = value, number >= 0, number <= Double(limit), let whole = Int(exactly: number) else { return nil }
                return whole
            }
            guard header[kind] == .number(1) || header[kind] == .number(2), case let .string(claimed)? = header["installation"],
                  let first = bounded(header["first"], sequenceLimit), let last = bounded(header["last"], sequenceLimit),
                  let counted = bounded(header["count"], sequenceLimit), let written = bounded(header["at"], SyncClock.acceptedLimit)
            else { throw .malformed(name, line: 1) }
            guard claimed == installation else { throw .foreign(name, claims: claimed) }
            guard first == range.first || range.checkpoint, last == range.last, range.checkpoint || counted == range.last - range.first + 1
            else { throw .malformed(name, line: 1) }
            var key: [UInt8]?, previous: [UInt8]?
            if header[kind] == .number(2) {
                guard case let .string(text)? = header["key"], let bytes = Hex.bytes(text), bytes.count == Ed25519.publicKeyBytes else {
                    throw .malformed(name, line: 1)
                }
                key = bytes
                if let named = header["previous"] {
                    guard !range.checkpoint, case let .string(text) = named, let bytes = Hex.bytes(text), bytes.count == 32 else {
                        throw .malformed(name, line: 1)
                    }
                    previous = bytes
                }
            }
            var device = ""
            if case let .string(text)? = header["device"] { device = String(text.prefix(64)) }
            var seen: [String: Int] = [:]
            for (member, value) in header where member.hasPrefix("seen.") {
                if let seq = bounded(value, sequenceLimit) { seen[String(member.dropFirst(5))] = seq }
            }
            return (SyncSegment(installation: installation, device: device, first: range.first, last: range.last,
                                isCheckpoint: range.checkpoint, writtenMs: written, seen: seen, changes: [], key: key,
                                previous: previous), counted)
        }
    }
}
