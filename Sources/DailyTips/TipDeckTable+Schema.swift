import Storage

/// Frozen: each migration below is the SQL that shipped, word for word. A
/// test pins its hash (`MigrationHashTests`); never edit one, add the next.
extension TipDeckTable: SchemaOwner {
    /// The tip deck: bookkeeping, not journaled.
    public var migrations: [Migration] {
        [
            // 3: the daily-tip deck, one row holding its state as JSON.
            Migration(3, #"""
            CREATE TABLE tip_deck (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                state TEXT NOT NULL
            );
            """#),
        ]
    }
}
