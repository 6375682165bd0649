import DailyTips
import Habits
import Settings
import Storage
import WeightLog

extension SnapshotSchema {
    /// Every table a person's data lives in, one section per owner, in the
    /// order a restore writes them back. A new table's owner is added here.
    public static let trend = SnapshotSchema([WeightTable(), HabitsTable(), SettingsTable(), TipDeckTable()])
}
