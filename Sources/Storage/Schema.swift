/// The database schema, one migration per version. `PRAGMA user_version`
/// records how many have run; a database is moved forward in one
/// transaction, and one from a newer Trend is refused rather than touched.
enum Schema {
    static let migrations: [String] = [
        // 1: settings, one row per key.
        """
        CREATE TABLE settings (
            key TEXT PRIMARY KEY NOT NULL,
            value TEXT NOT NULL
        );
        """,
    ]

    static var currentVersion: Int { migrations.count }

    static func migrate(_ connection: SQLiteConnection) throws {
        let found = try connection.scalarInt("PRAGMA user_version") ?? 0
        if found > currentVersion {
            throw StorageError.newerSchema(path: connection.path, found: found, supported: currentVersion)
        }
        guard found < currentVersion else { return }
        try connection.execute("BEGIN IMMEDIATE")
        do {
            // Another process may have migrated while this one waited for the lock.
            let version = try connection.scalarInt("PRAGMA user_version") ?? 0
            for migration in migrations.dropFirst(version) {
                try connection.execute(migration)
            }
            try connection.execute("PRAGMA user_version = \(currentVersion)")
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }
}
