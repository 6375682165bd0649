import AppCore
import DailyTips
import Foundation
import Habits
import Settings
import Storage
import WeightLog

/// Test-only ways to build and read snapshot content section by section,
/// through the same table owners the program uses.
extension SnapshotContent {
    public static func of(weights: [WeightEntry] = [], habits: [HabitsTable.Row] = [],
                          habitRecords: [HabitsTable.RecordRow] = [], settings: [SettingsTable.Row] = [],
                          tipDeck: String? = nil, measurements: [BodyMeasurement] = []) -> SnapshotContent {
        SnapshotContent(parts: [
            "weights": WeightTable.Part(entries: weights),
            "measurements": MeasurementTable.Part(rows: measurements.map(MeasurementTable.Row.init)),
            "habits": HabitsTable.Part(habits: habits, records: habitRecords),
            "settings": SettingsTable.Part(rows: settings),
            "tipDeck": TipDeckTable.Part(text: tipDeck),
        ])
    }

    public var weights: [WeightEntry] { part("weights", as: WeightTable.Part.self)?.entries ?? [] }
    public var habits: [HabitsTable.Row] { part("habits", as: HabitsTable.Part.self)?.habits ?? [] }
    public var habitRecords: [HabitsTable.RecordRow] { part("habits", as: HabitsTable.Part.self)?.records ?? [] }
    public var settings: [SettingsTable.Row] { part("settings", as: SettingsTable.Part.self)?.rows ?? [] }
    public var tipDeck: String? { part("tipDeck", as: TipDeckTable.Part.self)?.text }
    public var measurements: [MeasurementTable.Row] { part("measurements", as: MeasurementTable.Part.self)?.rows ?? [] }
}

extension LocalDataStore {
    /// Everything stored, through the program's schema.
    public func readContent() throws -> SnapshotContent {
        try readContent(.trend)
    }

    /// Replaces everything, through the program's schema.
    public func replaceContent(with content: SnapshotContent) throws {
        try replaceContent(with: content, schema: .trend)
    }
}
