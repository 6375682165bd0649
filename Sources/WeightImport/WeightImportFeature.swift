import Foundation
import Observation
import Settings
import Storage
import Vocabulary
import WeightLog

/// Bringing history in from other trackers: preview (nothing written) and
/// import (an additive merge in one transaction, duplicates skipped). Taking
/// it out again is `ExportsFeature`'s. `onImport` refreshes the weight
/// Features afterwards; `AppModel.live()` wires it.
@MainActor
@Observable
public final class WeightImportFeature {
    public private(set) var isImporting = false
    public private(set) var lastError: (any Error)?

    @ObservationIgnored private let weightLog: WeightLogManager
    @ObservationIgnored private let repository: any WeightRepository
    @ObservationIgnored private let settings: UserSettingsStore
    @ObservationIgnored private let onImport: @MainActor () async -> Void
    @ObservationIgnored private let currentDate: @MainActor () -> Date
    /// Where a reader may put a file it must copy out (a database inside an archive): inside the data directory.
    @ObservationIgnored let scratchFolder: URL?
    public let calendar: Calendar

    /// - Parameters:
    ///   - weightLog: the log an import adds to, read again afterwards.
    ///   - repository: where the rows are written, in one transaction.
    ///   - settings: the unit a file that names none is read in.
    ///   - calendar: the person's calendar, for the days of a file's dates.
    ///   - currentDate: the clock: no row may be dated after it (its skew aside).
    ///   - scratchFolder: a folder of the data directory for an archive's database copied out to be
    ///     read (nil: the system's temporary folder, for tests); nothing an import reads is written anywhere else.
    ///   - onImport: refreshes the weight Features afterwards.
    public init(weightLog: WeightLogManager, repository: any WeightRepository, settings: UserSettingsStore,
                calendar: Calendar, currentDate: @escaping @MainActor () -> Date, scratchFolder: URL? = nil,
                onImport: @escaping @MainActor () async -> Void) {
        self.scratchFolder = scratchFolder
        self.weightLog = weightLog
        self.repository = repository
        self.settings = settings
        self.calendar = calendar
        self.currentDate = currentDate
        self.onImport = onImport
    }

    /// Reads `url` and sorts its rows into new, duplicate and invalid. Writes nothing.
    /// A file of several people's weigh-ins (EufyLife's family members) is
    /// read for `member` only, and refused, naming them, when none is given:
    /// someone else's weights never enter your trend unasked.
    public func preview(_ url: URL, member: String? = nil,
                        progress: @escaping @Sendable (Double) -> Void = { _ in }) async throws -> ImportPreview {
        let reader = try await reader(member: member, progress: progress)
        let outcome = try await BlockingPool.shared.run { _ in try reader.read(url) }
        let chosen = try Self.person(in: outcome, member: member, path: url.path)
        let stored = try await repository.storedKeys()
        var preview = await BlockingPool.shared.run { Self.sort(outcome, against: stored) }
        preview.member = chosen
        return preview
    }

    /// Imports the new rows of `url` in one transaction and refreshes the log.
    /// The file is read on a thread of its own while its rows are written: the
    /// rows are told apart from what is stored inside the writing transaction,
    /// so another process importing meanwhile never gets a row in twice.
    public func importFile(_ url: URL, member: String? = nil,
                           progress: @escaping @Sendable (Double) -> Void = { _ in }) async throws -> ImportResult {
        isImporting = true
        defer { isImporting = false }
        do {
            try PlausibleTime.checkClock(currentDate())
            let batches = WeightBatches()
            // However the insert ends, the reader is let go: a write that failed halfway takes no more batches.
            defer { batches.cancel() }
            var reader = try await reader(member: member, progress: progress)
            reader.batches = batches
            let path = url.path
            let streamed = StreamedImport(batches, fileName: url.lastPathComponent) { try Self.person(in: $0, member: member, path: path) }
            // The reader waits for the storage lane to take its batches: without a thread for each, one would
            // wait for the other forever, so the import fails instead, writing nothing.
            BlockingPool.shared.submit({ [reader] in batches.finish(Result { try reader.read(url) }) },
                                       ifRefused: { batches.finish(.failure(BlockingPool.NoThread())) }, spare: 1)
            let journal = JournalEntry(action: "import", summary: streamed.summary, at: currentDate())
            // About 27 bytes a row in a plain CSV: a guess, for how the rows are written.
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil  // Unknown: a small guess.
            let imported = try await withTaskCancellationHandler {
                try await repository.insert(batches: streamed, expecting: (size ?? 0) / 27, journal: journal).added
            } onCancel: {
                batches.cancel()
            }
            guard let preview = streamed.preview else { throw CancellationError() }
            await onImport()
            lastError = nil
            return ImportResult(preview: preview, imported: imported)
        } catch {
            lastError = error
            throw error
        }
    }

    /// Whether `url` is a SQLite file of weigh-ins this feature reads (Health
    /// Connect's export database) rather than one of habits (a Loop backup).
    public nonisolated static func isWeightDatabase(_ url: URL) -> Bool {
        HealthConnectReader.holdsWeightRecords(path: url.path)
    }

    private func reader(member: String?, progress: @escaping @Sendable (Double) -> Void) async throws -> WeightFileReader {
        try await settings.ensureLoaded()
        var reader = WeightFileReader(displayUnit: settings.unit, dates: ImportDates(localDays: LocalDays.shared(for: calendar.timeZone)),
                                      progress: progress, member: member)
        // One rule for the future, typed or imported: nothing later than the clock allows.
        reader.latestAccepted = currentDate().addingTimeInterval(WhenInput.clockSkew)
        reader.scratchFolder = scratchFolder
        return reader
    }

    /// The person a file's rows are read for: a file of several people's
    /// weigh-ins (EufyLife's family members) is read for `member` only, and
    /// refused, naming them, when none is given: someone else's weights never
    /// enter your trend unasked.
    nonisolated static func person(in outcome: ReadOutcome, member: String?, path: String) throws -> String? {
        if let member {
            guard let chosen = outcome.members.first(where: { $0.lowercased() == member.lowercased() }) else {
                throw ImportError.noSuchMember(path, member: member, members: outcome.members)
            }
            return chosen
        }
        if outcome.members.count > 1 { throw ImportError.severalPeople(path, members: outcome.members) }
        return nil
    }

    /// Splits read rows into new entries and duplicates: of an earlier row of
    /// the file (`ImportSorter`) or of a stored weigh-in.
    nonisolated static func sort(_ outcome: ReadOutcome, against stored: StoredWeightKeys) -> ImportPreview {
        var sorter = ImportSorter()
        var fresh: [WeightEntry] = []
        fresh.reserveCapacity(outcome.weights.count)
        for weight in outcome.weights {
            if let entry = sorter.sort(weight), !stored.holds(entry, idFromFile: weight.id != nil) { fresh.append(entry) }
        }
        var preview = ImportPreview(format: outcome.format, version: outcome.version, unit: outcome.unit, unitAssumed: outcome.unitAssumed,
                                    newEntries: fresh, newCount: fresh.count, duplicates: outcome.weights.count - fresh.count + outcome.repeated,
                                    invalid: outcome.invalid, skipped: outcome.skipped, first: sorter.first, last: sorter.last)
        preview.measurements = outcome.measurements.count
        preview.measures = Set(outcome.measurements.map(\.kind)).sorted()
        preview.shortenedNotes = outcome.shortenedNotes
        return preview
    }
}
