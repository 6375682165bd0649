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
