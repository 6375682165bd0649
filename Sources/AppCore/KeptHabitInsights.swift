import Foundation
import Insights
import Storage

/// `habit show`'s insights as last computed, kept in `meta` under `habitInsights` with the count of changes written
/// (`LocalDataStore.changeCount`), the day and the time zone they were computed on: read back while none of these
/// moved, as the habits' checkpoints and the weigh-ins' samples are, and computed again after any change (a weigh-in,
/// a mark, a sync, an undo, a restore), on a new day or in another zone. A cache: what cannot be read or kept costs
/// only the next computation, and what is kept is read as untrusted (a value that does not read is none).
///
/// The value is lines: `kept` with the version, the day and the zone, then for each habit a line `habit` with its name
/// followed by its report's lines (`InsightsReport.keptText`).
actor KeptHabitInsights {
    private let store: LocalDataStore
    static let metaKey = "habitInsights"

    /// What the reports were computed on, besides the data.
    struct Moment: Equatable {
        let day: Int
        let zone: String
    }

    /// The reports kept at one version of the data, by habit name (a rename is a change, so a name names one habit).
    struct Kept {
        let version: Int
        let moment: Moment
        var reports: [String: InsightsReport]

        var text: String {
            (["kept\t\(version)\t\(moment.day)\t\(moment.zone)"] + reports.sorted { $0.key < $1.key }.map { "habit\t\($0.key)\n" + $0.value.keptText })
                .joined(separator: "\n")
        }

        init(version: Int, moment: Moment, reports: [String: InsightsReport] = [:]) {
            (self.version, self.moment, self.reports) = (version, moment, reports)
        }

        /// What `text` wrote; nil for anything else.
        init?(text: String) {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            let head = lines.first?.split(separator: "\t", omittingEmptySubsequences: false) ?? []
            guard head.count == 4, head[0] == "kept", let version = Int(head[1]), let day = Int(head[2]) else { return nil }
            self.init(version: version, moment: Moment(day: day, zone: String(head[3])))
            var rest = lines.dropFirst()
            while let first = rest.first {
                guard first.hasPrefix("habit\t") else { return nil }
                let name = String(first.dropFirst(6)), body = rest.dropFirst().prefix { !$0.hasPrefix("habit\t") }
                guard !name.isEmpty, reports[name] == nil, let report = InsightsReport(keptText: body.joined(separator: "\n")) else { return nil }
                reports[name] = report
                rest = rest.dropFirst(1 + body.count)
            }
        }
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
        try? store.write(notifying: false, waiting: false) { connection in  // A cache: a failure costs only the next computation.
            guard try LocalDataStore.changeCount(in: connection) == version else { return }
            var kept = try Self.kept(in: connection).flatMap { $0.version == version && $0.moment == moment ? $0 : nil }
                ?? Kept(version: version, moment: moment)
            kept.reports[name] = report
            try connection.setMetaValue(kept.text, for: Self.metaKey)
        }
    }

    private static func kept(in connection: SQLiteConnection) throws -> Kept? {
        try connection.metaValue(metaKey).flatMap(Kept.init(text:))
    }
}
