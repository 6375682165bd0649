import DailyTips
import Habits
import Settings
import Storage
import Sync
import WeightLog

extension SnapshotSchema {
    /// Every table a person's data lives in, one section per owner, in the
    /// order a restore writes them back. A new table's owner is added here.
    public static let trend = SnapshotSchema([WeightTable(), MeasurementTable(), HabitsTable(), SettingsTable(), TipDeckTable()])
}

extension DatabaseSchema {
    /// Every table of `trend.sqlite`, by its owner: Storage's own (the facts
    /// of this installation, the journal), then each feature's. A new table's
    /// owner is added here; its migrations take the next free version.
    public static let trend = DatabaseSchema([
        MetaTable(), JournalTables(), SyncTables(), SettingsTable(), WeightTable(), TipDeckTable(), HabitsTable(), MeasurementTable(),
    ])
}
