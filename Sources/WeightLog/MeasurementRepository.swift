import Foundation
import Storage

/// Where tape measurements are kept.
public protocol MeasurementRepository: Sendable {
    /// Every measurement, oldest first.
    func allMeasurements() async throws -> [BodyMeasurement]
    /// Adds measurements in one transaction, journaled under `journal`.
    func insert(_ measurements: [BodyMeasurement], journal: JournalEntry?) async throws
    /// Replaces the measurement with the same id; false when there is none.
    func update(_ measurement: BodyMeasurement, journal: JournalEntry?) async throws -> Bool
    /// Removes a measurement; false when there is none.
    func deleteMeasurement(id: String, journal: JournalEntry?) async throws -> Bool
    /// Changes when another process has written; see `LocalDataStore.externalVersion()`.
    func externalVersion() async throws -> Int
}

/// Measurements in the `measurements` table, through `MeasurementTable`: the weigh-ins'
/// repository, on the same store and thread, serves the tape measures too.
extension LocalWeightRepository: MeasurementRepository {
    public func allMeasurements() throws -> [BodyMeasurement] {
        try store.read { try MeasurementTable.all(in: $0) }
    }

    public func insert(_ measurements: [BodyMeasurement], journal: JournalEntry?) throws {
        try store.write(journal: journal) { connection in
            for measurement in measurements { try MeasurementTable.insert(measurement, in: connection) }
        }
    }

    public func update(_ measurement: BodyMeasurement, journal: JournalEntry?) throws -> Bool {
        try store.write(journal: journal) { try MeasurementTable.update(measurement, in: $0) }
    }

    public func deleteMeasurement(id: String, journal: JournalEntry?) throws -> Bool {
        try store.write(journal: journal) { try MeasurementTable.delete(id: id, in: $0) }
    }
}
