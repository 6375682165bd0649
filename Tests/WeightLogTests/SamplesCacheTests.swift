import Foundation
import Storage
import Testing
import TestSupport
@testable import WeightLog

/// Issue 19: a long log's instants and weights are read back from one cached
/// row (`weight_samples_cache`) instead of stepping the index, and any change
/// to a weigh-in deletes that row in its own transaction.
@Suite struct SamplesCacheTests {
    /// A store with `count` weigh-ins, one every 7 hours, written straight into the table.
    func store(count: Int) throws -> LocalDataStore {
        let store = LocalDataStore.inMemory()
        try store.write { connection in
            for index in 0..<count {
                try WeightTable.insert(WeightEntry(id: String(format: "w%06d", index), date: Date(timeIntervalSince1970: 1.7e9 + Double(index) * 25_200),
                                                   kilograms: 80 + Double(index % 37) / 10), in: connection)
            }
        }
        return store
    }

    func cached(_ store: LocalDataStore) throws -> WeightSamples? {
        try store.read { try WeightTable.cachedSamples(in: $0) }
    }

    func scanned(_ store: LocalDataStore) throws -> WeightSamples {
        try store.read { try WeightTable.samples(in: $0) }
    }

    @Test func aLongLogIsCachedAndReadBackAsTheIndexGivesIt() async throws {
        let store = try store(count: 2_500)
        let repository = LocalWeightRepository(store: store)
        #expect(try cached(store) == nil)
        let first = try await repository.samples(withLatest: 16)
        #expect(first.samples == (try scanned(store)))
        #expect(try cached(store) == first.samples, "the first read leaves the cache")
        let second = try await repository.samples(withLatest: 16)
        #expect(second.samples == first.samples && second.latest == first.latest)
    }

    @Test func aReadOnlyProcessLeavesTheCacheToTheNextWriterBelowFiftyThousand() async throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let directory = temp.url.appendingPathComponent("data")
        let writer = LocalDataStore(directory: directory)
        try writer.write { connection in
            for index in 0..<2_500 {
                try WeightTable.insert(WeightEntry(id: "w\(index)", date: Date(timeIntervalSince1970: 1.7e9 + Double(index) * 25_200),
                                                   kilograms: 80), in: connection)
            }
        }
        writer.close()
        // A process that only reads: no switch of journal modes for a cache of 2,500.
        let reader = LocalDataStore(directory: directory)
        #expect(!reader.writesCheaply)
        _ = try await LocalWeightRepository(store: reader).samples(withLatest: 16)
        #expect(try cached(reader) == nil)
        // Once it has written (a weigh-in), the cache costs nothing more and is left for the next process.
        try reader.write { try WeightTable.insert(WeightEntry(id: "today", date: Date(timeIntervalSince1970: 1.8e9), kilograms: 80), in: $0) }
        #expect(reader.writesCheaply)
        _ = try await LocalWeightRepository(store: reader).samples(withLatest: 16)
        #expect(try cached(reader)?.count == 2_501)
        reader.close()
    }

    /// The morning's weigh-in leaves the cache the next check-in reads: a process that read the samples without
    /// caching them (read-only, under fifty thousand) caches them with its weigh-in, when nothing changed between;
    /// a cache the table had lives on with the new entry in it. Before, the weigh-in only deleted it.
    @Test func aWeighInLeavesTheCacheWithItsEntryIn() async throws {
        let store = try store(count: 2_500)
        let repository = LocalWeightRepository(store: store)
        let read = try await repository.samples(withLatest: 16)
        // As a read-only process leaves it: no cache (its removal is no change to a weigh-in).
        try store.write(notifying: false) { try $0.run("DELETE FROM weight_samples_cache") }
        let morning = WeightEntry(id: "morning", date: Date(timeIntervalSince1970: 1.9e9), kilograms: 79.5)
        try await repository.insert(morning, journal: nil, samplesBefore: (read.samples, read.version))
        #expect(try cached(store) == (try scanned(store)) && (try cached(store))?.count == 2_501)
        // With the cache there, an entry older than the last lands in its place.
        let older = WeightEntry(id: "older", date: Date(timeIntervalSince1970: 1.70001e9), kilograms: 81)
        try await repository.insert(older, journal: nil, samplesBefore: nil)
        #expect(try cached(store) == (try scanned(store)) && (try cached(store))?.count == 2_502)
        // Samples read before another change are not cached: the change count moved.
        let stale = try await repository.samples(withLatest: 16)
        try store.write(notifying: false) { try $0.run("DELETE FROM weight_samples_cache") }
        try store.write { try WeightTable.insert(WeightEntry(id: "other", date: Date(timeIntervalSince1970: 1.95e9), kilograms: 80), in: $0) }
        try await repository.insert(WeightEntry(id: "late", date: Date(timeIntervalSince1970: 1.96e9), kilograms: 80), journal: nil,
                                    samplesBefore: (stale.samples, stale.version))
        #expect(try cached(store) == nil, "samples read before another process's change are not the table")
    }

    @Test func aShortLogIsNotCached() async throws {
        let store = try store(count: WeightTable.samplesWorthCaching - 1)
        _ = try await LocalWeightRepository(store: store).samples(withLatest: 16)
        #expect(try cached(store) == nil)
    }

    @Test(arguments: ["insert", "update weight", "update instant", "update id", "delete"])
    func everyChangeToAWeighInDeletesTheCache(change: String) async throws {
        let store = try store(count: 2_500)
        let repository = LocalWeightRepository(store: store)
        _ = try await repository.samples(withLatest: 16)
        try #require(try cached(store) != nil)
        try store.write { connection in
            switch change {
            case "insert": try WeightTable.insert(WeightEntry(id: "new", date: Date(timeIntervalSince1970: 1.6e9), kilograms: 90), in: connection)
            case "update weight": try connection.run("UPDATE weight_entries SET kilograms = 70 WHERE id = 'w000100'")
            case "update instant": try connection.run("UPDATE weight_entries SET instant = 1.5e9 WHERE id = 'w000100'")
            case "update id": try connection.run("UPDATE weight_entries SET id = 'a' WHERE id = 'w000100'")
            default: try connection.run("DELETE FROM weight_entries WHERE id = 'w000100'")
            }
        }
        #expect(try cached(store) == nil, "\(change)")
        #expect(try await repository.samples(withLatest: 16).samples == (try scanned(store)), "\(change)")
        // A note is not part of the samples: changing it keeps the cache.
        try store.write { try $0.run("UPDATE weight_entries SET note = 'n' WHERE id = 'w000200'") }
        #expect(try cached(store) != nil)
    }

    @Test func aCacheWithTheWrongLengthIsNotUsedAndEveryWriteCountsAChange() async throws {
        let store = try store(count: 2_500)
        try store.write { connection in
            try connection.run("INSERT INTO weight_samples_cache(id, count, seconds, kilograms) VALUES (1, 3, ?, ?)",
                               [.doubles([1, 2]), .doubles([80, 81])])
        }
        #expect(try cached(store) == nil, "2 doubles where 3 are promised")
        try store.write { try $0.run("UPDATE weight_samples_cache SET count = 2") }
        #expect(try cached(store)?.count == 2, "the test's own row reads back once it agrees")
        for (seconds, kilograms, what) in [([2.0, 1], [80.0, 81], "instants out of order"), ([1, 2], [80, .nan], "a weight that is not a number"),
                                           ([1, 2], [80, 900], "a weight the table refuses"), ([1, .infinity], [80, 81], "an endless instant")] {
            try store.write { try $0.run("UPDATE weight_samples_cache SET seconds = ?, kilograms = ?", [.doubles(seconds), .doubles(kilograms)]) }
            #expect(try cached(store) == nil, "\(what)")
        }
        try store.write { try $0.run("DELETE FROM weight_samples_cache") }
        // The cache write checks the change count: every write of a weigh-in must move it.
        let repository = LocalWeightRepository(store: store)
        let version = try store.read { try LocalDataStore.changeCount(in: $0) }
        try store.write { try WeightTable.insert(WeightEntry(id: "late", date: Date(timeIntervalSince1970: 1.6e9), kilograms: 90), in: $0) }
        #expect(try store.read { try LocalDataStore.changeCount(in: $0) } != version, "every change counts")
        _ = try await repository.samples(withLatest: 16)
        #expect(try cached(store) == (try scanned(store)), "a fresh read caches what is there now")
    }
}
