import Cryptography
import Foundation
import Storage
import TextFormats

/// A file one installation wrote under `<sync>/trend/<installationID>/`:
/// an immutable segment of its changes `first…last` (`<first>-<last>.jsonl`),
/// or a checkpoint of every row it knew through its change `last`
/// (`checkpoint-<last>.jsonl`). The first line is a header naming the
/// installation, the device, the changes and the installation's public key;
/// one change per line follows, each ending in a newline, so a file cut short
/// is seen as such; the last line is the Ed25519 signature of every byte
/// before it (a file of format 1, written by Trend before 0.3, has none).
public struct SyncSegment: Sendable, Equatable {
    public let installation: String
    public let device: String
    public let first: Int
    public let last: Int
    public let isCheckpoint: Bool
    /// When it was written (the writer's clock, ms).
    public let writtenMs: Int
    /// How far the writer had read each other installation's changes.
    public let seen: [String: Int]
    public let changes: [SyncChange]
    /// The writer's Ed25519 public key, as the header names it (nil: a file of format 1, unsigned).
    public var key: [UInt8]?
    /// The SHA-256 of the bytes its writer's segment before it (through change `first - 1`) signed, as the header
    /// names it: a chain, so a run of segments is vouched for by the signature of its last (nil: none named).
    public var previous: [UInt8]?
    /// The changes that cannot be kept here, by their place in `changes`, and why (as `parse`'s check says).
    var leftOut: [Int: String] = [:]
    /// The wall time of the latest of `changes` (ms), nil for none: found as they are read.
    var lastMs: Int?
    /// What `parse`'s check made ready for the merge of each change, by place in `changes`.
    var ready: [SyncLedger.Ready] = []

    /// The most a segment file may hold; a larger one is passed over.
    static let sizeLimit = 64 * 1_048_576
    /// The most a checkpoint may hold.
    static let checkpointSizeLimit = 512 * 1_048_576
    /// The most changes one segment carries; more are split across segments. A device joining merges a
    /// segment while it reads the next (`SyncWorker.changesPerMerge`): the smaller they are, the sooner it starts.
    static let changesPerSegment = 10_000
    /// The highest sequence number a name or a header may give (2^50): anything past it cannot be a device's
    /// change count, and every sum and `+ 1` of such numbers stays far from overflowing.
    static let sequenceLimit = 1 << 50
    /// The most changes a segment's name may span: Trend writes 10,000 to a segment (50,000 before 0.2), so a
    /// name spanning more is none of its files, and is not waited for.
    static let segmentLimit = 50_000
    /// The text a signature is made over, before the SHA-256 of the file's bytes up to its signature line.
    static let signatureContext = Array("trend sync segment\n".utf8)

    var fileName: String { Self.fileName(first: first, last: last, checkpoint: isCheckpoint) }

    /// Whether this file takes up where the installation's changes applied here (through `applied`) stop: it
    /// goes past them, and a segment starts at or before the next one (a checkpoint holds all before it).
    func follows(_ applied: Int) -> Bool {
        last > applied && (isCheckpoint || first <= applied + 1)
    }

    static func fileName(first: Int, last: Int, checkpoint: Bool) -> String {
        checkpoint ? "checkpoint-\(last).jsonl" : "\(first)-\(last).jsonl"
    }

    /// The range a segment's or checkpoint's name gives, or nil for any other name (a conflict copy, a temporary)
    /// and for one whose numbers cannot be right (past `sequenceLimit`, or a last before its first).
    static func range(ofName name: String) -> (first: Int, last: Int, checkpoint: Bool)? {
        guard name.hasSuffix(".jsonl") else { return nil }
        let stem = name.dropLast(6)
        /// A sequence number as Trend writes it: digits, no leading zero, within the limit (read before any arithmetic).
        func number(_ text: Substring) -> Int? {
            guard (1...16).contains(text.utf8.count), text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), text.first != "0",
                  let value = Int(text), value <= sequenceLimit else { return nil }
            return value
        }
        if stem.hasPrefix("checkpoint-") {
            guard let last = number(stem.dropFirst(11)) else { return nil }
            return (1, last, true)
        }
        let parts = stem.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let first = number(parts[0]), let last = number(parts[1]), last >= first,
              last - first < segmentLimit else { return nil }
        return (first, last, false)
    }

    /// Whether a name is one Trend would give a segment or checkpoint, whatever its numbers (a name
    /// `range(ofName:)` refuses is passed over with a warning that names it, not in silence).
    static func looksLikeSegment(_ name: String) -> Bool {
        guard name.hasSuffix(".jsonl"), !name.hasPrefix(".") else { return false }
        let stem = name.dropLast(6)
        let digits = stem.hasPrefix("checkpoint-") ? stem.dropFirst(11) : stem
        return !digits.isEmpty && digits.utf8.allSatisfy { (0x30...0x39).contains($0) || $0 == 0x2D }
    }

    /// Whether a folder name can be an installation's: letters, digits and dashes, as `installationID` makes them.
    static func isInstallationName(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count) && name.utf8.allSatisfy { $0 == 0x2D || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
    }

    /// The header line, for a file of `count` changes written after it (`SyncWorker` appends the lines), of
    /// format 2 when the file names its key (and ends in a signature), else of format 1.
    func bytes(count: Int) -> [UInt8] {
        var header = CanonicalJSON()
        let format = key == nil ? 1 : 2
        header.raw(isCheckpoint ? "{\"trend-checkpoint\":\(format)" : "{\"trend-sync\":\(format)")
        header.raw(",\"installation\":")
        header.string(installation)
        header.raw(",\"device\":")
        header.string(device)
        header.raw(",\"first\":\(first),\"last\":\(last),\"count\":\(count),\"at\":\(writtenMs)")
        if let key {
            header.raw(",\"key\":")
            header.string(Hex.string(key))
        }
        if let previous, key != nil, !isCheckpoint {
            header.raw(",\"previous\":")
            header.string(Hex.string(previous))
        }
        for peer in seen.keys.sorted() {
            header.raw(",")
            header.string("seen." + peer)
            header.raw(":\(seen[peer] ?? 0)")
        }
        header.raw("}\n")
        return header.bytes
    }

    /// Why a file read from `folder` (named `name`, the installation `folder`'s) is not a segment Trend can apply.
    public enum Problem: Error, Equatable, CustomStringConvertible, Sendable {
        case unreadable(String)
        case malformed(String, line: Int)
        case cutShort(String)
        case foreign(String, claims: String)
        /// Unsigned (format 1), from a device whose key is known: not the device's.
        case unsigned(String)
        /// Signed by a key other than the one this device pinned for the folder's installation.
        case wrongKey(String)
        /// Its signature does not match its bytes (changed after it was written, or never signed by its key).
        case badSignature(String)

        /// Whether the file may yet read whole, as it is (still being copied, or dated ahead of this clock).
        var waits: Bool {
            switch self {
            case .cutShort: true
            case let .unreadable(reason): reason.hasSuffix("it waits")
            default: false
            }
        }

        public var description: String {
            switch self {
            case let .unreadable(reason): reason
            case let .malformed(name, line): "\(name) line \(line) is not a change Trend wrote"
            case let .cutShort(name): "\(name) is cut short (still being copied, or truncated)"
            case let .foreign(name, claims): "\(name) says it is from installation \(claims.prefix(12)), not the folder's"
            case let .unsigned(name): "\(name) is not signed, though its device signs what it writes: it is not the device's, and is not applied"
            case let .wrongKey(name): "\(name) is signed by another key than its device's: it is not the device's, and is not applied"
            case let .badSignature(name): "\(name) does not match its signature (changed after it was written): it is not applied"
            }
        }
    }

    /// Each line's change (nil where a line is not one) and what `check` finds (why it cannot be kept, its row), parsed and
    /// checked a few thousand lines at a time on `threads` threads: a history joining is a hundred thousand lines, each alone.
    static func parseLines(_ lines: [ArraySlice<UInt8>], threads: Int,
                           check: @Sendable (SyncChange) -> SyncLedger.Checked) -> [(SyncChange, SyncLedger.Checked)?] {
        let chunk = 4_096
        let chunks = (lines.count + chunk - 1) / chunk
        let threads = max(1, min(threads, chunks))
        var results = [(SyncChange, SyncLedger.Checked)?](repeating: nil, count: lines.count)
        results.withUnsafeMutableBufferPointer { buffer in
            // Each chunk writes only its own indices of the buffer, which outlives the loop.
            nonisolated(unsafe) let out = buffer
            /// The chunks `thread` of `threads` takes: every `threads`th, from its own.
            @Sendable func parse(_ thread: Int) {
                for part in stride(from: thread, to: chunks, by: threads) {
                    var seen = SyncChange.Seen()
                    for index in (part * chunk)..<min(lines.count, (part + 1) * chunk) {
                        out[index] = SyncChange.parse(lines[index], seen: &seen).map { ($0, check($0)) }
                    }
                }
            }
            BlockingPool.shared.forEachLane(threads, parse)
        }
        return results
    }

    /// A file's bytes read back, checked whole: a header for `installation`, as many changes as it says, each
    /// a change line, the name's range. Segments carry only the installation's own changes; a checkpoint any.
    static func parse(_ data: Data, name: String, installation: String, pinned: [UInt8]? = nil,
                      threads: Int = ProcessInfo.processInfo.activeProcessorCount,
                      check: @escaping @Sendable (SyncChange) -> SyncLedger.Checked = { SyncLedger.Checked(ready: .init(of: $0)) }) throws(Problem) -> SyncSegment {
        var reader = try Reader(name: name, installation: installation, pinned: pinned, piece: .max, threads: threads, check: check)
        var failure: Problem?
        data.withUnsafeBytes { bytes in
            do throws(Problem) {
                _ = try reader.take(bytes)  // No piece is whole before the end: a piece is any size.
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return try reader.finish()
    }
}
