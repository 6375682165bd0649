import Foundation
import Storage

/// Where the deck state is kept.
public protocol TipDeckRepository: Sendable {
    /// Loads the state (creating it with `seed` when there is none), lets
    /// `change` draw, and saves the result — all in one transaction, so two
    /// processes drawing at once do not deal the same position twice.
    /// `at` is when, for the journal entry that carries the change to the other devices.
    func update<T: Sendable>(seed: UInt64, at: Date, _ change: @Sendable (inout TipDeckState) -> T) async throws -> T
}

/// The deck state in the `tip_deck` table, through `TipDeckTable`.
public actor LocalTipDeckRepository: TipDeckRepository {
    private let store: LocalDataStore

    public init(store: LocalDataStore) {
        self.store = store
    }

    /// Runs on the store's own thread, never on the cooperative pool.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { store.executor.asUnownedSerialExecutor() }

    public func update<T: Sendable>(seed: UInt64, at: Date, _ change: @Sendable (inout TipDeckState) -> T) throws -> T {
        // Most calls only read back the day's tip: answer those without a write transaction.
        // A deck never saved yet is the seed's fresh one: reading it writes nothing either.
        let stored = try store.read { try TipDeckTable.state(in: $0) } ?? TipDeckState(seed: seed)
        var copy = stored
        let result = change(&copy)
        if copy == stored { return result }
        // Journaled only so it travels (DESIGN §8): `history` does not list it and `undo` passes it by.
        let journal = JournalEntry(action: "tip", summary: "tip deck dealt", at: at, keptOutOfHistory: true)
        return try store.write(journal: journal) { connection in
            var state = try TipDeckTable.state(in: connection) ?? TipDeckState(seed: seed)
            let result = change(&state)
            try TipDeckTable.save(state, in: connection)
            return result
        }
    }
}
