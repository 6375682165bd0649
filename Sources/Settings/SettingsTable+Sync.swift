import Storage

/// The portable settings travel to the person's other devices; the sync folder and the device name stay.
extension SettingsTable {
    public var syncedTables: [SyncedTable] {
        [SyncedTable(table: journaledTables[0], onlyKeys: Self.portableKeys) { image in
            guard case let .text(key)? = image["key"], case let .text(value)? = image["value"], Self.portableKeys.contains(key)
            else { return "a setting that is not a portable one, or not text" }
            // Checked as `set` and a restore check it: one check.
            return Self.problem(Row(key: key, value: value), seen: [])
        }]
    }
}
