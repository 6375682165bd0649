import Foundation
import Insights
import Storage

/// `habit show`'s insights as last computed, kept in `meta` under `habitInsights` with the count of changes written
/// (`LocalDataStore.changeCount`), the day and the time zone they were computed on: read back while none of these
/// moved, as the habits' checkpoints and the weigh-ins' samples are, and computed again after any change (a weigh-in,
/// a mark, a sync, an undo, a restore), on a new day or in another zone. A cache: what cannot be read or kept costs
/// only the next computation, and what is kept is checked like any stored value (a report that does not decode is
/// none).
actor KeptHabitInsights {
    private let store: LocalDataStore
    static let metaKey = "habitInsights"

    /// What the reports were computed on, besides the data.
    struct Moment: Codable, Equatable {
        let day: Int
        let zone: String
    }

    /// The reports kept at one version of the data, by habit name (a rename is a change, so a name names one habit).
    struct Kept: Codable {
        let version: Int
        let moment: Moment
        var reports: [String: InsightsReport]
    }

    init(store: LocalDataStore) {
        self.store = store
    }

    /// The report kept for `name` when nothing changed since it was computed, and the version of the data now; nil
    /// when the database cannot be read.
    func read(_ name: String, at moment: Moment) -> (report: InsightsReport?, version: Int)? {
        guard let (version, kept) = try? store.readConsistently({ connection in
            (try LocalDataStore.changeCount(in: connection), try Self.kept(in: connection))
        }) else { return nil }
        guard let kept, kept.version == version, kept.moment == moment else { return (nil, version) }
        return (kept.reports[name], version)
    }

    /// Keeps `report` for `name`, unless the data changed since `version` (then it would be kept as what it is not).
    func keep(_ report: InsightsReport, for name: String, version: Int, at moment: Moment) {
        try? store.write(notifying: false) { connection in  // A cache: a failure costs only the next computation.
            guard try LocalDataStore.changeCount(in: connection) == version else { return }
            var kept = try Self.kept(in: connection).flatMap { $0.version == version && $0.moment == moment ? $0 : nil }
                ?? Kept(version: version, moment: moment, reports: [:])
            kept.reports[name] = report
            let text = String(decoding: try JSONEncoder().encode(kept), as: UTF8.self)
            try connection.run("INSERT INTO meta(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                               [.text(Self.metaKey), .text(text)])
        }
    }

    private static func kept(in connection: SQLiteConnection) throws -> Kept? {
        guard let text = try connection.scalarText("SELECT value FROM meta WHERE key = ?", [.text(metaKey)]) else { return nil }
        return try? JSONDecoder().decode(Kept.self, from: Data(text.utf8))
    }
}
