/// The `meta` table: facts about this installation (its id, the count of
/// changes every process bumps), kept by Storage itself and never part of a
/// snapshot.
/// Frozen: each migration below is the SQL that shipped, word for word. A
/// test pins its hash (`SchemaTests`); never edit one, add the next.
public struct MetaTable: SchemaOwner {
    public init() {}

    public var migrations: [Migration] {
        [
            // 5: facts about this installation (its id, the count of changes), not part of a snapshot.
            Migration(5, #"""
            CREATE TABLE meta (
                key TEXT PRIMARY KEY NOT NULL,
                value TEXT NOT NULL
            );
            """#),
        ]
    }
}
