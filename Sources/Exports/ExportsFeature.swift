import Foundation
import Observation
import Settings
import Storage
import Vocabulary
import WeightLog

/// Taking history out: the weigh-ins and tape measures as CSV or Trend JSON, streamed from the database, and a
/// document made elsewhere (an SVG chart, the report's HTML) written to its file. Every file appears whole or not
/// at all (`AtomicFile`). The habits' own export is `HabitsFeature`'s, which owns their tables.
@MainActor
public final class ExportsFeature {
    private let weightLog: WeightLogManager
    private let repository: any WeightRepository
    private let settings: UserSettingsStore
    private let currentDate: @MainActor () -> Date
    public let calendar: Calendar

    /// - Parameters:
    ///   - weightLog: the log, loaded before it is written out.
    ///   - repository: the rows, read a few at a time.
    ///   - settings: the unit weights are shown in, and the goal the JSON carries.
    ///   - calendar: the person's calendar, for a range's days and the dates' offsets.
    ///   - currentDate: the clock: when a JSON export was made.
    public init(weightLog: WeightLogManager, repository: any WeightRepository, settings: UserSettingsStore,
                calendar: Calendar, currentDate: @escaping @MainActor () -> Date) {
        self.weightLog = weightLog
        self.repository = repository
        self.settings = settings
        self.calendar = calendar
        self.currentDate = currentDate
    }

    /// The unit weights are shown in; exports use it unless told to write kilograms.
    public var displayUnit: WeightUnit { settings.unit }

    /// What an export wrote: weigh-ins and tape measures.
    public struct Exported: Sendable, Equatable {
        public let entries: Int
        public let measurements: Int
        /// Weigh-ins written in the unit they were typed in, not the file's (a CSV keeps what was typed).
        public let entriesInOtherUnits: Int
        /// The tape measures written (`waist`), in the order of their columns.
        public let measures: [BodyMeasure]

        public init(entries: Int, measurements: Int, entriesInOtherUnits: Int = 0, measures: [BodyMeasure] = []) {
            self.entries = entries
            self.measurements = measurements
            self.entriesInOtherUnits = entriesInOtherUnits
            self.measures = measures
        }
    }

    /// Writes every entry as CSV (`id,date,weight,unit,note,…`), weights in `unit`, and the tape measures
    /// in columns of their own, streamed from the database to a file that appears whole or not at all.
    /// With `keepsTypedUnits`, a weigh-in typed in a unit is written in it; without it every weight is in `unit`.
    public func exportCSV(to url: URL, unit: WeightUnit, range: DayRange? = nil, keepsTypedUnits: Bool = true) async throws -> Exported {
        try await weightLog.ensureLoaded()
        let zone = calendar.timeZone, repository = self.repository, (start, end) = instants(of: range)
        return try await Self.exporting {
            let writer = try WeightExport.CSVWriter(url: url, unit: unit, timeZone: zone, keepsTypedUnits: keepsTypedUnits)
            let count = try await repository.forEachEntry(from: start, before: end, measurements: { try writer.begin(measurements: $0) }) {
                try writer.write($0)
            }
            try writer.commit()
            return Exported(entries: count, measurements: writer.measurementsWritten, entriesInOtherUnits: writer.rowsInOtherUnits,
                            measures: writer.measurementsWritten == 0 ? [] : writer.measuresWritten)
        }
    }

    /// Writes every entry as Trend's JSON export (kilograms), streamed like
    /// the CSV, in the original Trend app's `WeightStore` shape with the goal.
    public func exportJSON(to url: URL, range: DayRange? = nil) async throws -> Exported {
        try await weightLog.ensureLoaded()
        try await settings.ensureLoaded()
        let exportedAt = currentDate(), goal = settings.goalKilograms
        let zone = calendar.timeZone, repository = self.repository, (start, end) = instants(of: range)
        return try await Self.exporting {
            let writer = try WeightExport.JSONWriter(url: url, timeZone: zone, goalKilograms: goal)
            let count = try await repository.forEachEntry(from: start, before: end, measurements: { writer.begin(measurements: $0) }) {
                try writer.write($0)
            }
            try writer.commit(exportedAt: exportedAt)
            return Exported(entries: count, measurements: writer.measurements.count,
                            measures: Set(writer.measurements.map(\.kind)).sorted())
        }
    }

    /// Writes a document made from the log (the SVG chart) to a file that
    /// appears whole or not at all, as the exports do.
    public func writeDocument(_ text: String, to url: URL) async throws {
        _ = try await Self.exporting {
            try await BlockingPool.shared.run { _ in
                let file = try AtomicFile(url: url)
                try file.append(text)
                try file.commit()
            }
            return 1
        }
    }

    /// Today's local day, for a RANGE an export is given.
    public var today: Int { LocalDays.shared(for: calendar.timeZone).day(of: currentDate()) }

    /// The instants a range of local days spans: from its first midnight up to the one after its last day.
    private func instants(of range: DayRange?) -> (Double, Double) {
        let days = LocalDays.shared(for: calendar.timeZone)
        return (range?.firstDay.map { days.startOfDay($0).timeIntervalSince1970 } ?? -.infinity,
                range?.lastDay.map { days.startOfDay($0 + 1).timeIntervalSince1970 } ?? .infinity)
    }

    /// Runs an export, turning a failed write into the export error that names the file.
    private static func exporting<Written>(_ body: () async throws -> Written) async throws -> Written {
        do {
            return try await body()
        } catch let error as AtomicFile.WriteError {
            throw ExportError.cannotWrite(error.path, reason: error.reason)
        }
    }
}

/// Why an export wrote nothing: the file could not be written, or its name says no kind of export.
public enum ExportError: Error, Equatable, CustomStringConvertible, Sendable {
    case cannotWrite(String, reason: String)
    case unknownType(String)

    public var description: String {
        switch self {
        case let .cannotWrite(path, reason): "cannot write \(path): \(reason)"
        case let .unknownType(path): "cannot tell how to write \(path): use a name ending in .csv, .json or -habits.csv"
        }
    }
}

/// What `export FILE` writes, told once from the file's name (any case): `.html` the report, `.svg` a chart, a name
/// ending in `-habits.csv` the habits in Loop's CSV layout, another `.csv` or `.json` the weigh-ins. Nil: no kind.
public enum ExportKind: Sendable, Equatable {
    case report, chart, habitsCSV, weighInsCSV, weighInsJSON

    /// How the name of a report's file ends.
    public static let reportSuffix = ".html"

    public init?(fileName: String) {
        let name = fileName.lowercased()
        if name.hasSuffix(Self.reportSuffix) {
            self = .report
        } else if name.hasSuffix(".svg") {
            self = .chart
        } else if name.hasSuffix("-habits.csv") {
            self = .habitsCSV
        } else if name.hasSuffix(".csv") {
            self = .weighInsCSV
        } else if name.hasSuffix(".json") {
            self = .weighInsJSON
        } else {
            return nil
        }
    }
}
