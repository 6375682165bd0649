import Foundation
import Storage
import TextFormats

/// The `tip_deck` table, in one place: one row holding the deck state as
/// JSON, its statements, and its form in a recovery snapshot (the
/// `tipDeck` member, the state's text as stored).
public struct TipDeckTable: SnapshotSection {
    public init() {}

    static func text(in connection: SQLiteConnection) throws -> String? {
        try connection.query("SELECT state FROM tip_deck WHERE id = 1", row: { $0.text(0) }).first
    }

    static func write(_ text: String, in connection: SQLiteConnection) throws {
        try connection.run("INSERT INTO tip_deck(id, state) VALUES(1, ?) ON CONFLICT(id) DO UPDATE SET state = excluded.state",
                           [.text(text)])
    }

    /// The saved state, or nil when none was saved. A state that no longer
    /// decodes also gives nil: the deck then starts afresh, which costs the
    /// order of the coming tips and nothing a person recorded.
    public static func state(in connection: SQLiteConnection) throws -> TipDeckState? {
        guard let text = try text(in: connection) else { return nil }
        // Best effort by design (see above): an unreadable state means a fresh deck.
        return try? JSONDecoder().decode(TipDeckState.self, from: Data(text.utf8))
    }

    public static func save(_ state: TipDeckState, in connection: SQLiteConnection) throws {
        try write(String(decoding: try JSONEncoder().encode(state), as: UTF8.self), in: connection)
    }

    // MARK: The snapshot form

    public var name: String { "tipDeck" }

    /// The deck state as a snapshot holds it: the stored text, or none.
    public struct Part: SnapshotPart, Equatable {
        public var text: String?

        public init(text: String?) {
            self.text = text
        }

        public var rowCount: Int { text == nil ? 0 : 1 }

        public func canonicalMembers() -> [(key: String, value: CanonicalJSON)] {
            guard let text else { return [] }
            var out = CanonicalJSON()
            out.string(text)
            return [("tipDeck", out)]
        }
    }

    public func read(in connection: SQLiteConnection) throws -> Part {
        Part(text: try Self.text(in: connection))
    }

    public func decode(from content: KeyedDecodingContainer<SnapshotKey>) throws -> Part {
        Part(text: try content.decodeIfPresent(String.self, forKey: SnapshotKey(name)))
    }

    public func keepingValid(_ part: Part) -> (valid: Part, dropped: [String]) {
        guard (part.text?.utf8.count ?? 0) <= 65_536 else { return (Part(text: nil), ["the tip deck state is overlong"]) }
        return (part, [])
    }

    public func replace(with part: Part, in connection: SQLiteConnection) throws {
        try connection.execute("DELETE FROM tip_deck")
        if let text = part.text { try Self.write(text, in: connection) }
    }

    /// A merge keeps this installation's deck where it is.
    public func merge(_ part: Part, in connection: SQLiteConnection) throws -> SnapshotMergeCount {
        SnapshotMergeCount(duplicates: part.rowCount)
    }
}
