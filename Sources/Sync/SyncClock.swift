import Foundation

/// A hybrid logical clock (DESIGN §8): the wall time in milliseconds, a
/// counter for changes within one millisecond (or made while the wall clock
/// stood behind a clock already seen), and the installation that made the
/// change, which breaks ties. Clocks order every change the same way on
/// every device, however far their wall clocks disagree.
///
/// Bounded as Kulkarni et al.'s HLC bounds its counter: a change dated more
/// than a day ahead of this machine is not received (it waits), so no peer
/// pulls this clock further; and the counter this device writes never passes
/// `counterLimit`: past it, the wall time moves on a millisecond instead.
public struct SyncClock: Comparable, Hashable, Sendable {
    public let ms: Int
    public let counter: Int
    public let origin: String

    /// The clock older than every clock a change carries: a column that has no version yet.
    static let zero = SyncClock(ms: 0, counter: 0, origin: "")

    /// The highest counter this device writes. A peer of any Trend accepts up to `acceptedLimit`; a counter
    /// pulled high by a peer (however it got there) makes the next change move the wall time on instead.
    static let counterLimit = 65_535

    /// The most any number of a change (a wall time, a counter) may be, as every Trend reads it: below 2^53,
    /// exact as a JSON number, and far from any overflow when one is added.
    static let acceptedLimit = 9_000_000_000_000_000

    public static func < (lhs: SyncClock, rhs: SyncClock) -> Bool {
        (lhs.ms, lhs.counter, lhs.origin) < (rhs.ms, rhs.counter, rhs.origin)
    }

    /// The clock of a change made now at `origin`, after every clock seen (`last`).
    static func next(after last: (ms: Int, counter: Int), now: Date, origin: String) -> SyncClock {
        let wall = Int((now.timeIntervalSince1970 * 1000).rounded(.down))
        if wall > last.ms { return SyncClock(ms: wall, counter: 0, origin: origin) }
        if last.counter < counterLimit { return SyncClock(ms: last.ms, counter: last.counter + 1, origin: origin) }
        return SyncClock(ms: last.ms + 1, counter: 0, origin: origin)
    }

    /// The clock as a change line and `sync_rows` write it inside a text: `ms.counter.origin`.
    var text: String { "\(ms).\(counter).\(origin)" }
}

/// Read back from its text (in an extension, so the struct keeps its memberwise initialiser).
extension SyncClock {
    /// A clock written as `text` writes it, nil for anything else or a number out of bounds.
    init?(text: Substring) {
        let parts = text.split(separator: ".", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, let ms = Int(parts[0]), let counter = Int(parts[1]), (0..<Self.acceptedLimit).contains(ms),
              (0..<Self.acceptedLimit).contains(counter), String(ms) == parts[0], String(counter) == parts[1],
              parts[2].isEmpty || SyncSegment.isInstallationName(String(parts[2]))
        else { return nil }
        self.init(ms: ms, counter: counter, origin: String(parts[2]))
    }
}

/// The clocks of a row's columns that differ from the clock of the change
/// (or the version) that carries them, by column, with the row's tombstone
/// under `-`: the per-column versions cr-sqlite keeps, in one text,
/// `column=ms.counter.origin;…`, sorted by column (a line's `v` member, `sync_rows.clocks`).
struct ColumnClocks: Equatable, Sendable {
    /// The name the tombstone's clock is kept under (no column is named so).
    static let tombstone = "-"

    var byColumn: [String: SyncClock] = [:]

    var isEmpty: Bool { byColumn.isEmpty }

    subscript(column: String) -> SyncClock? {
        get { byColumn[column] }
        set { byColumn[column] = newValue }
    }

    var text: String {
        byColumn.keys.sorted().map { "\($0)=\(byColumn[$0]?.text ?? "")" }.joined(separator: ";")
    }

    /// The clocks of a text `text` writes, nil for anything else (a bad clock, a column named twice, too many).
    init?(text: String) {
        guard !text.isEmpty else { return }
        let entries = text.split(separator: ";", omittingEmptySubsequences: false)
        guard entries.count <= SyncChange.Fields.columnLimit + 1 else { return nil }
        for entry in entries {
            guard let equals = entry.firstIndex(of: "="), let clock = SyncClock(text: entry[entry.index(after: equals)...]) else { return nil }
            let column = String(entry[..<equals])
            guard !column.isEmpty, byColumn.updateValue(clock, forKey: column) == nil else { return nil }
        }
    }

    init() {}

    init(_ byColumn: [String: SyncClock]) {
        self.byColumn = byColumn
    }
}
