import Synchronization
import Testing
@testable import Storage

/// `FreshLoader.refresh`, after a write of this process: what was never
/// loaded stays unloaded, and a load that was already reading when the write
/// came is followed by another, so the data shown is the data written.
@MainActor
@Suite struct FreshLoaderTests {
    /// A load the test lets go of: it reads `stored` when it starts, and
    /// keeps what it read once released.
    @MainActor final class Source {
        var stored = 1
        var shown: Int?
        var loads = 0
        var gate: CheckedContinuation<Void, Never>?
        var holding = false

        func load() async {
            loads += 1
            let read = stored
            if holding { await withCheckedContinuation { gate = $0 } }
            shown = read
        }
    }

    /// Within one command the database is asked once whether another process wrote, however many parts
    /// of the command use the data (a check-in asked four times for the settings); each new command asks
    /// again, and outside a command every use asks.
    @Test func theVersionIsAskedOncePerCommand() async throws {
        let asks = Mutex(0)
        let loader = FreshLoader(version: { asks.withLock { $0 += 1 }; return 0 })
        try await loader.ensureLoaded {}
        asks.withLock { $0 = 0 }
        for _ in 0..<5 {
            try await FreshLoader.runningCommand {
                for _ in 0..<3 { try await loader.ensureLoaded {} }
            }
        }
        #expect(asks.withLock { $0 } == 5)
        for _ in 0..<3 { try await loader.ensureLoaded {} }
        #expect(asks.withLock { $0 } == 8)
    }

    @Test func nothingLoadedStaysUnloaded() async {
        let source = Source()
        let loader = FreshLoader(version: { 0 })
        await loader.refresh { await source.load() }
        #expect(source.loads == 0 && !loader.hasLoaded)
        try? await loader.ensureLoaded { await source.load() }
        #expect(source.shown == 1 && loader.hasLoaded)
        source.stored = 2
        await loader.refresh { await source.load() }
        #expect(source.shown == 2)
    }

    @Test func aLoadThatReadBeforeTheWriteIsFollowedByAnother() async {
        let source = Source()
        let loader = FreshLoader(version: { 0 })
        source.holding = true
        loader.start { await source.load() }
        while source.gate == nil { await Task.yield() }
        // The write lands while the first load holds what it read before it.
        source.stored = 2
        source.holding = false
        async let refreshed: Void = loader.refresh { await source.load() }
        await Task.yield()
        source.gate?.resume()
        await refreshed
        #expect(source.shown == 2, "the refresh read after the write")
        #expect(source.loads == 2)
    }
}
