import Foundation
import Storage

/// Where the deck state is kept.
public protocol TipDeckRepository: Sendable {
    /// Loads the state (creating it with `seed` when there is none), lets
    /// `change` draw, and saves the result — all in one transaction, so two
    /// processes drawing at once do not deal the same position twice.
    func update<T: Sendable>(seed: UInt64, _ change: @Sendable (inout TipDeckState) -> T) async throws -> T
}

/// The deck state in the `tip_deck` table as JSON.
public actor LocalTipDeckRepository: TipDeckRepository {
    private let store: LocalDataStore

    public init(store: LocalDataStore) {
        self.store = store
    }

    public func update<T: Sendable>(seed: UInt64, _ change: @Sendable (inout TipDeckState) -> T) throws -> T {
        // Most calls only read back the day's tip: answer those without a write transaction.
        let stored = try store.read { try Self.state(in: $0) }
        if let stored {
            var copy = stored
            let result = change(&copy)
            if copy == stored { return result }
        }
        return try store.write { connection in
            var state = try Self.state(in: connection) ?? TipDeckState(seed: seed)
            let result = change(&state)
            try Self.save(state, in: connection)
            return result
        }
    }

    /// The saved state, or nil when none was saved or it cannot be read (a fresh deck then starts).
    public static func state(in connection: SQLiteConnection) throws -> TipDeckState? {
        guard let text = try connection.query("SELECT state FROM tip_deck WHERE id = 1", row: { $0.text(0) }).first else {
            return nil
        }
        return try? JSONDecoder().decode(TipDeckState.self, from: Data(text.utf8))
    }

    public static func save(_ state: TipDeckState, in connection: SQLiteConnection) throws {
        let text = String(decoding: (try? JSONEncoder().encode(state)) ?? Data("{}".utf8), as: UTF8.self)
        try connection.run("INSERT INTO tip_deck(id, state) VALUES(1, ?) ON CONFLICT(id) DO UPDATE SET state = excluded.state",
                           [.text(text)])
    }
}
