import Dispatch
import Foundation
import Storage

/// A file one installation wrote under `<sync>/trend/<installationID>/`:
/// an immutable segment of its changes `first…last` (`<first>-<last>.jsonl`),
/// or a checkpoint of every row it knew through its change `last`
/// (`checkpoint-<last>.jsonl`). The first line is a header naming the
/// installation, the device and the changes; one change per line follows,
/// each ending in a newline, so a file cut short is seen as such.
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

    var fileName: String { Self.fileName(first: first, last: last, checkpoint: isCheckpoint) }

    /// Whether this file takes up where the installation's changes applied here (through `applied`) stop: it
    /// goes past them, and a segment starts at or before the next one (a checkpoint holds all before it).
    func follows(_ applied: Int) -> Bool {
        last > applied && (isCheckpoint || first <= applied + 1)
    }

    static func fileName(first: Int, last: Int, checkpoint: Bool) -> String {
        checkpoint ? "checkpoint-\(last).jsonl" : "\(first)-\(last).jsonl"
    }

    /// The range a segment's or checkpoint's name gives, or nil for any other name (a conflict copy, a temporary).
    static func range(ofName name: String) -> (first: Int, last: Int, checkpoint: Bool)? {
        guard name.hasSuffix(".jsonl") else { return nil }
        let stem = name.dropLast(6)
        if stem.hasPrefix("checkpoint-") {
            guard let last = Int(stem.dropFirst(11)), last > 0, String(last) == stem.dropFirst(11) else { return nil }
            return (1, last, true)
        }
        let parts = stem.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let first = Int(parts[0]), let last = Int(parts[1]), first >= 1, last >= first,
              String(first) == parts[0], String(last) == parts[1] else { return nil }
        return (first, last, false)
    }

    /// Whether a folder name can be an installation's: letters, digits and dashes, as `installationID` makes them.
    static func isInstallationName(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count) && name.utf8.allSatisfy { $0 == 0x2D || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
    }

    /// The header line, for a file of `count` changes written after it (`SyncWorker` appends the lines).
    func bytes(count: Int) -> [UInt8] {
        var header = CanonicalJSON()
        header.raw(isCheckpoint ? "{\"trend-checkpoint\":1" : "{\"trend-sync\":1")
        header.raw(",\"installation\":")
        header.string(installation)
        header.raw(",\"device\":")
        header.string(device)
        header.raw(",\"first\":\(first),\"last\":\(last),\"count\":\(count),\"at\":\(writtenMs)")
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

        public var description: String {
            switch self {
            case let .unreadable(reason): reason
            case let .malformed(name, line): "\(name) line \(line) is not a change Trend wrote"
            case let .cutShort(name): "\(name) is cut short (still being copied, or truncated)"
            case let .foreign(name, claims): "\(name) says it is from installation \(claims.prefix(12)), not the folder's"
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
            if threads == 1 { parse(0) } else { DispatchQueue.concurrentPerform(iterations: threads, execute: parse) }
        }
        return results
    }

    /// A file's bytes read back, checked whole: a header for `installation`, as many changes as it says, each
    /// a change line, the name's range. Segments carry only the installation's own changes; a checkpoint any.
    static func parse(_ data: Data, name: String, installation: String, threads: Int = ProcessInfo.processInfo.activeProcessorCount,
                      check: @escaping @Sendable (SyncChange) -> SyncLedger.Checked = { SyncLedger.Checked(ready: .init(of: $0)) }) throws(Problem) -> SyncSegment {
        var reader = try Reader(name: name, installation: installation, piece: .max, threads: threads, check: check)
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
