import Foundation
import Storage

/// Frozen: each migration below is the SQL that shipped, word for word. A
/// test pins its hash (`SchemaTests`); never edit one, add the next. The migrations of the tables look alike
/// (the journal's triggers, each table's own) because each is frozen as it shipped: they are not merged.
extension TipDeckTable: SchemaOwner {
    /// The tip deck: bookkeeping, journaled only to travel (migration 23).
    public var migrations: [Migration] {
        [
            // 3: the daily-tip deck, one row holding its state as JSON.
            Migration(3, #"""
            CREATE TABLE tip_deck (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                state TEXT NOT NULL
            );
            """#),
            // 23: the deck travels to the person's other devices (DESIGN §8), so the tip of the day is the same
            // everywhere: the journal records its changes, as bookkeeping (kept out of the history, never undone).
            Migration(23, #"""
            CREATE TRIGGER journal_tip_deck_insert AFTER INSERT ON tip_deck BEGIN
                INSERT INTO journal_rows(table_code, has_before, has_after, a0, a1) SELECT 7, 0, 1, NEW.id, NEW.state FROM journal_recording WHERE id = 1 AND change_id IS NOT NULL;
            END;
            CREATE TRIGGER journal_tip_deck_update AFTER UPDATE ON tip_deck BEGIN
                INSERT INTO journal_rows(table_code, has_before, has_after, b0, b1, a0, a1) SELECT 7, 1, 1, OLD.id, OLD.state, NEW.id, NEW.state FROM journal_recording WHERE id = 1 AND change_id IS NOT NULL;
            END;
            CREATE TRIGGER journal_tip_deck_delete AFTER DELETE ON tip_deck BEGIN
                INSERT INTO journal_rows(table_code, has_before, has_after, b0, b1) SELECT 7, 1, 0, OLD.id, OLD.state FROM journal_recording WHERE id = 1 AND change_id IS NOT NULL;
            END;
            """#),
        ]
    }

    public var journaledTables: [JournaledTable] {
        [JournaledTable(code: 7, name: "tip_deck", noun: "tip deck", key: ["id"], columns: ["id", "state"], undoable: false)]
    }

    /// The deck's state travels, checked as a restore checks it; the latest dealt wins.
    public var syncedTables: [SyncedTable] {
        [SyncedTable(table: journaledTables[0]) { image in
            guard case .int(1)? = image["id"], case let .text(state)? = image["state"] else { return "a tip deck of the wrong kind" }
            guard state.utf8.count <= 65_536, (try? JSONDecoder().decode(TipDeckState.self, from: Data(state.utf8))) != nil else {
                return "a tip deck state that is overlong or unreadable"
            }
            return nil
        }]
    }
}
