import Foundation
import Observation
import Storage
import Vocabulary

/// Why a change to the weight log was refused.
public enum WeightLogError: Error, Equatable, CustomStringConvertible, Sendable {
    case noSuchEntry(String)
    case ambiguousEntry(String, matches: [String])
    case idTooShort(String)
    /// Body fat for a day without a weigh-in to carry it.
    case noWeighInOnDay(String)

    public var description: String {
        switch self {
        case let .noWeighInOnDay(day): "there is no weigh-in on \(day) to add body fat to"
        case let .noSuchEntry(id): "no entry has an id starting with '\(id)'"
        case let .ambiguousEntry(id, matches): "'\(id)' matches \(matches.count) entries (\(matches.prefix(5).joined(separator: ", "))); type more of the id"
        case let .idTooShort(id): "'\(id)' is too short to name an entry; type at least 4 characters of the id"
        }
    }
}

/// The loaded weight log and its derived daily series. Shared by the weight and progress Features.
///
/// What is loaded is lean: every weigh-in's instant and weight
/// (`samples`) and the latest few in full (`latestEntries`), so the
/// check-in, the trend and the streak cost a pass over two arrays. Every
/// entry in full (ids and notes) is read only when a command needs it
/// (`allEntries()`): listing, editing, deleting, importing.
@MainActor
@Observable
public final class WeightLogManager {
    /// Every weigh-in's instant and weight, oldest first.
    public private(set) var samples = WeightSamples()
    /// The latest entries in full, oldest first: the tail of the log, at most `latestCount` long.
    public private(set) var latestEntries: [WeightEntry] = []
    /// Bumped on every change, so caches of derived values know when to rebuild.
    public private(set) var revision = 0

    /// How many of the latest entries are read in full with the samples.
    public static let latestCount = 16

    @ObservationIgnored private let repository: any WeightRepository
    @ObservationIgnored private let loader: FreshLoader
    /// Every entry in full, once a command needed them; nil until then and after a reload.
    @ObservationIgnored private var loadedEntries: [WeightEntry]?
    @ObservationIgnored private var cachedSeries: (revision: Int, zone: String, series: DailySeries)?
    @ObservationIgnored private var cachedDays: LocalDays?
    /// The count of changes the loaded samples were read at; nil once this process wrote since.
    @ObservationIgnored private var loadedVersion: Int?

    public init(repository: any WeightRepository) {
        self.repository = repository
        loader = FreshLoader(version: { try await repository.externalVersion() })
    }

    public var isLoading: Bool { loader.isLoading }
    public var hasLoaded: Bool { loader.hasLoaded }
    public var lastError: (any Error)? { loader.lastError }

    public func startLoading() { loader.start(performLoad) }

    /// Reads the log again after a write, if it was read at all (see `FreshLoader.refresh`).
    public func reload() async { await loader.refresh(performLoad) }

    /// Loads once, and again when another process has written since;
    /// throws the storage error when the log could not be read.
    public func ensureLoaded() async throws { try await loader.ensureLoaded(performLoad) }

    /// Every entry in full, oldest first, read on first use.
    /// - Complexity: O(entries) on the first call after a load, then O(1).
    public func allEntries() async throws -> [WeightEntry] {
        try await ensureLoaded()
        if let loadedEntries { return loadedEntries }
        let all = try await repository.allEntries()
        // Read later than the samples: let them agree with what was read now.
        let samples = WeightSamples(all)
        if samples != self.samples { revision += 1 }
        self.samples = samples
        latestEntries = Array(all.suffix(Self.latestCount))
        loadedEntries = all
        return all
    }

    /// The entries from `start` to `end` (inclusive), oldest first.
    /// The weigh-ins with body fat from `start` up to `end`, read lean from the table.
    public func bodyFatSamples(from start: Date, before end: Date) async throws -> BodyFatSamples {
        try await ensureLoaded()
        return try await repository.bodyFatSamples(from: start.timeIntervalSince1970, before: end.timeIntervalSince1970)
    }

    public func entries(from start: Date, to end: Date) async throws -> [WeightEntry] {
        try await ensureLoaded()
        if let loadedEntries { return loadedEntries.filter { $0.date >= start && $0.date <= end } }
        return try await repository.entries(from: start.timeIntervalSince1970, to: end.timeIntervalSince1970)
    }

    /// Up to `limit` entries past `cursor` (nil: from the end), newest or
    /// oldest first, from `start` up to `end`: a listing read a page at a time.
    public func page(after cursor: WeightEntry?, newestFirst: Bool, from start: Date, before end: Date, limit: Int) async throws -> [WeightEntry] {
        try await ensureLoaded()
        return try await repository.page(after: cursor, newestFirst: newestFirst, from: start.timeIntervalSince1970,
                                         before: end.timeIntervalSince1970, limit: limit)
    }

    /// The entries whose note holds `text`, newest first, at most `limit`.
    public func entries(noteContaining text: String, limit: Int) async throws -> [WeightEntry] {
        try await ensureLoaded()
        return try await repository.entries(noteContaining: text, limit: limit)
    }

    /// The latest entry at or before `now`; failing that (every entry is
    /// later, a clock set back), the latest whose local day is not after `today`.
    public func latestEntry(upTo now: Date, today: Int, localDays: LocalDays) -> WeightEntry? {
        latestEntries.last { $0.date <= now } ?? latestEntries.last { localDays.day(of: $0.date) <= today }
    }

    /// Makes sure `latestEntry(upTo:)` has what it needs: when the tail holds
    /// no entry at or before `now` (a clock set back, or an undo emptied it)
    /// but the log does, that entry is read.
    public func ensureLatest(upTo now: Date) async throws {
        // The tail in memory already holds one: nothing to ask the store (not even whether it changed).
        guard !latestEntries.contains(where: { $0.date <= now }) else { return }
        try await ensureLoaded()
        let instant = now.timeIntervalSince1970
        guard !latestEntries.contains(where: { $0.date <= now }),
              let last = samples.seconds.lastIndex(where: { $0 <= instant }) else { return }
        let found = try await repository.entries(from: samples.seconds[last], to: samples.seconds[last])
        let known = Set(latestEntries.map(\.id))
        latestEntries.insert(contentsOf: found.filter { !known.contains($0.id) }, at: 0)
    }

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
        let series = DailySeries(sortedSeconds: samples.seconds, kilograms: samples.kilograms, localDays: localDays(for: timeZone))
        cachedSeries = (revision, timeZone.identifier, series)
        return series
    }

    /// Stores a new entry, journaled under `journal`.
    public func record(_ entry: WeightEntry, journal: JournalEntry? = nil) async throws {
        try await ensureLoaded()
        let before = loadedVersion.map { (samples: samples, version: $0) }
        loadedVersion = nil
        try await repository.insert(entry, journal: journal, samplesBefore: before)
        apply(removing: nil, inserting: entry)
    }

    /// Stores `entry` in place of the one with its id; returns what it replaced.
    public func replace(_ entry: WeightEntry, journal: JournalEntry? = nil) async throws -> WeightEntry {
        guard let before = try await allEntries().first(where: { $0.id == entry.id }) else { throw WeightLogError.noSuchEntry(entry.id) }
        guard try await repository.update(entry, journal: journal) else { throw WeightLogError.noSuchEntry(entry.shortID) }
        loadedVersion = nil
        apply(removing: before, inserting: entry)
        return before
    }

    /// Removes the entry with the id; returns it.
    public func delete(id: String, journal: JournalEntry? = nil) async throws -> WeightEntry {
        guard let entry = try await allEntries().first(where: { $0.id == id }) else { throw WeightLogError.noSuchEntry(id) }
        guard try await repository.delete(id: id, journal: journal) else { throw WeightLogError.noSuchEntry(entry.shortID) }
        loadedVersion = nil
        apply(removing: entry, inserting: nil)
        return entry
    }

    /// The entry whose id starts with `prefix` (at least 4 characters, case-insensitive).
    public func entry(matching prefix: String) async throws -> WeightEntry {
        let typed = IDPrefix(prefix)
        // `delete last`, `edit last 81.6`: the latest weigh-in.
        if typed.meansLatest {
            guard let latest = try await allEntries().last else { throw WeightLogError.noSuchEntry(prefix) }
            return latest
        }
        guard typed.isLongEnough else { throw WeightLogError.idTooShort(prefix) }
        let matches = try await allEntries().filter { typed.matches($0.id) }
        guard let first = matches.first else { throw WeightLogError.noSuchEntry(prefix) }
        guard matches.count == 1 else {
            throw WeightLogError.ambiguousEntry(prefix, matches: WeightEntry.distinguishingPrefixes(of: matches.map(\.id)))
        }
        return first
    }

    /// Applies a stored change to what is loaded: the samples, the tail, and every entry when read.
    private func apply(removing old: WeightEntry?, inserting new: WeightEntry?) {
        // The same order as the repository's: by instant, then id.
        func precedes(_ a: WeightEntry, _ b: WeightEntry) -> Bool { (a.date, a.id) < (b.date, b.id) }
        func insertSorted(_ entry: WeightEntry, into list: inout [WeightEntry]) {
            let index = list.lastIndex { precedes($0, entry) }.map { $0 + 1 } ?? 0
            list.insert(entry, at: index)
        }
        if let old {
            samples.remove(old)
            loadedEntries?.removeAll { $0.id == old.id }
            latestEntries.removeAll { $0.id == old.id }
        }
        var appended = false
        if let new {
            let atEnd = samples.insert(new)
            appended = atEnd && old == nil
            if loadedEntries != nil { insertSorted(new, into: &loadedEntries!) }
            // The tail stays the true tail: an entry older than its first is not part of it.
            if latestEntries.isEmpty ? atEnd : !precedes(new, latestEntries[0]) {
                insertSorted(new, into: &latestEntries)
            }
        }
        if let loadedEntries { latestEntries = Array(loadedEntries.suffix(Self.latestCount)) }
        if latestEntries.count > Self.latestCount { latestEntries.removeFirst(latestEntries.count - Self.latestCount) }
        // Keep the cached series warm: one entry on or after its last day is O(1).
        if appended, let new, var cached = cachedSeries, cached.revision == revision, let days = cachedDays,
           days.timeZoneIdentifier == cached.zone,
           cached.series.append(kilograms: new.kilograms, onDay: days.day(of: new.date)) {
            revision += 1
            cached.revision = revision
            cachedSeries = cached
            return
        }
        revision += 1
    }

    private func performLoad() async throws {
        let loaded = try await repository.samples(withLatest: Self.latestCount)
        if loaded.samples != samples || loaded.latest != latestEntries { revision += 1 }
        samples = loaded.samples
        latestEntries = loaded.latest
        loadedVersion = loaded.version
        loadedEntries = nil
    }
}
