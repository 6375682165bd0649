import Settings
import Foundation
import Observation
import Storage

/// Why a change to the weight log was refused.
public enum WeightLogError: Error, Equatable, CustomStringConvertible, Sendable {
    case noSuchEntry(String)
    case ambiguousEntry(String, matches: [String])
    case idTooShort(String)
    case nothingToUndo

    public var description: String {
        switch self {
        case let .noSuchEntry(id): "no entry has an id starting with '\(id)'"
        case let .ambiguousEntry(id, matches): "'\(id)' matches \(matches.count) entries (\(matches.prefix(5).joined(separator: ", "))); type more of the id"
        case let .idTooShort(id): "'\(id)' is too short to name an entry; type at least 4 characters of the id"
        case .nothingToUndo: "nothing to undo: no weigh-in was recorded, edited or deleted in this session"
        }
    }
}

/// The loaded weight log, its derived daily series, and the undo history of
/// this session. Shared by the weight and progress Features.
@MainActor
@Observable
public final class WeightLogManager {
    /// Every entry, oldest first.
    public private(set) var entries: [WeightEntry] = []
    /// Bumped on every change, so caches of derived values know when to rebuild.
    public private(set) var revision = 0

    /// A change that `undo` can take back.
    public enum Change: Sendable, Equatable {
        case recorded(WeightEntry)
        case edited(before: WeightEntry, after: WeightEntry)
        case deleted(WeightEntry)
    }

    @ObservationIgnored private let repository: any WeightRepository
    @ObservationIgnored private let loader: FreshLoader
    @ObservationIgnored private var undoStack: [Change] = []
    @ObservationIgnored private var cachedSeries: (revision: Int, zone: String, series: DailySeries)?
    @ObservationIgnored private var cachedDays: LocalDays?

    public init(repository: any WeightRepository) {
        self.repository = repository
        loader = FreshLoader(version: { try await repository.externalVersion() })
    }

    public var isLoading: Bool { loader.isLoading }
    public var hasLoaded: Bool { loader.hasLoaded }
    public var lastError: (any Error)? { loader.lastError }

    public func startLoading() { loader.start(performLoad) }

    /// Reads the log again (joining a read in flight): another process may have written.
    public func reload() async { await loader.reload(performLoad) }

    /// Loads once, and again when another process has written since;
    /// throws the storage error when the log could not be read.
    public func ensureLoaded() async throws { try await loader.ensureLoaded(performLoad) }

    /// The day table for a time zone, built once and kept.
    public func localDays(for timeZone: TimeZone) -> LocalDays {
        if let cachedDays, cachedDays.timeZoneIdentifier == timeZone.identifier { return cachedDays }
        let days = LocalDays.shared(for: timeZone)
        cachedDays = days
        return days
    }

    /// The daily values and trend in a time zone, rebuilt only after a change.
    public func dailySeries(in timeZone: TimeZone) -> DailySeries {
        if let cachedSeries, cachedSeries.revision == revision, cachedSeries.zone == timeZone.identifier {
            return cachedSeries.series
        }
        let series = DailySeries(sortedSeconds: entries.map(\.date.timeIntervalSince1970),
                                 kilograms: entries.map(\.kilograms), localDays: localDays(for: timeZone))
        cachedSeries = (revision, timeZone.identifier, series)
        return series
    }

    public func record(_ entry: WeightEntry) async throws {
        try await ensureLoaded()
        try await repository.insert(entry)
        insertSorted(entry)
        undoStack.append(.recorded(entry))
    }

    public func replace(_ entry: WeightEntry) async throws -> WeightEntry {
        try await ensureLoaded()
        guard let before = entries.first(where: { $0.id == entry.id }) else { throw WeightLogError.noSuchEntry(entry.id) }
        guard try await repository.update(entry) else { throw WeightLogError.noSuchEntry(entry.shortID) }
        removeLocally(id: entry.id)
        insertSorted(entry)
        undoStack.append(.edited(before: before, after: entry))
        return before
    }

    public func delete(id: String) async throws -> WeightEntry {
        try await ensureLoaded()
        guard let entry = entries.first(where: { $0.id == id }) else { throw WeightLogError.noSuchEntry(id) }
        guard try await repository.delete(id: id) else { throw WeightLogError.noSuchEntry(entry.shortID) }
        removeLocally(id: id)
        undoStack.append(.deleted(entry))
        return entry
    }

    /// Takes back the most recent change of this session and returns it.
    public func undo() async throws -> Change {
        try await ensureLoaded()
        guard let change = undoStack.last else { throw WeightLogError.nothingToUndo }
        switch change {
        case let .recorded(entry):
            _ = try await repository.delete(id: entry.id)
            removeLocally(id: entry.id)
        case let .edited(before, _):
            _ = try await repository.update(before)
            removeLocally(id: before.id)
            insertSorted(before)
        case let .deleted(entry):
            try await repository.insert(entry)
            insertSorted(entry)
        }
        undoStack.removeLast()
        return change
    }

    /// The entry whose id starts with `prefix` (at least 4 characters, case-insensitive).
    public func entry(matching prefix: String) throws -> WeightEntry {
        let lower = prefix.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "#"))
        guard lower.count >= 4 else { throw WeightLogError.idTooShort(prefix) }
        let matches = entries.filter { $0.id.hasPrefix(lower) }
        guard let first = matches.first else { throw WeightLogError.noSuchEntry(prefix) }
        guard matches.count == 1 else { throw WeightLogError.ambiguousEntry(prefix, matches: matches.map(\.shortID)) }
        return first
    }

    private func insertSorted(_ entry: WeightEntry) {
        // The same order as the repository's: by instant, then id.
        func precedes(_ a: WeightEntry, _ b: WeightEntry) -> Bool { (a.date, a.id) < (b.date, b.id) }
        let appendsInOrder = entries.last.map { precedes($0, entry) } ?? true
        if appendsInOrder {
            entries.append(entry)
            // Keep the cached series warm: one entry on or after its last day is O(1).
            if var cached = cachedSeries, cached.revision == revision, let days = cachedDays,
               days.timeZoneIdentifier == cached.zone,
               cached.series.append(kilograms: entry.kilograms, onDay: days.day(of: entry.date)) {
                revision += 1
                cached.revision = revision
                cachedSeries = cached
                return
            }
        } else {
            let index = entries.firstIndex { precedes(entry, $0) } ?? entries.endIndex
            entries.insert(entry, at: index)
        }
        revision += 1
    }

    private func removeLocally(id: String) {
        entries.removeAll { $0.id == id }
        revision += 1
    }

    private func performLoad() async throws {
        let loaded = try await repository.allEntries()
        if loaded != entries { revision += 1 }
        entries = loaded
    }
}
